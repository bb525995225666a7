// Package search holds Outpost's alpha-beta engines on the bots/board
// bitboard board: medium (negamax alpha-beta, iterative deepening, MVV-LVA
// ordering, quiescence search, piece-square tables and mobility) and hard
// (medium plus transposition table, principal variation search, null-move
// pruning, late-move reductions, killer and history heuristics, check
// extensions, repetition detection, static exchange evaluation, futility
// pruning, aspiration windows and a tapered evaluation). Every hard feature
// can be switched off (WithoutFeatures) to measure its gain.
package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
)

// ErrClosed is returned by SelectMove after Close.
var ErrClosed = errors.New("search: engine closed")

// Engine is a medium or hard search engine. It implements engine.Engine,
// engine.Configurable, engine.Stateful and engine.Inspectable. It is safe for
// concurrent use (searches are serialised).
type Engine struct {
	mu      sync.Mutex
	cfg     config
	tt      *ttable
	history *[2][64][64]int32
	corr    *corrHistory
	s       *searcher // reused between searches (its scratch stack is large)
	closed  bool
}

var (
	_ engine.Configurable = (*Engine)(nil)
	_ engine.Stateful     = (*Engine)(nil)
	_ engine.Inspectable  = (*Engine)(nil)
)

// NewMedium returns the medium engine: no optional features, the simple
// evaluation, 1 s per move when given no limit.
func NewMedium(opts ...Option) (*Engine, error) {
	return newEngine(config{name: "medium", features: 0, defaultTime: time.Second, maxDepth: maxDepth, log: zerolog.Nop()}, opts)
}

// NewHard returns the hard engine: every feature, the full evaluation, a
// 64 MiB transposition table, 2 s per move when given no limit.
func NewHard(opts ...Option) (*Engine, error) {
	return newEngine(config{name: "hard", features: AllFeatures, hashMB: 64, defaultTime: 2 * time.Second, maxDepth: maxDepth, log: zerolog.Nop()}, opts)
}

func newEngine(cfg config, opts []Option) (*Engine, error) {
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	e := &Engine{cfg: cfg, history: new([2][64][64]int32), corr: new(corrHistory)}
	e.allocTT()
	return e, nil
}

func (e *Engine) allocTT() {
	e.tt = nil
	if e.cfg.features&FeatTT != 0 {
		if e.cfg.hashMB == 0 {
			e.cfg.hashMB = 16
		}
		e.tt = newTT(e.cfg.hashMB)
	}
}

// Name returns the engine's name ("medium", "hard" or the WithName value).
func (e *Engine) Name() string { return e.cfg.name }

// Features returns the engine's active feature set.
func (e *Engine) Features() Features { return e.cfg.features }

// Close releases the transposition table. It is idempotent.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	e.tt = nil
	if e.cfg.tb != nil {
		if err := e.cfg.tb.Close(); err != nil {
			return fmt.Errorf("search %s: closing tablebase: %w", e.cfg.name, err)
		}
	}
	return nil
}

// NewGame forgets everything learnt in the previous game.
func (e *Engine) NewGame(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.tt != nil {
		e.tt.clear()
	}
	*e.history = [2][64][64]int32{}
	*e.corr = corrHistory{}
	return ctx.Err()
}

// Info describes the engine and its active features.
func (e *Engine) Info() engine.Info {
	f := map[string]bool{}
	for _, n := range FeatureNames() {
		v, _ := ParseFeatures(n)
		f[n] = e.cfg.features&v != 0
	}
	return engine.Info{Name: e.cfg.name, Author: "Outpost", Version: "1", Kind: engine.KindBuiltin, Features: f}
}

// net is the network of feature net: WithNet's, or the embedded one.
func (e *Engine) net() *Net {
	if e.cfg.net != nil {
		return e.cfg.net
	}
	return embeddedNet()
}

