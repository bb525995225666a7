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

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/timeman"
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

	tb      Tablebase // see WithTablebase; closed with the engine
	tbDepth int
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

// Close marks the engine closed and closes its tablebase, if any (once).
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	if e.tb != nil {
		if err := e.tb.Close(); err != nil {
			return fmt.Errorf("knobs: close tablebase: %w", err)
		}
	}
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
	b, err := board.FromFENVariant(pos.FEN(), pos.Chess960)
	if err != nil {
		return nil, fmt.Errorf("knobs: bad FEN %q: %w", pos.FEN(), err)
	}
	n := &node{pos: b, mb: mailboxOf(b)}
	if err := checkSane(p, n); err != nil {
		return nil, fmt.Errorf("knobs: bad FEN %q: %w", pos.FEN(), err)
	}
	hist := map[repKey]int{keyOf(&n.mb, n.pos): 1}
	for i, u := range pos.Moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("knobs: move %d: %w", i+1, err)
		}
		b.Make(m)
		n.mb = mailboxOf(b)
		hist[keyOf(&n.mb, n.pos)]++
	}
	// The search tracks repetitions in hist; its boards need no history.
	if n.pos, err = board.FromFENVariant(b.FEN(), pos.Chess960); err != nil {
		return nil, fmt.Errorf("knobs: position after the moves: %w", err)
	}
	n.feat = p.measure(&n.mb)
	return &game{root: n, hist: hist}, nil
}

// checkSane rejects positions the search cannot play from: a side without
// exactly one king, pawns on the first or last rank, or the side not to move
// in check.
func checkSane(p *params, n *node) error {
	var kings [2]int
	for sq, pc := range n.mb {
		switch absKind(pc) {
		case kKing:
			kings[pieceColor(pc)]++
		case kPawn:
			if r := sq / 8; r == 0 || r == 7 {
				return fmt.Errorf("pawn on %s", board.Square(sq))
			}
		}
	}
	if kings[white] != 1 || kings[black] != 1 {
		return fmt.Errorf("%d white and %d black kings", kings[white], kings[black])
	}
	f := p.measure(&n.mb)
	if f[1-colorIndex(n.pos.SideToMove())].inCheck {
		return errors.New("the side not to move is in check")
	}
	return nil
}

// deadline returns when the search must stop, zero for no time limit: the
// target of Outpost's time plan (bots/timeman), which honours the clock,
// a fixed move time, the first-move deadline and the caller's Deadline.
// The knobs search has no separate soft limit: it stops at the target and
// plays the best move of the last finished iteration.
func deadline(lim engine.Limits, white bool, start time.Time) time.Time {
	p := timeman.Plan(lim, white)
	if !p.Bounded {
		return time.Time{}
	}
	return start.Add(p.Target)
}

// outcome is the result of one search.
type outcome struct {
	game    *game
	moves   []board.Move // legal root moves, best first after the search
	best    []candidate  // candidates of the last completed iteration, best first
	reached int          // depth of the last completed iteration
	target  int          // intended depth
	nodes   int64
	engine  int // engine colour
}

// run searches pos under lim. With exact every root move gets a full
// window so that every candidate's score is exact.
func (e *Engine) run(ctx context.Context, cfg Config, pos engine.Position, lim engine.Limits, exact bool) (*outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("knobs: search: %w", err)
	}
	p := newParams(cfg)
	g, err := parsePosition(p, pos)
	if err != nil {
		return nil, err
	}
	root := g.root
	moves := root.pos.LegalMoves()
	if len(moves) == 0 {
		return nil, fmt.Errorf("knobs: no legal moves in %s", root.pos.FEN())
	}
	s := &searcher{
		lc:       lineContext{p: p, engine: colorIndex(root.pos.SideToMove()), root: root.feat},
		p:        p,
		ctx:      ctx,
		deadline: deadline(lim, root.pos.SideToMove() == board.White, time.Now()),
		maxNodes: lim.Nodes,
		maxExt:   cfg.MaxExtensionPlies,
		hist:     g.hist,
		tb:       e.tb,
		tbDepth:  e.tbDepth,
	}
	o := &outcome{game: g, moves: moves, target: cfg.SearchDepth, engine: s.lc.engine}
	if lim.Depth > 0 {
		o.target = lim.Depth
	}
	if cfg.SearchMode == ModeGreedy {
		o.target = 1
	}
	s.orderMoves(root, moves)
	for d := 1; d <= o.target; d++ {
		s.depth = d
		cands, ok := s.iterate(root, moves, d, exact)
		if !ok {
			break
		}
		o.best, o.reached = cands, d
		// Whoever enforces the deadline may play it if this search is
		// not scheduled again in time (see engine.BestSoFar).
		engine.ReportBestSoFar(ctx, engine.Move{UCI: cands[0].uci, Depth: d, PV: cands[0].res.pv})
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
	o.nodes = s.nodes
	return o, nil
}

