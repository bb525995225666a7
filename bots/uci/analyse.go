package uci

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Analyse searches pos within lim and returns the engine's answer with the
// last info reported for each MultiPV line.
//
// When ctx ends during the search Analyse sends "stop" and waits up to
// Config.StopTimeout for "bestmove"; it then returns the best move so far
// with Result.Stopped set and a nil error. An engine that ignores "stop" is
// killed and ErrTimeout returned (the next call reports ErrCrashed until
// Restart). A process that dies returns a *CrashError (errors.Is ErrCrashed);
// "bestmove (none)" returns the result with ErrNoMove. If ctx has already
// ended nothing is sent and ctx.Err() is returned.
func (e *Engine) Analyse(ctx context.Context, pos Position, lim Limits) (*Result, error) {
	posCmd, err := PositionCommand(pos)
	if err != nil {
		return nil, err
	}
	goCmd, err := GoCommand(lim)
	if err != nil {
		return nil, err
	}
	e.op.Lock()
	defer e.op.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := e.current()
	if err != nil {
		return nil, err
	}
	if err := e.start(ctx, p, lim.MultiPV, pos.Chess960, posCmd, goCmd, "search"); err != nil {
		return nil, err
	}
	return e.collect(ctx, p, lim.OnInfo)
}

// start sets the engine's MultiPV and Chess960 options as needed and sends
// the position and go commands of a search (stage names it in a crash).
func (e *Engine) start(ctx context.Context, p *process, multiPV int, chess960 bool, posCmd, goCmd, stage string) error {
	if err := e.ensureMultiPV(ctx, multiPV); err != nil {
		return err
	}
	if err := e.ensureChess960(ctx, chess960); err != nil {
		return err
	}
	if err := p.send(posCmd); err != nil {
		return p.crash(stage, err)
	}
	if err := p.send(goCmd); err != nil {
		return p.crash(stage, err)
	}
	return nil
}

// collect reads the search output up to bestmove, passing each useful info
// line to onInfo (nil: none).
func (e *Engine) collect(ctx context.Context, p *process, onInfo func(Info)) (*Result, error) {
	res := &Result{}
	done := ctx.Done()
	var stopTimer <-chan time.Time
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-p.lines:
			if !ok {
				return nil, p.crash("search", nil)
			}
		case <-done:
			done = nil
			res.Stopped = true
			if err := p.send("stop"); err != nil {
				return nil, p.crash("search (stop)", err)
			}
			t := time.NewTimer(e.cfg.stopTimeout())
			defer t.Stop()
			stopTimer = t.C
			continue
		case <-stopTimer:
			p.kill()
			e.log.Warn().Dur("stop_timeout", e.cfg.stopTimeout()).Msg("uci: engine ignored stop; killed it")
			return nil, fmt.Errorf("uci: %s: no bestmove within %v of stop: %w", p.path, e.cfg.stopTimeout(), ErrTimeout)
		case <-e.closing:
			return nil, ErrClosed
		}
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "info "):
			in, err := ParseInfo(line)
			if err != nil {
				e.log.Debug().Err(err).Msg("uci: ignoring malformed info line")
				continue
			}
			res.add(in)
			if onInfo != nil && in.Useful() {
				onInfo(in)
			}
		case line == "bestmove" || strings.HasPrefix(line, "bestmove "):
			f := strings.Fields(line)
			if len(f) < 2 {
				return nil, p.crash("search", errors.New("bestmove without a move"))
			}
			if f[1] == "(none)" || f[1] == "0000" {
				return res, fmt.Errorf("uci: %s: %w", p.path, ErrNoMove)
			}
			if !IsMove(f[1]) {
				return res, fmt.Errorf("uci: %s: bestmove %q is not a UCI move", p.path, clip(f[1]))
			}
			res.BestMove = f[1]
			if len(f) >= 4 && f[2] == "ponder" && IsMove(f[3]) {
				res.Ponder = f[3]
			}
			return res, nil
		default:
			if line != "" && line != "readyok" {
				e.log.Debug().Str("line", clip(line)).Msg("uci: ignoring unexpected output")
			}
		}
	}
}

// add records one info line in the result.
func (r *Result) add(in Info) {
	if in.Nodes > 0 {
		r.Nodes = in.Nodes
	}
	if in.Time > 0 {
		r.Time = in.Time
	}
	if !in.Useful() {
		return
	}
	for len(r.Lines) < in.MultiPV {
		r.Lines = append(r.Lines, Info{MultiPV: len(r.Lines) + 1})
	}
	r.Lines[in.MultiPV-1] = in
}

