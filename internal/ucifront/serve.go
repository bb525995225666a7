package ucifront

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
)

// Config describes what the front-end announces and how it searches.
type Config struct {
	// Name and Author are sent as "id name" and "id author"; Name defaults
	// to the engine's name, Author to the engine's Info().Author or
	// "Outpost".
	Name, Author string
	// Options are announced in reply to "uci"; "setoption" is passed to the
	// engine's Configure whether announced or not.
	Options []uci.OptionSpec
	// MoveOverhead is put into every search's limits.
	MoveOverhead time.Duration
	// Logger receives protocol errors at debug level.
	Logger zerolog.Logger
}

// Serve reads UCI commands from in and answers on out for eng until "quit",
// the end of in, or ctx ends. At the end of input a running timed search is
// allowed to finish (so "go depth 5" piped from a file prints its move); an
// infinite or ponder search is stopped. Serve does not close eng.
//
// Searches run in the background so that "stop", "isready" and "quit" are
// answered at once. "go infinite" and "go ponder" hold the best move until
// "stop" (or "ponderhit", which restarts the search with the real limits),
// as the specification requires. Bad input is answered with an "info string"
// naming the problem; the previous state is kept.
func Serve(ctx context.Context, in io.Reader, out io.Writer, eng engine.Engine, cfg Config) error {
	s := &server{ctx: ctx, eng: eng, cfg: cfg, out: out, results: make(chan result, 4)}
	if s.cfg.Name == "" {
		s.cfg.Name = eng.Name()
	}
	if in, ok := eng.(engine.Inspectable); ok && s.cfg.Author == "" {
		s.cfg.Author = in.Info().Author
	}
	if s.cfg.Author == "" {
		s.cfg.Author = "Outpost"
	}
	lines := make(chan string)
	done := make(chan struct{})
	defer close(done)
	var readErr error // written before lines is closed, read after
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), maxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-done:
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("a command line longer than %d bytes: %w", maxLine, err)
			}
			readErr = fmt.Errorf("ucifront: read the commands: %w", err)
		}
	}()
	for {
		select {
		case <-ctx.Done():
			s.finish(true)
			return ctx.Err()
		case r := <-s.results:
			s.onResult(r)
		case line, ok := <-lines:
			if !ok {
				s.finish(false) // let a timed search finish; infinite ones are stopped
				if s.err == nil {
					s.err = readErr
				}
				return s.err
			}
			if s.handle(line) {
				s.finish(true)
				return s.err
			}
		}
		if s.err != nil {
			s.finish(true)
			return s.err
		}
	}
}

// maxLine bounds one command line (bytes): a position of 5,000 moves is
// about 25 KB, so 1 MiB is no real game's; a longer line ends Serve with an
// error instead of a silent end of input.
const maxLine = 1 << 20

// server is the state of one Serve call; only Serve's goroutine touches it
// (searches report through results).
type server struct {
	ctx   context.Context
	eng   engine.Engine
	cfg   Config
	out   io.Writer
	outMu sync.Mutex
	err   error // first write error
	pos   engine.Position
	// badPos is why the last position command was refused, nil when it was
	// taken: go then searches nothing rather than the previous position.
	badPos error
	// chess960 is the GUI's UCI_Chess960: positions are Chess960 ones.
	chess960 bool
	cur      *search
	results  chan result
}

// search is one "go".
type search struct {
	cancel  context.CancelFunc
	cmd     Command
	hold    bool // infinite or ponder: bestmove waits for stop
	stopped bool // stop received
	discard bool // replaced by ponderhit: print nothing
	held    *result
	start   time.Time
}

type result struct {
	s   *search
	m   engine.Move
	err error
}

// handle runs one command line; it returns true on quit.
func (s *server) handle(line string) bool {
	c, err := parseCommand(line, s.chess960)
	if err != nil {
		if len(line) > 0 {
			s.say("info string %v", err)
		}
		if f := strings.Fields(line); len(f) > 0 && f[0] == "position" {
			s.badPos = err
		}
		return false
	}
	switch c.Name {
	case "quit":
		return true
	case "uci":
		s.say("id name %s", s.cfg.Name)
		s.say("id author %s", s.cfg.Author)
		for _, o := range s.cfg.Options {
			if !strings.EqualFold(o.Name, chess960Option) {
				s.say("%s", o.Format())
			}
		}
		if engine.Plays(s.eng, "chess960") {
			s.say("option name %s type check default false", chess960Option)
		}
		s.say("uciok")
	case "isready":
		s.say("readyok")
	case "debug", "register":
	case "setoption":
		s.setOption(c)
	case "ucinewgame":
		s.finish(true)
		if st, ok := s.eng.(engine.Stateful); ok {
			if err := st.NewGame(s.ctx); err != nil {
				s.say("info string error: new game: %v", err)
			}
		}
		s.pos, s.badPos = engine.Position{}, nil
	case "position":
		if _, err := c.Position.Board(); err != nil {
			s.say("info string error: %v", err)
			s.badPos = err
			return false
		}
		s.pos, s.badPos = c.Position, nil
	case "go":
		s.startSearch(c)
	case "stop":
		if s.cur != nil {
			s.cur.stopped = true
			s.cur.cancel()
			if s.cur.held != nil {
				s.onResult(*s.cur.held)
			}
		}
	case "ponderhit":
		if s.cur != nil && s.cur.cmd.Ponder {
			old := s.cur
			old.discard = true
			old.cancel()
			c := old.cmd
			c.Ponder = false
			s.cur = nil
			s.startSearch(c)
		}
	}
	return false
}

