// Package uciengine plays with an external UCI engine (Stockfish and the
// like) through bots/uci: it turns engine.Limits into a "go" command,
// limits strength on request, and restarts a crashed process and retries
// once.
package uciengine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
)

// DefaultMoveTime is the search time used when the limits set nothing and
// the context has no deadline: an external engine would otherwise think
// forever.
const DefaultMoveTime = time.Second

// Config describes the external engine.
type Config struct {
	// Path is the engine executable; Args and Env are passed to it.
	Path string
	Args []string
	Env  []string
	// Options are UCI options set at start and after every restart.
	Options map[string]string
	// Elo, when positive, limits strength with UCI_LimitStrength/UCI_Elo
	// (clamped into the engine's declared range).
	Elo int
	// Name overrides the name the engine gives in its handshake.
	Name string
	// Logger receives restarts and protocol problems.
	Logger zerolog.Logger
	// Client tunes the UCI client's timeouts; its Path, Args, Env, Options
	// and Logger are taken from the fields above.
	Client uci.Config
}

// Engine is an engine.Engine backed by an external UCI process. It is
// Configurable (UCI options), Stateful (ucinewgame) and Inspectable. One
// SelectMove runs at a time; concurrent calls wait their turn.
type Engine struct {
	cfg      Config
	log      zerolog.Logger
	c        *uci.Engine
	elo      int // the UCI_Elo actually applied, 0 when unlimited
	overhead time.Duration
}

// New starts the engine, sets its options and strength limit.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	cc := cfg.Client
	cc.Path, cc.Args, cc.Env, cc.Logger = cfg.Path, cfg.Args, cfg.Env, cfg.Logger
	cc.Options = cfg.Options
	c, err := uci.Start(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("uciengine: %w", err)
	}
	e := &Engine{cfg: cfg, log: cfg.Logger.With().Str("engine", cfg.Path).Logger(), c: c}
	if cfg.Elo > 0 {
		used, err := c.LimitElo(ctx, cfg.Elo)
		if err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("uciengine: limit strength to %d: %w", cfg.Elo, err)
		}
		e.elo = used
	}
	return e, nil
}

// Client returns the underlying UCI client, for callers (analysis) that
// want MultiPV or raw info lines.
func (e *Engine) Client() *uci.Engine { return e.c }

// Elo returns the UCI_Elo in force, or 0 when strength is not limited.
func (e *Engine) Elo() int { return e.elo }

// Name implements engine.Engine.
func (e *Engine) Name() string {
	if e.cfg.Name != "" {
		return e.cfg.Name
	}
	if n := e.c.ID().Name; n != "" {
		return n
	}
	return filepath.Base(e.cfg.Path)
}

// Info implements engine.Inspectable.
func (e *Engine) Info() engine.Info {
	id := e.c.ID()
	feats := map[string]bool{}
	if _, ok := e.c.Option("MultiPV"); ok {
		feats["multipv"] = true
	}
	if _, ok := e.c.Option("UCI_ShowWDL"); ok {
		feats["wdl"] = true
	}
	if _, ok := e.c.Option(uci.OptElo); ok {
		feats["limit-strength"] = true
	}
	return engine.Info{Name: e.Name(), Author: id.Author, Version: id.Name, Kind: engine.KindUCI, Features: feats}
}

// Variants returns the variants the engine plays: standard chess from any
// position, and Chess960 when it offers UCI_Chess960.
func (e *Engine) Variants() []string {
	_, ok := e.c.Option("UCI_Chess960")
	return engine.UCIVariants(ok)
}

// Configure implements engine.Configurable: each option is validated
// against the engine's declaration and sent, in name order. The special
// option "UCI_Elo" alone also turns UCI_LimitStrength on.
func (e *Engine) Configure(options map[string]string) error {
	ctx := context.Background()
	names := make([]string, 0, len(options))
	for n := range options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := e.c.SetOption(ctx, n, options[n]); err != nil {
			return fmt.Errorf("uciengine: %w", err)
		}
	}
	if v, ok := options[uci.OptElo]; ok {
		if _, lim := options[uci.OptLimitStrength]; !lim {
			if err := e.c.SetOption(ctx, uci.OptLimitStrength, "true"); err != nil {
				return fmt.Errorf("uciengine: %w", err)
			}
		}
		e.elo, _ = strconv.Atoi(v)
	}
	if err := e.c.IsReady(ctx); err != nil {
		return fmt.Errorf("uciengine: %w", err)
	}
	return nil
}

// NewGame implements engine.Stateful.
func (e *Engine) NewGame(ctx context.Context) error {
	err := e.c.NewGame(ctx)
	if errors.Is(err, uci.ErrCrashed) {
		if err = e.c.Restart(ctx); err == nil {
			err = e.c.NewGame(ctx)
		}
	}
	if err != nil {
		return fmt.Errorf("uciengine: new game: %w", err)
	}
	return nil
}