// ensureMultiPV sets the engine's MultiPV option to n lines (1 when n < 1)
// if it differs and the engine offers it.
func (e *Engine) ensureMultiPV(ctx context.Context, n int) error {
	if n < 1 {
		n = 1
	}
	e.mu.Lock()
	cur := e.multiPV
	e.mu.Unlock()
	if cur == n {
		return nil
	}
	if _, ok := e.Option("MultiPV"); !ok {
		if n > 1 {
			return fmt.Errorf("uci: %s does not offer MultiPV", e.ID().Name)
		}
		return nil
	}
	return e.setOption(ctx, "MultiPV", strconv.Itoa(n))
}

// OptChess960 is the UCI option that switches an engine to Chess960.
const OptChess960 = "UCI_Chess960"

// ensureChess960 sets the engine's UCI_Chess960 option to on if it differs.
// An engine without the option cannot search Chess960 positions.
func (e *Engine) ensureChess960(ctx context.Context, on bool) error {
	spec, ok := e.Option(OptChess960)
	if !ok {
		if on {
			return fmt.Errorf("uci: %s has no %s option: it cannot play Chess960", e.ID().Name, OptChess960)
		}
		return nil
	}
	e.mu.Lock()
	cur := e.applied[spec.Name]
	e.mu.Unlock()
	want := strconv.FormatBool(on)
	if cur == want || (cur == "" && !on) {
		return nil
	}
	return e.setOption(ctx, spec.Name, want)
}

// PositionCommand renders the "position" command for pos, rejecting input
// that is not a FEN or a UCI move (and so could smuggle in commands).
func PositionCommand(pos Position) (string, error) {
	var b strings.Builder
	fen := strings.TrimSpace(pos.FEN)
	switch {
	case fen == "" || fen == "startpos":
		b.WriteString("position startpos")
	default:
		if strings.ContainsAny(fen, "\r\n") {
			return "", fmt.Errorf("uci: position: FEN %q contains a line break", clip(fen))
		}
		if n := len(strings.Fields(fen)); n < 4 || n > 6 {
			return "", fmt.Errorf("uci: position: FEN %q has %d fields, want 4 to 6", clip(fen), n)
		}
		b.WriteString("position fen ")
		b.WriteString(strings.Join(strings.Fields(fen), " "))
	}
	if err := writeMoves(&b, "moves", pos.Moves, "uci: position: move"); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeMoves appends " keyword" and the moves to b, nothing when there are
// none; a move not in UCI notation is an error, what naming it.
func writeMoves(b *strings.Builder, keyword string, moves []string, what string) error {
	if len(moves) == 0 {
		return nil
	}
	b.WriteString(" " + keyword)
	for _, m := range moves {
		if !IsMove(m) {
			return fmt.Errorf("%s %q is not in UCI notation", what, clip(m))
		}
		b.WriteString(" ")
		b.WriteString(m)
	}
	return nil
}

// GoCommand renders the "go" command for lim; with no limit set it is
// "go infinite".
func GoCommand(lim Limits) (string, error) {
	var b strings.Builder
	b.WriteString("go")
	ms := func(name string, d time.Duration) {
		if d > 0 {
			v := d.Milliseconds()
			if v == 0 {
				v = 1
			}
			fmt.Fprintf(&b, " %s %d", name, v)
		}
	}
	ms("wtime", lim.WTime)
	ms("btime", lim.BTime)
	ms("winc", lim.WInc)
	ms("binc", lim.BInc)
	writePositive(&b, "movestogo", lim.MovesToGo)
	writePositive(&b, "depth", lim.Depth)
	writePositive(&b, "nodes", lim.Nodes)
	ms("movetime", lim.MoveTime)
	if lim.Depth < 0 || lim.Nodes < 0 || lim.MoveTime < 0 || lim.MovesToGo < 0 {
		return "", fmt.Errorf("uci: go: negative limit in %+v", lim)
	}
	if b.Len() == len("go") {
		b.WriteString(" infinite")
	}
	// Stockfish reads searchmoves to the end of the line, so it goes last.
	if err := writeMoves(&b, "searchmoves", lim.SearchMoves, "uci: go: searchmove"); err != nil {
		return "", err
	}
	return b.String(), nil
}