// Configure sets options by name (case-insensitive): "Hash" (MiB),
// "Features" (the full comma-separated set), "Disable" (features to
// switch off) and "Net" (a network file for feature net, see WithNet: a
// developer's option, not announced to UCI front-ends).
func (e *Engine) Configure(options map[string]string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	cfg := e.cfg
	for k, v := range options {
		var opt Option
		switch strings.ToLower(k) {
		case "hash":
			mb, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("search: option Hash %q: not an integer", v)
			}
			opt = WithHashMB(mb)
		case "features":
			f, err := ParseFeatures(v)
			if err != nil {
				return err
			}
			opt = WithFeatures(f)
		case "disable":
			opt = WithoutFeatures(strings.Split(v, ",")...)
		case "net":
			n, err := ReadNet(strings.TrimSpace(v))
			if err != nil {
				return err
			}
			opt = WithNet(n)
		default:
			return fmt.Errorf("search: unknown option %q (known: Hash, Features, Disable, Net)", k)
		}
		if err := opt(&cfg); err != nil {
			return err
		}
	}
	e.cfg = cfg
	if e.tt == nil || len(e.tt.entries)*16 > cfg.hashMB<<20 || cfg.features&FeatTT == 0 {
		e.allocTT()
	}
	return nil
}

// SelectMove searches pos within lim and returns the best move found. It
// answers at once when there is a single legal move, and returns the best
// move so far when ctx is cancelled (an error only if ctx was done before
// any move could be chosen).
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	return e.selectMove(ctx, pos, lim, nil)
}

// selectMove is SelectMove resuming from seed when it is not nil: a result
// this engine's search already completed for pos to seed.Depth (a ponder
// search's, see Ponder). The iterations up to seed.Depth are not searched
// again: the search starts at seed.Depth+1 around seed's score, with seed's
// move searched first, and returns seed itself when that depth already
// meets lim.Depth. Starting again at depth 1 would throw the pondered
// iterations away: a shallow iteration's windows differ from the deep
// search's scores, so the table's deep bounds rarely cut there and the
// shallow iterations cost as much as in a cold search.
// Long: the iterative-deepening loop with its stop, time and mate checks,
// kept whole so that the order of the checks stays visible.
func (e *Engine) selectMove(ctx context.Context, pos engine.Position, lim engine.Limits, seed *engine.Move) (engine.Move, error) {
	start := time.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return engine.Move{}, ErrClosed
	}
	b, err := pos.Board()
	if err != nil {
		return engine.Move{}, fmt.Errorf("search %s: %w", e.cfg.name, err)
	}
	legal := b.LegalMoves()
	switch len(legal) {
	case 0:
		return engine.Move{}, fmt.Errorf("search %s: no legal moves in %s (%s)", e.cfg.name, b.FEN(), b.Status())
	case 1:
		return engine.Move{UCI: legal[0].String(), PV: []string{legal[0].String()}}, nil
	}
	if err := ctx.Err(); err != nil {
		return engine.Move{}, fmt.Errorf("search %s: %w", e.cfg.name, err)
	}

	kind := EvalSimple
	if e.cfg.features&FeatFullEval != 0 {
		kind = EvalFull
		if e.cfg.features&FeatEvalPlus != 0 {
			kind = EvalPlus
		}
	}
	if e.cfg.features&FeatNet != 0 {
		kind = EvalNet
	}
	if e.s == nil {
		e.s = &searcher{ec: new(evalCache)}
	}
	s := e.s
	s.b, s.feat, s.kind, s.tt, s.history, s.corr, s.nodeLimit, s.ctx = b, e.cfg.features, kind, e.tt, e.history, e.corr, lim.Nodes, ctx
	s.nodes, s.stopped, s.deadline, s.prevBest, s.iterBest, s.iterScore = 0, false, time.Time{}, board.NullMove, board.NullMove, 0
	s.killers = [maxPly][2]board.Move{}
	s.tb, s.tbDepth, s.tbHits = e.cfg.tb, e.cfg.tbDepth, 0
	if net := e.net(); kind == EvalNet && (s.ns == nil || s.ns.net != net) {
		if s.ns != nil {
			s.ec.reset(kind) // it holds the other network's scores
		}
		s.ns = &netStack{net: net}
	}
	defer func() { s.b, s.ctx = nil, nil }()
	if s.tt != nil {
		s.tt.gen++
	}
	// Age the history so that the previous move's statistics inform but do
	// not dominate this search.
	for c := range e.history {
		for f := range e.history[c] {
			for t := range e.history[c][f] {
				e.history[c][f][t] /= 8
			}
		}
	}
	bt := planTime(lim, b.SideToMove(), e.cfg.defaultTime)
	if bt.limited {
		s.deadline = start.Add(bt.hard)
	}
	depthLimit := e.cfg.maxDepth
	if lim.Depth > 0 {
		depthLimit = min(depthLimit, lim.Depth)
	}

	res := engine.Move{UCI: legal[0].String()}
	var bestMove board.Move
	first := 1
	if m, ok := seedMove(b, seed); ok {
		res = *seed
		res.PV = slices.Clone(seed.PV)
		bestMove, s.prevBest, first = m, m, seed.Depth+1
		if seed.Depth >= depthLimit || provenMate(seed.Score, seed.Depth) {
			res.Nodes = 0
			return res, nil
		}
	}
	for d := first; d <= depthLimit; d++ {
		s.iterBest, s.depth = board.NullMove, d
		score := s.searchRoot(d, res.Score, res.Depth > 0)
		if s.stopped {
			// A move that beat the previous best during a partial
			// iteration was fully searched and is at least as good.
			if s.iterBest != board.NullMove && (d == 1 || s.iterBest != s.prevBest) {
				bestMove = s.iterBest
				res.UCI = bestMove.String()
				res.PV = []string{res.UCI}
				res.Score, res.HasScore = toScore(s.iterScore), true
			}
			break
		}
		bestMove = s.iterBest
		s.prevBest = bestMove
		res.UCI = bestMove.String()
		res.Depth = d
		res.Score, res.HasScore = toScore(score), true
		res.PV = res.PV[:0]
		for _, m := range s.pv[0][:s.pvLen[0]] {
			res.PV = append(res.PV, m.String())
		}
		// Whoever enforces the deadline may play it if this search is
		// not scheduled again in time (see engine.BestSoFar).
		engine.ReportBestSoFar(ctx, res)
		elapsed := time.Since(start)
		e.cfg.log.Debug().Str("engine", e.cfg.name).Int("depth", d).Int("score", score).
			Int64("nodes", s.nodes).Int64("tbhits", s.tbHits).Dur("elapsed", elapsed).Strs("pv", res.PV).Msg("search iteration")
		if bt.limited && elapsed >= bt.soft/2 {
			break
		}
		if provenMate(res.Score, d) {
			break // deeper iterations cannot change it
		}
	}
	res.Nodes = s.nodes
	if len(res.PV) == 0 || res.PV[0] != res.UCI {
		res.PV = []string{res.UCI}
	}
	return res, nil
}

