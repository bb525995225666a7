package knobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/notnil/chess"
	"github.com/outpostchess/outpost/bots/engine"
)

// Name is the engine's registered name.
const Name = "knobs"

// Engine is the eval-knob engine. It is safe for concurrent use; each
// SelectMove works on its own copy of the configuration.
type Engine struct {
	mu     sync.Mutex
	cfg    Config
	name   string
	debug  io.Writer
	closed bool
}

// Option customises an Engine.
type Option func(*Engine)

// WithDebugOutput sets where debug mode writes its per-candidate breakdowns
// (default os.Stderr, so that a UCI front-end's stdout stays clean).
func WithDebugOutput(w io.Writer) Option {
	return func(e *Engine) { e.debug = w }
}

// WithName overrides the name returned by Name.
func WithName(name string) Option {
	return func(e *Engine) { e.name = name }
}

// New returns an engine with the given knobs, which must validate.
func New(cfg Config, opts ...Option) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("knobs: new engine: %w", err)
	}
	e := &Engine{cfg: cfg, name: Name, debug: os.Stderr}
	for _, o := range opts {
		o(e)
	}
	return e, nil
}

// Config returns the engine's current knobs.
func (e *Engine) Config() Config {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg
}

// Name returns the engine's name.
func (e *Engine) Name() string { return e.name }

// Close marks the engine closed; it holds no other resources.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return nil
}

// Configure sets knobs by name (TOML keys; camelCase, spaces and dashes are
// normalised) from their textual values, validating the result. On error no
// knob changes.
func (e *Engine) Configure(options map[string]string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	cfg, err := e.cfg.ParseStrings(options)
	if err != nil {
		return fmt.Errorf("knobs: configure: %w", err)
	}
	e.cfg = cfg
	return nil
}

// Info describes the engine.
func (e *Engine) Info() engine.Info {
	cfg := e.Config()
	return engine.Info{
		Name:    e.name,
		Author:  "Outpost",
		Version: "1",
		Kind:    engine.KindBuiltin,
		Features: map[string]bool{
			"greedy":           cfg.SearchMode == ModeGreedy,
			"line-search":      cfg.SearchMode == ModeLine,
			"check-extension":  true,
			"swing-extension":  true,
			"threefold-cutoff": true,
			"debug":            cfg.Debug,
		},
	}
}

// Interface checks.
var (
	_ engine.Configurable = (*Engine)(nil)
	_ engine.Inspectable  = (*Engine)(nil)
)

// game is a parsed engine.Position.
type game struct {
	root *node
	hist map[repKey]int
}