// chess960Option is the UCI option switching to Chess960 positions; the
// front-end handles it for every engine that plays Chess960 (the engine
// learns it from engine.Position.Chess960).
const chess960Option = "UCI_Chess960"

func (s *server) setOption(c Command) {
	if s.cur != nil {
		s.say("info string error: setoption %s ignored during a search", c.OptionName)
		return
	}
	if strings.EqualFold(c.OptionName, chess960Option) {
		switch v := strings.ToLower(strings.TrimSpace(c.OptionValue)); {
		case !engine.Plays(s.eng, "chess960"):
			s.say("info string error: %s plays no Chess960: %s ignored", s.cfg.Name, chess960Option)
		case v == "true" || v == "false":
			s.chess960 = v == "true"
		default:
			s.say("info string error: %s: want true or false, got %q", chess960Option, clip(c.OptionValue))
		}
		return
	}
	ce, ok := s.eng.(engine.Configurable)
	if !ok {
		s.say("info string error: %s has no options", s.cfg.Name)
		return
	}
	if err := ce.Configure(map[string]string{c.OptionName: c.OptionValue}); err != nil {
		s.say("info string error: %v", err)
	}
}

func (s *server) startSearch(c Command) {
	if s.cur != nil {
		s.say("info string error: go ignored: already searching")
		return
	}
	if s.badPos != nil {
		// The GUI's position was refused: searching the one before (the
		// start position at first) would answer a question not asked.
		s.say("info string error: go: no position to search, the last position command was refused: %v", s.badPos)
		s.say("bestmove (none)")
		return
	}
	g, err := s.pos.Board()
	if err == nil && !g.HasLegalMoves() {
		s.say("bestmove (none)")
		return
	}
	lim := c.Limits
	lim.MoveOverhead = s.cfg.MoveOverhead
	if c.Ponder {
		lim = engine.Limits{Infinite: true}
	}
	if len(c.SearchMoves) > 0 {
		s.say("info string searchmoves is not supported; searching all moves")
	}
	ctx, cancel := context.WithCancel(s.ctx)
	cur := &search{cancel: cancel, cmd: c, hold: lim.Infinite, start: time.Now()}
	s.cur = cur
	pos := s.pos
	go func() {
		m, err := s.eng.SelectMove(ctx, pos, lim)
		s.results <- result{s: cur, m: m, err: err}
	}()
}

// onResult prints a finished search's answer, or holds it until "stop".
func (s *server) onResult(r result) {
	sr := r.s
	if sr.discard {
		return
	}
	if sr.hold && !sr.stopped {
		sr.held = &r
		return
	}
	if s.cur == sr {
		s.cur = nil
	}
	sr.cancel()
	if r.err != nil || r.m.UCI == "" {
		if r.err != nil {
			s.say("info string error: %v", r.err)
		}
		s.say("bestmove (none)")
		return
	}
	if line := infoLine(r.m, time.Since(sr.start)); line != "" {
		s.say("%s", line)
	}
	if len(r.m.PV) > 1 && r.m.PV[0] == r.m.UCI {
		s.say("bestmove %s ponder %s", r.m.UCI, r.m.PV[1])
	} else {
		s.say("bestmove %s", r.m.UCI)
	}
}

// finish ends the running search: stop it (when stop is true) or let it
// run to its limits, then print its answer.
func (s *server) finish(stop bool) {
	for s.cur != nil {
		cur := s.cur
		if stop || cur.hold { // a held search only ends with stop
			cur.stopped = true
			cur.cancel()
		}
		if cur.held != nil {
			s.onResult(*cur.held)
			continue
		}
		r := <-s.results
		s.onResult(r)
	}
	// Drain answers of discarded (ponderhit) searches.
	for {
		select {
		case r := <-s.results:
			s.onResult(r)
		default:
			return
		}
	}
}

// infoLine renders what the engine reported about its move.
func infoLine(m engine.Move, elapsed time.Duration) string {
	in := uci.Info{MultiPV: 1, Depth: m.Depth, Nodes: m.Nodes, PV: m.PV, Time: elapsed.Truncate(time.Millisecond)}
	if len(in.PV) == 0 || in.PV[0] != m.UCI {
		in.PV = []string{m.UCI}
	}
	in.Score, in.HasScore = m.Score, m.HasScore
	if ms := elapsed.Milliseconds(); ms > 0 && m.Nodes > 0 {
		in.NPS = m.Nodes * 1000 / ms
	}
	if in.Depth == 0 && !in.HasScore && m.Nodes == 0 {
		return ""
	}
	return uci.FormatInfo(in)
}

// say writes one line; the first write error ends Serve.
func (s *server) say(format string, a ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.err != nil {
		return
	}
	if _, err := fmt.Fprintf(s.out, format+"\n", a...); err != nil {
		s.err = fmt.Errorf("ucifront: write: %w", err)
	}
}