// provenMate reports whether sc, found by an iteration of depth d, is a
// mate that iteration has proven, so that deeper iterations cannot change
// it: a mate p plies away (mate in n: p = 2n-1; mated in n: p = 2n) is
// proven once d ≥ 2p+2.
func provenMate(sc score.Score, d int) bool {
	p := 2*sc.Mate - 1
	switch {
	case sc.Mate == 0:
		return false
	case sc.Mate < 0:
		p = -2 * sc.Mate
	}
	return d >= 2*p+2
}

// seedMove is seed's move on b when seed is a usable completed result: a
// depth of at least 1 and a legal move.
func seedMove(b *board.Board, seed *engine.Move) (board.Move, bool) {
	if seed == nil || seed.Depth < 1 || !seed.HasScore {
		return board.NullMove, false
	}
	m, ok := b.FindUCI(seed.UCI)
	return m, ok
}

// toScore converts an internal score to a score.Score.
func toScore(sc int) score.Score {
	switch {
	case sc > mateBound:
		return score.Mate((mateScore - sc + 1) / 2)
	case sc < -mateBound:
		return score.Mate(-(mateScore + sc + 1) / 2)
	}
	return score.CP(sc)
}

// searchRoot runs one iteration, inside an aspiration window around the
// previous score when that feature is on.
func (s *searcher) searchRoot(depth int, prev score.Score, havePrev bool) int {
	if s.feat&FeatAspiration == 0 || depth < aspirationDepth || !havePrev || prev.Mate != 0 {
		return s.negamax(depth, 0, -infinity, infinity, false)
	}
	delta := aspirationDelta
	alpha, beta := prev.CP-delta, prev.CP+delta
	for {
		score := s.negamax(depth, 0, alpha, beta, false)
		switch {
		case s.stopped:
			return score
		case score <= alpha:
			delta *= 4
			alpha = max(prev.CP-delta, -infinity)
		case score >= beta:
			delta *= 4
			beta = min(prev.CP+delta, infinity)
		default:
			return score
		}
		if delta > 1000 {
			alpha, beta = -infinity, infinity
		}
	}
}
