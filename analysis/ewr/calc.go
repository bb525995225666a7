package ewr

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// Position is the position to analyse: a start position and the moves
// played from it (Maia sees the history; repetitions count it).
type Position struct {
	// StartFEN is the initial position ("" for the standard start).
	StartFEN string
	// Moves are the moves played from StartFEN, in UCI.
	Moves []string
	// Chess960 is set for a Chess960 game (X-FEN or Shredder-FEN castling
	// rights, castling written king takes rook).
	Chess960 bool `json:",omitempty"`
}

// Options shape one calculation without changing its result.
type Options struct {
	// Include lists moves (UCI) analysed even when they fail the winrate
	// loss filter (e.g. the move played in a game); they are flagged
	// Filtered.
	Include []string
	// TimeLimit ends the calculation early with a partial result
	// (0: none).
	TimeLimit time.Duration
	// Progress receives progress events (from the calculating goroutine).
	Progress func(Event)
	// SkipResultCache neither reads nor writes whole results (evaluations
	// are still cached).
	SkipResultCache bool
}

// Calculator computes expected winrates. Prober and Evaluator are
// required; Cache is optional. A Calculator is safe for concurrent use when
// its Prober, Evaluator and Cache are.
type Calculator struct {
	Prober    MoveProber
	Evaluator Evaluator
	Cache     Cache
}

// eps absorbs floating-point noise in threshold comparisons.
const eps = 1e-12

// rootOf returns the board of pos — a copy of given, the board of pos a
// caller already replayed, else pos replayed (counted in ctx's
// analysis.Counts) — and checks the included moves (UCI) and that the side
// to move has moves to analyse.
func rootOf(ctx context.Context, pos Position, given *board.Board, included []string) (root *board.Board, include []string, err error) {
	if given != nil {
		root = given.Clone()
	} else {
		analysis.CountReplay(ctx)
		if root, err = replay(pos); err != nil {
			return nil, nil, err
		}
	}
	for _, u := range included {
		if _, err := root.ParseUCI(u); err != nil {
			return nil, nil, fmt.Errorf("ewr: included move: %w", err)
		}
		include = append(include, u)
	}
	if !root.HasLegalMoves() {
		what := "stalemate"
		if root.InCheck() {
			what = "checkmate"
		}
		return nil, nil, fmt.Errorf("ewr: the position is %s: no moves to analyse", what)
	}
	return root, include, nil
}

// Calculate runs the whole calculation for the side to move in pos. Engine
// failures are errors; when the time limit ends the calculation early the
// result so far is returned with Partial set and a warning. Cancelling ctx
// returns ctx's error.
func (c *Calculator) Calculate(ctx context.Context, pos Position, p Params, opt Options) (*Result, error) {
	return c.calculate(ctx, pos, nil, p, opt)
}