// SelectMove chooses a move in pos: the best line of the line search (or
// the greedy 1-ply mode), or the knight loop when that test toggle is on
// (the returned score is then still the best line's, which is what the
// manual test watches). In debug mode every candidate line's breakdown is
// written to the debug output.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	e.mu.Lock()
	cfg, closed, dbg := e.cfg, e.closed, e.debug
	e.mu.Unlock()
	if closed {
		return engine.Move{}, errors.New("knobs: engine is closed")
	}
	o, err := e.run(ctx, cfg, pos, lim, cfg.Debug)
	if err != nil {
		return engine.Move{}, fmt.Errorf("knobs: select move: %w", err)
	}
	root := o.game.root
	if o.best == nil {
		// Not even one ply finished: play the first ordered move.
		u := o.moves[0].String()
		out := engine.Move{UCI: u, PV: []string{u}, Nodes: o.nodes}
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("knobs: select move: %w", err)
		}
		return out, nil
	}
	top := o.best[0]
	out := engine.Move{UCI: top.uci, Depth: o.reached, Nodes: o.nodes, PV: top.res.pv,
		Score: score.CP(int(math.Round(top.res.score))), HasScore: true}
	switch top.res.bd.Mated {
	case 1:
		out.Score.Mate = (top.res.bd.Plies + 1) / 2
	case -1:
		out.Score.Mate = -(top.res.bd.Plies / 2)
	}
	loop := ""
	if cfg.ForceKnightCenterLoop {
		if m, ok := knightLoopMove(root, o.moves); ok {
			loop = m.String()
			out.UCI, out.PV = loop, []string{loop}
		}
	}
	if cfg.Debug && dbg != nil {
		writeDebug(dbg, debugReport{
			fen: root.pos.FEN(), engine: o.engine, setting: o.target, reached: o.reached,
			nodes: o.nodes, cands: o.best, loop: loop, gameThreefold: o.game.hist[keyOf(&root.mb, root.pos)] >= 3,
		})
	}
	return out, nil
}

// Candidate is one root move with its best line, scored exactly.
type Candidate struct {
	Move    string    `json:"move"`    // the root move, UCI
	Line    []string  `json:"line"`    // the line that produced the score, starting with Move
	Score   float64   `json:"score"`   // engine-centric line score (higher is better for the engine)
	White   Breakdown `json:"white"`   // the line's components, white-centric; White.Plies is the explored length
	Depth   int       `json:"depth"`   // the intended nominal depth
	Reached int       `json:"reached"` // the depth of the last completed iteration
}

// Explain searches pos as SelectMove does but scores every root move
// exactly and returns all candidates, best first, with their white-centric
// breakdowns (the data behind debug mode, for editors and reports). It
// returns an error when no iteration completed within lim.
func (e *Engine) Explain(ctx context.Context, pos engine.Position, lim engine.Limits) ([]Candidate, error) {
	cfg := e.Config()
	o, err := e.run(ctx, cfg, pos, lim, true)
	if err != nil {
		return nil, fmt.Errorf("knobs: explain: %w", err)
	}
	if o.best == nil {
		return nil, errors.New("knobs: explain: the search did not complete one ply within the limits")
	}
	sign := 1.0
	if o.engine == black {
		sign = -1
	}
	out := make([]Candidate, len(o.best))
	for i, c := range o.best {
		out[i] = Candidate{Move: c.uci, Line: c.res.pv, Score: c.res.score, White: c.res.bd.scaled(sign),
			Depth: o.target, Reached: o.reached}
	}
	return out, nil
}

// iterate runs one root iteration to depth d, reporting false when the
// search was cut short.
func (s *searcher) iterate(root *node, moves []board.Move, d int, exact bool) (cands []candidate, ok bool) {
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