// SelectMove implements engine.Engine. If the process has crashed (before
// or during the search) it is restarted and the search retried once.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	ul := Limits(lim)
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 && lim.Deadline == 0 && !lim.Infinite && !lim.HasClock() {
		if _, ok := ctx.Deadline(); !ok {
			ul.MoveTime = DefaultMoveTime
		}
	}
	if err := e.setOverhead(ctx, lim.MoveOverhead); err != nil && !errors.Is(err, uci.ErrCrashed) {
		return engine.Move{}, err
	}
	b, moves, err := replay(pos)
	if err != nil {
		return engine.Move{}, fmt.Errorf("uciengine: %w", err)
	}
	upos := uci.Position{FEN: pos.StartFEN, Moves: moves, Chess960: pos.Chess960}
	ul.OnInfo = bestSoFar(ctx, b)
	res, err := e.c.Analyse(ctx, upos, ul)
	if errors.Is(err, uci.ErrCrashed) && ctx.Err() == nil {
		e.log.Warn().Err(err).Msg("uciengine: engine crashed; restarting and retrying")
		if rerr := e.c.Restart(ctx); rerr != nil {
			return engine.Move{}, fmt.Errorf("uciengine: %w (restart failed: %v)", err, rerr)
		}
		res, err = e.c.Analyse(ctx, upos, ul)
	}
	if err != nil {
		return engine.Move{}, fmt.Errorf("uciengine: %s: %w", e.Name(), err)
	}
	mv := toMove(res)
	// The engine's castling is written as our board writes it for the
	// variant (e1g1 in standard chess, e1h1 in Chess960).
	if m, err := b.ParseUCI(mv.UCI); err == nil {
		mv.UCI = m.String()
		if len(mv.PV) > 0 {
			mv.PV[0] = mv.UCI
		}
	}
	return mv, nil
}

// bestSoFar reports the first move of each principal variation the engine
// prints (the main line, a score not bounded by a failed window) as the
// best move so far (engine.ReportBestSoFar), written as our board writes
// it. b is the position searched; it is only read.
func bestSoFar(ctx context.Context, b *board.Board) func(uci.Info) {
	return func(in uci.Info) {
		if len(in.PV) == 0 || in.MultiPV > 1 || in.LowerBound || in.UpperBound {
			return
		}
		m, err := b.ParseUCI(in.PV[0])
		if err != nil {
			return
		}
		mv := engine.Move{UCI: m.String(), Depth: in.Depth, Score: in.Score, HasScore: in.HasScore, PV: in.PV}
		engine.ReportBestSoFar(ctx, mv)
	}
}

// replay sets up pos on a board, returning the board at the last move and
// the moves written as the variant's UCI expects them (a Chess960 engine
// wants castling as king takes rook, a standard one as the king's move).
func replay(pos engine.Position) (*board.Board, []string, error) {
	b, err := board.FromFENVariant(pos.FEN(), pos.Chess960)
	if err != nil {
		return nil, nil, fmt.Errorf("position: %w", err)
	}
	moves := make([]string, len(pos.Moves))
	for i, s := range pos.Moves {
		m, err := b.ParseUCI(s)
		if err != nil {
			return nil, nil, fmt.Errorf("position move %d: %w", i+1, err)
		}
		moves[i] = m.String()
		b.Make(m)
	}
	return b, moves, nil
}

// setOverhead passes the move overhead to the engine's "Move Overhead"
// option when it has one and the value changed.
func (e *Engine) setOverhead(ctx context.Context, d time.Duration) error {
	if d <= 0 || d == e.overhead {
		return nil
	}
	spec, ok := e.c.Option("Move Overhead")
	if !ok || spec.Type != uci.OptionSpin {
		return nil
	}
	ms := min(max(int(d.Milliseconds()), spec.Min), spec.Max)
	if err := e.c.SetOption(ctx, spec.Name, strconv.Itoa(ms)); err != nil {
		return fmt.Errorf("uciengine: move overhead: %w", err)
	}
	e.overhead = d
	return nil
}

// Close implements engine.Engine.
func (e *Engine) Close() error { return e.c.Close() }

// Limits converts engine limits to a UCI "go". A fixed move time is reduced
// by the move overhead (never below 1 ms); clock times are passed as they
// are, the overhead going to the engine's own Move Overhead option. A
// Deadline (the game's time plan, see bots/timeman) is sent as "movetime"
// beside the clock when it is tighter than the fixed move time: UCI engines
// stop at the first limit reached, so the engine keeps its own clock
// management but never passes the deadline (before the first move, a
// 15-minute clock would otherwise have it think past Lichess's first-move
// deadline).
func Limits(lim engine.Limits) uci.Limits {
	ul := uci.Limits{
		Depth: lim.Depth, Nodes: lim.Nodes,
		WTime: lim.WTime, BTime: lim.BTime, WInc: lim.WInc, BInc: lim.BInc, MovesToGo: lim.MovesToGo,
	}
	if lim.MoveTime > 0 {
		ul.MoveTime = max(lim.MoveTime-lim.MoveOverhead, time.Millisecond)
	}
	if lim.Deadline > 0 && (ul.MoveTime == 0 || lim.Deadline < ul.MoveTime) {
		ul.MoveTime = lim.Deadline
	}
	if lim.Infinite {
		ul = uci.Limits{}
	}
	return ul
}

// toMove converts a search result to an engine.Move.
func toMove(res *uci.Result) engine.Move {
	m := engine.Move{UCI: res.BestMove, Nodes: res.Nodes}
	if best, ok := res.Best(); ok {
		m.Depth = best.Depth
		m.PV = append([]string(nil), best.PV...)
		// "mate 0" (best.Mated) leaves the move unscored: score.FromUCI.
		m.Score, m.HasScore = best.Score, best.HasScore
		if best.Nodes > m.Nodes {
			m.Nodes = best.Nodes
		}
	}
	// The expected reply ("bestmove … ponder X") completes a PV that
	// stopped at our move: the runner ponders on PV[1].
	if res.Ponder != "" && len(m.PV) < 2 && m.UCI != "" {
		m.PV = []string{m.UCI, res.Ponder}
	}
	return m
}
