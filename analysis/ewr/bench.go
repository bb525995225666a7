package ewr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/score"
)

// BenchPosition is one position of the benchmark set.
type BenchPosition struct {
	Name string
	Pos  Position
}

// BenchPositions are ten typical positions: openings (with their move
// history, as Maia sees it in a game), middlegames and endgames.
var BenchPositions = []BenchPosition{
	{"start", Position{}},
	{"ruy lopez", Position{Moves: strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5")}},
	{"najdorf", Position{Moves: strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6")}},
	{"qgd", Position{Moves: strings.Fields("d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7")}},
	{"italian", Position{Moves: strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8")}},
	{"caro-kann", Position{Moves: strings.Fields("e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6 h2h4 h7h6")}},
	{"middlegame", Position{StartFEN: "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 2 8"}},
	{"rook endgame", Position{StartFEN: "8/5pk1/6p1/8/3R4/5PP1/r5KP/8 w - - 0 40"}},
	{"pawn endgame", Position{StartFEN: "8/8/4k3/8/2K1P3/8/8/8 w - - 0 50"}},
	{"minor endgame", Position{StartFEN: "8/2b5/3k4/3p4/3P4/4KB2/8/8 w - - 0 45"}},
}

// BenchRun is the outcome of one benchmark pass.
type BenchRun struct {
	Times                   []time.Duration
	EngineEvals, CacheHits  int
	MaiaPositions, MaiaCall int
	ResultHits              int
	// StockfishTime and MaiaTime are the wall time spent waiting for the
	// evaluator and the prober; the rest of Times is the calculation's own
	// work (trees, caches).
	StockfishTime, MaiaTime time.Duration
	// Searches and Nodes are the engine searches run and the nodes they
	// searched, when the evaluator counts them (EngineEvaluator,
	// PoolEvaluator): nodes measure the work independently of the
	// machine's load.
	Searches, Nodes int64
	// FilterSearches and FilterNodes are the part of Searches and Nodes
	// spent evaluating the position and its legal moves (the rest is the
	// trees).
	FilterSearches, FilterNodes int64
	// FirstRanking is, per position, the time to the first progress event
	// carrying a ranking; MaxGap the longest time without a progress event.
	FirstRanking, MaxGap []time.Duration
}

// Total returns the sum of the times.
func (b BenchRun) Total() time.Duration {
	var t time.Duration
	for _, d := range b.Times {
		t += d
	}
	return t
}

// counter is an evaluator that counts its searches and nodes.
type counter interface {
	Counts() (searches, nodes int64)
}

// timedProber and timedEvaluator add up the time spent in their calls.
type timedProber struct {
	MoveProber
	d *time.Duration
}

func (t timedProber) Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error) {
	t0 := time.Now()
	defer func() { *t.d += time.Since(t0) }()
	return t.MoveProber.Probe(ctx, reqs)
}

// timedEvaluator keeps what the calculation looks for in its evaluator —
// Dispatcher (the engines' lanes) and NewGame (each calculation from a
// cleared hash) — so that the benchmark measures the calculation `outpost
// ewr` makes: Workers is 0 and NewGame does nothing when the wrapped
// evaluator has neither, which the calculation treats as their absence.
type timedEvaluator struct {
	Evaluator
	d *time.Duration
}

func (t timedEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	t0 := time.Now()
	defer func() { *t.d += time.Since(t0) }()
	return t.Evaluator.Evaluate(ctx, reqs, onResult)
}

// Workers implements Dispatcher: the wrapped one's engines, 0 when it is
// not a Dispatcher.
func (t timedEvaluator) Workers() int {
	if d, ok := t.Evaluator.(Dispatcher); ok {
		return d.Workers()
	}
	return 0
}

// Dispatch implements Dispatcher (only called when Workers is not 0).
func (t timedEvaluator) Dispatch(ctx context.Context, next func(worker int) (EvalRequest, bool), onResult func(worker int, req EvalRequest, s score.Score)) error {
	d, ok := t.Evaluator.(Dispatcher)
	if !ok {
		return errors.New("ewr: bench: the evaluator is not a Dispatcher")
	}
	t0 := time.Now()
	defer func() { *t.d += time.Since(t0) }()
	return d.Dispatch(ctx, next, onResult)
}

// ClearsEach passes on whether the wrapped evaluator's engines clear their
// hash before every search (see clearsEach).
func (t timedEvaluator) ClearsEach() bool { return clearsEach(t.Evaluator) }

// NewGame passes the start of a calculation on to the wrapped evaluator.
func (t timedEvaluator) NewGame(ctx context.Context) error {
	if ng, ok := t.Evaluator.(interface{ NewGame(context.Context) error }); ok {
		return ng.NewGame(ctx)
	}
	return nil
}

// Median returns the median time per position.
func (b BenchRun) Median() time.Duration {
	if len(b.Times) == 0 {
		return 0
	}
	t := slices.Clone(b.Times)
	slices.Sort(t)
	if len(t)%2 == 1 {
		return t[len(t)/2]
	}
	return (t[len(t)/2-1] + t[len(t)/2]) / 2
}

// HitRate is the share of lookups served by the cache: whole results count
// as one hit each, evaluations one each.
func (b BenchRun) HitRate() float64 {
	hits := b.CacheHits + b.ResultHits
	n := b.EngineEvals + hits
	if n == 0 {
		return 0
	}
	return float64(hits) / float64(n)
}

// RunBench calculates every benchmark position with p, writing one line per
// position to w (when not nil).
func RunBench(ctx context.Context, c *Calculator, p Params, opt Options, w io.Writer) (BenchRun, error) {
	var run BenchRun
	cnt, _ := c.Evaluator.(counter)
	tc := *c
	for _, bp := range BenchPositions {
		var sfTime, maiaTime time.Duration
		tc.Prober = timedProber{c.Prober, &maiaTime}
		tc.Evaluator = timedEvaluator{c.Evaluator, &sfTime}
		var s0, n0 int64
		if cnt != nil {
			s0, n0 = cnt.Counts()
		}
		t0 := time.Now()
		pm := &phaseMeter{cnt: cnt, start: t0, last: t0, next: opt.Progress}
		popt := opt
		popt.Progress = pm.event
		res, err := tc.Calculate(ctx, bp.Pos, p, popt)
		if err != nil {
			return run, fmt.Errorf("ewr: bench %s: %w", bp.Name, err)
		}
		d := time.Since(t0)
		pm.event(Event{Phase: PhaseDone})
		var searches, nodes, fs, fn int64
		if cnt != nil {
			s1, n1 := cnt.Counts()
			searches, nodes = s1-s0, n1-n0
			if !pm.filterDone {
				pm.fs, pm.fn = s1, n1
			}
			fs, fn = pm.fs-s0, pm.fn-n0
		}
		run.FilterSearches += fs
		run.FilterNodes += fn
		run.FirstRanking = append(run.FirstRanking, pm.first)
		run.MaxGap = append(run.MaxGap, pm.gap)
		run.Times = append(run.Times, d)
		run.StockfishTime += sfTime
		run.MaiaTime += maiaTime
		run.Searches += searches
		run.Nodes += nodes
		s := res.Stats
		run.EngineEvals += s.EngineEvals
		run.CacheHits += s.EvalCacheHits
		run.MaiaPositions += s.MaiaPositions
		run.MaiaCall += s.MaiaCalls
		if s.ResultCacheHit {
			run.ResultHits++
		}
		if w != nil {
			best := "-"
			if m, ok := res.Best(); ok {
				best = fmt.Sprintf("%s %.1f%%", m.SAN, 100*m.ExpectedWinrate)
			}
			fmt.Fprintf(w, "%-14s %7.2fs (stockfish %6.2fs, maia %5.2fs; first ranking %.1fs, longest silence %.1fs)  best %-12s  %2d/%2d moves  %4d tree nodes  stockfish %4d evals (+%d cached, %d reused) %5.1fM nodes (filter %d searches %.1fM, trees %d searches %.1fM)  maia %4d in %3d calls  cached=%v\n",
				bp.Name, d.Seconds(), sfTime.Seconds(), maiaTime.Seconds(), pm.first.Seconds(), pm.gap.Seconds(), best, s.Candidates, s.LegalMoves, s.Nodes,
				s.EngineEvals, s.EvalCacheHits, s.EvalReuse, float64(nodes)/1e6, fs, float64(fn)/1e6, searches-fs, float64(nodes-fn)/1e6,
				s.MaiaPositions, s.MaiaCalls, res.Cached)
		}
	}
	return run, nil
}

// phaseMeter watches a calculation's progress events: the engine counts
// when the legal-move filter ends, the time to the first ranking and the
// longest silence between events.
type phaseMeter struct {
	cnt         counter
	start, last time.Time
	next        func(Event)
	filterDone  bool
	fs, fn      int64
	first, gap  time.Duration
	sawRanking  bool
}

func (m *phaseMeter) event(e Event) {
	now := time.Now()
	if g := now.Sub(m.last); g > m.gap {
		m.gap = g
	}
	m.last = now
	if e.Phase != PhaseFilter && !m.filterDone && m.cnt != nil {
		m.filterDone = true
		m.fs, m.fn = m.cnt.Counts()
	}
	if len(e.Ranking) > 0 && !m.sawRanking {
		m.sawRanking = true
		m.first = now.Sub(m.start)
	}
	if m.next != nil && e.Phase != PhaseDone || m.next != nil && e.Ranking != nil {
		m.next(e)
	}
}