// calculate is Calculate with the board of pos when the caller has it
// (root, nil: pos is replayed).
func (c *Calculator) calculate(ctx context.Context, pos Position, given *board.Board, p Params, opt Options) (*Result, error) {
	start := time.Now()
	if c.Prober == nil || c.Evaluator == nil {
		return nil, errors.New("ewr: calculator needs a move prober (Maia) and an evaluator (Stockfish)")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p = p.normalized()
	root, include, err := rootOf(ctx, pos, given, opt.Include)
	if err != nil {
		return nil, err
	}
	key := resultKey(root, pos, p, include)
	var cacheWarning string
	if c.Cache != nil && !opt.SkipResultCache {
		// A failing cache is a miss: it only saves work.
		if res, ok, err := c.cachedResult(ctx, key); err != nil {
			cacheWarning = err.Error()
		} else if ok {
			res.Cached = true
			res.FEN = root.FEN()
			res.CalcMS = time.Since(start).Milliseconds()
			res.Stats = Stats{ResultCacheHit: true}
			return res, nil
		}
	}
	work := ctx
	if opt.TimeLimit > 0 {
		var cancel context.CancelFunc
		work, cancel = context.WithTimeout(ctx, opt.TimeLimit)
		defer cancel()
	}
	r := &run{
		c: c, p: p, opt: opt, pos: pos, root: root,
		us:      root.SideToMove(),
		depth:   p.Depth,
		evals:   map[string]score.Score{},
		include: include,
	}
	if cacheWarning != "" {
		r.warn(cacheWarning)
	}
	var res *Result
	if ng, ok := c.Evaluator.(interface{ NewGame(context.Context) error }); ok {
		err = ng.NewGame(work)
	}
	if err == nil {
		res, err = r.do(work)
	}
	if err != nil {
		// The time limit ended the work (whatever error an engine made of
		// it): keep what is done.
		if ctx.Err() == nil && work.Err() != nil {
			r.partial = true
			r.warn(fmt.Sprintf("time limit %v reached: the result is partial (unevaluated paths count at the base winrate)", opt.TimeLimit))
			res = r.assemble()
		} else {
			return nil, err
		}
	}
	res.CalcMS = time.Since(start).Milliseconds()
	if c.Cache != nil && !opt.SkipResultCache && !res.Partial {
		if err := c.storeResult(ctx, key, res); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}
	return res, nil
}

// replay builds the board of pos, history included.
func replay(pos Position) (*board.Board, error) { return replayVisiting(pos, nil) }

// replayVisiting is replay calling visit (when not nil) with the board
// before each move, ply counted from 1; visit must not keep the board
// without cloning it.
func replayVisiting(pos Position, visit func(ply int, b *board.Board)) (*board.Board, error) {
	fen := strings.TrimSpace(pos.StartFEN)
	if fen == "" || fen == "startpos" {
		fen = board.StartFEN
	}
	b, err := board.FromFENChecked(fen, pos.Chess960)
	if err != nil {
		return nil, fmt.Errorf("ewr: %w", err)
	}
	for i, m := range pos.Moves {
		if visit != nil {
			visit(i+1, b)
		}
		if err := b.MakeUCI(m); err != nil {
			return nil, fmt.Errorf("ewr: move %d: %w", i+1, err)
		}
	}
	return b, nil
}

// run is the state of one calculation.
type run struct {
	c       *Calculator
	p       Params
	opt     Options
	pos     Position
	root    *board.Board
	us      board.Color
	include []string

	base     float64
	haveBase bool
	children []*Node // every legal move of the analysed position
	rootNode *Node   // stands for the analysed position in the legal-move step
	trees    []*Node // the candidates
	filtered map[*Node]bool
	evals    map[string]score.Score // by evalCacheKey
	depth    int                    // the current phase's Stockfish depth (see depthOf)

	stats       Stats
	warnings    []string
	partial     bool
	cacheErr    bool
	evalDone    int
	evalTotal   int
	lastRanking time.Time
}

func (r *run) warn(s string) {
	for _, w := range r.warnings {
		if w == s {
			return
		}
	}
	r.warnings = append(r.warnings, s)
}

func (r *run) progress(e Event) {
	if r.opt.Progress != nil {
		r.opt.Progress(e)
	}
}

// do runs the three steps; on an error the state so far stays in r.
func (r *run) do(ctx context.Context) (*Result, error) {
	if err := r.filter(ctx); err != nil {
		return nil, err
	}
	if err := r.grow(ctx); err != nil {
		return nil, err
	}
	r.depth = r.p.treeDepth()
	if d, ok := r.c.Evaluator.(Dispatcher); ok && d.Workers() > 0 {
		if err := r.evaluateTreesDispatched(ctx, d); err != nil {
			return nil, err
		}
	} else if err := r.evaluateTrees(ctx); err != nil {
		return nil, err
	}
	res := r.assemble()
	if r.opt.Progress != nil {
		r.progress(Event{Phase: PhaseDone, Message: "Done", Ranking: res.Moves, Done: r.evalDone, Total: r.evalDone, Trees: r.snapshotTrees()})
	}
	return res, nil
}

// filter evaluates the position and every legal move and keeps the
// candidates.
func (r *run) filter(ctx context.Context) error {
	for _, m := range r.root.LegalMoves() {
		r.children = append(r.children, newChild(r.root, m, nil, 1, 1, true))
	}
	r.stats.LegalMoves = len(r.children)
	rootKey := evalKey(r.root)
	rootNode := &Node{key: rootKey, depth: 0} // stands for the analysed position
	r.rootNode = rootNode
	need := append([]*Node{rootNode}, r.children...)
	r.evalTotal = len(need)
	r.progress(Event{Phase: PhaseFilter, Message: fmt.Sprintf("Evaluating %d legal moves with Stockfish...", len(r.children)), Total: len(need)})
	if err := r.evaluateLegal(ctx, rootNode); err != nil {
		return err
	}
	threshold := r.base + r.p.LossThreshold
	r.filtered = map[*Node]bool{}
	for _, ch := range r.children {
		inc := contains(r.include, ch.UCI)
		if *ch.Winrate >= threshold-eps || inc {
			r.trees = append(r.trees, ch)
			r.filtered[ch] = *ch.Winrate < threshold-eps
			r.stats.Nodes++
		}
	}
	r.stats.Candidates = len(r.trees)
	if len(r.trees) == 0 {
		// Only possible when the evaluations disagree with the root's by
		// more than the loss threshold: keep Stockfish's best move.
		best := r.children[0]
		for _, ch := range r.children[1:] {
			if *ch.Winrate > *best.Winrate {
				best = ch
			}
		}
		r.trees = append(r.trees, best)
		r.stats.Candidates, r.stats.Nodes = 1, 1
		r.warn("no move kept base winrate + loss threshold; analysing Stockfish's best move only")
	}
	// Best first, so that a time limit leaves the most promising moves
	// evaluated.
	sort.SliceStable(r.trees, func(i, j int) bool { return *r.trees[i].Winrate > *r.trees[j].Winrate })
	for _, t := range r.trees {
		r.prune(t, threshold)
	}
	return nil
}

// evaluateLegal evaluates the analysed position (rootNode) and its legal
// moves, and sets the base winrate. Under the settle rule the position
// goes first, alone: a legal move's search may then end early when the
// move clearly fails the loss filter (filterRequest), which needs the base
// winrate; otherwise (or on engines that keep their hash, where the rule
// is off) all are searched together.
func (r *run) evaluateLegal(ctx context.Context, rootNode *Node) error {
	need := append([]*Node{rootNode}, r.children...)
	var shape func(EvalRequest) EvalRequest
	if r.p.Volatility > 0 && r.p.IsFast() && clearsEach(r.c.Evaluator) {
		if err := r.evaluate(ctx, need[:1], PhaseFilter, nil); err != nil {
			return err
		}
		threshold := *rootNode.Winrate + r.p.LossThreshold
		need = need[1:]
		included := map[string]bool{} // analysed whatever their score: kept exact
		for _, ch := range r.children {
			if contains(r.include, ch.UCI) {
				included[ch.key] = true
			}
		}
		shape = func(q EvalRequest) EvalRequest {
			if included[q.FEN] {
				return q
			}
			return r.filterRequest(q, threshold)
		}
	}
	err := r.evaluate(ctx, need, PhaseFilter, shape)
	if rootNode.Winrate != nil {
		r.base, r.haveBase = *rootNode.Winrate, true
	}
	return err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// prune ends the path at n when n is the analysing player's move and its
// winrate fell below the threshold.
func (r *run) prune(n *Node, threshold float64) {
	if n.ours && n.Winrate != nil && *n.Winrate < threshold-eps && !n.Pruned {
		n.Children = []*Node{}
		n.b = nil
		n.Pruned = true
		n.PruningReason = ReasonBlunder
	}
}

// assemble builds the result from the current state (complete or not).
func (r *run) assemble() *Result {
	res := &Result{
		BaseWinrate: r.base,
		Params:      r.p,
		Moves:       []MoveResult{},
		Trees:       map[string]*Node{},
		Partial:     r.partial,
		Warnings:    append([]string(nil), r.warnings...),
		FEN:         r.root.FEN(),
		Stats:       r.stats,
	}
	if !r.haveBase {
		return res
	}
	res.Moves = r.ranking()
	for _, t := range r.trees {
		res.Trees[t.SAN] = t
	}
	return res
}

// ranking computes and sorts the candidates' results.
func (r *run) ranking() []MoveResult {
	out := make([]MoveResult, 0, len(r.trees))
	for _, t := range r.trees {
		if t.Winrate == nil {
			continue
		}
		out = append(out, moveResult(t, r.base, r.filtered[t]))
	}
	sortMoves(out)
	return out
}