func parsePosition(p *params, pos engine.Position) (*game, error) {
	fenOpt, err := chess.FEN(pos.FEN())
	if err != nil {
		return nil, fmt.Errorf("knobs: bad FEN %q: %w", pos.FEN(), err)
	}
	cp := chess.NewGame(fenOpt).Position()
	n := &node{pos: cp, mb: mailboxOf(cp.Board())}
	hist := map[repKey]int{keyOf(&n.mb, n.pos): 1}
	for i, u := range pos.Moves {
		var found *chess.Move
		for _, m := range n.pos.ValidMoves() {
			if m.String() == u {
				found = m
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("knobs: move %d %q is not legal in %s", i+1, u, n.pos.String())
		}
		n.pos = n.pos.Update(found)
		n.mb.play(found)
		hist[keyOf(&n.mb, n.pos)]++
	}
	n.feat = p.measure(&n.mb)
	return &game{root: n, hist: hist}, nil
}

// deadline returns when the search must stop, zero for no time limit.
func deadline(lim engine.Limits, white bool, start time.Time) time.Time {
	if lim.Infinite {
		return time.Time{}
	}
	var d time.Duration
	switch {
	case lim.MoveTime > 0:
		d = lim.MoveTime - lim.MoveOverhead
	case lim.HasClock():
		mine, inc := lim.WTime, lim.WInc
		if !white {
			mine, inc = lim.BTime, lim.BInc
		}
		togo := time.Duration(30)
		if lim.MovesToGo > 0 {
			togo = time.Duration(lim.MovesToGo + 1)
		}
		d = mine/togo + inc*3/4
		if d > mine/5 {
			d = mine / 5
		}
		d -= lim.MoveOverhead
	default:
		return time.Time{}
	}
	if d < 5*time.Millisecond {
		d = 5 * time.Millisecond
	}
	return start.Add(d)
}

// SelectMove chooses a move in pos: the best line of the line search (or
// the greedy 1-ply mode), or the knight loop when that test toggle is on.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	e.mu.Lock()
	cfg, closed, dbg := e.cfg, e.closed, e.debug
	e.mu.Unlock()
	if closed {
		return engine.Move{}, errors.New("knobs: engine is closed")
	}
	if err := ctx.Err(); err != nil {
		return engine.Move{}, fmt.Errorf("knobs: select move: %w", err)
	}
	p := newParams(cfg)
	g, err := parsePosition(p, pos)
	if err != nil {
		return engine.Move{}, err
	}
	root := g.root
	moves := root.pos.ValidMoves()
	if len(moves) == 0 {
		return engine.Move{}, fmt.Errorf("knobs: no legal moves in %s", root.pos.String())
	}
	s := &searcher{
		lc:       lineContext{p: p, engine: colorIndex(root.pos.Turn()), root: root.feat},
		p:        p,
		ctx:      ctx,
		deadline: deadline(lim, root.pos.Turn() == chess.White, time.Now()),
		maxNodes: lim.Nodes,
		maxExt:   cfg.MaxExtensionPlies,
		hist:     g.hist,
	}
	target := cfg.SearchDepth
	if lim.Depth > 0 {
		target = lim.Depth
	}
	if cfg.SearchMode == ModeGreedy {
		target = 1
	}
	s.orderMoves(root, moves)
	var best []candidate
	reached := 0
	for d := 1; d <= target; d++ {
		cands, ok := s.iterate(root, moves, d, cfg.Debug)
		if !ok {
			break
		}
		best, reached = cands, d
		if cands[0].res.bd.Mated == 1 {
			break // a forced mate cannot be improved on by searching deeper
		}
		// Search the best moves of this iteration first in the next one.
		for i, c := range cands {
			for j := i; j < len(moves); j++ {
				if moves[j].String() == c.uci {
					moves[i], moves[j] = moves[j], moves[i]
					break
				}
			}
		}
	}
	if best == nil {
		// Not even one ply finished: play the first ordered move.
		best = []candidate{{uci: moves[0].String(), res: result{pv: []string{moves[0].String()}}}}
	}
	top := best[0]
	out := engine.Move{UCI: top.uci, Depth: reached, Nodes: s.nodes, PV: top.res.pv}
	if reached > 0 {
		out.Score = engine.Score{CP: int(math.Round(top.res.score)), Set: true}
		switch top.res.bd.Mated {
		case 1:
			out.Score.Mate = (top.res.bd.Plies + 1) / 2
		case -1:
			out.Score.Mate = -(top.res.bd.Plies / 2)
		}
	}
	loop := ""
	if cfg.ForceKnightCenterLoop {
		if m := knightLoopMove(root, moves); m != nil {
			loop = m.String()
			out.UCI, out.PV = loop, []string{loop}
		}
	}
	if cfg.Debug && dbg != nil && reached > 0 {
		writeDebug(dbg, debugReport{
			fen: root.pos.String(), engine: s.lc.engine, setting: target, reached: reached,
			nodes: s.nodes, cands: best, loop: loop, gameThreefold: g.hist[keyOf(&root.mb, root.pos)] >= 3,
		})
	}
	if err := ctx.Err(); err != nil && reached == 0 {
		return out, fmt.Errorf("knobs: select move: %w", err)
	}
	return out, nil
}

// iterate runs one root iteration to depth d, reporting false when the
// search was cut short.
func (s *searcher) iterate(root *node, moves []*chess.Move, d int, exact bool) (cands []candidate, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(abortSignal); !is {
				panic(r)
			}
			cands, ok = nil, false
		}
	}()
	return s.searchRoot(root, moves, d, exact), true
}
