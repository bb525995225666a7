package analysis

import (
	"context"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/score"
)

// DetectFromPly is the first position DetectPeriod compares: Lichess may
// take the evals of the positions after plies 0–14 from its cloud eval
// cache instead of its server analysis (lila's FishnetEvalCache, maxPlies
// = 15, whose positions fishnet is told to skip), so they count neither
// for nor against a period.
const DetectFromPly = 15

// DetectEvals is how many of Lichess's evals DetectPeriod compares: one
// fishnet chunk's worth. Five positions searched with the wrong engine or
// method agree on all five evals by chance practically never (an eval
// depends on the net, the node count and the hash state), while the right
// one agrees on every eval.
const DetectEvals = FishnetChunk

// DetectOptions shape DetectPeriod.
type DetectOptions struct {
	// FromPly is the first position compared (default DetectFromPly).
	FromPly int
	// Evals is how many evaluated positions are compared (default
	// DetectEvals).
	Evals int
	// Periods are the candidates (default ExactPeriods).
	Periods []Period
	// Pool returns a pool of the engine named by a preset (Budget.Engine)
	// and the function that releases it after the trial; the default
	// starts one with NewPool (one worker, the 16 MB hash fishnet keeps)
	// and closes it.
	Pool func(ctx context.Context, engine string) (*Pool, func(), error)
}

// PeriodTrial is one candidate period's method run on the detection
// positions.
type PeriodTrial struct {
	Period Period
	// Exact is how many of the Compared evals were Lichess's exactly.
	Exact, Compared int
	// Unavailable says why the period's engine could not run ("" when it
	// ran).
	Unavailable string
	// Mismatch describes the first eval that differed ("" when none did).
	Mismatch string
}

// Detection is DetectPeriod's answer for one game.
type Detection struct {
	// Positions are the compared positions (the position after ply k).
	Positions []int
	Trials    []PeriodTrial
	// Found is the trial whose evals were all Lichess's, nil when none
	// was.
	Found *PeriodTrial
	// Tied are the other trials of Found's engine whose evals were all
	// Lichess's on every position of the game DetectPeriod could compare
	// (fishnet 2.7's and 2.8's methods with Stockfish 16 agreeing there):
	// the evals cannot tell them from Found.
	Tied []PeriodTrial
}

// String says which period's method gave Lichess's evals, e.g. "Stockfish
// 16 (fishnet 2.7.0): 5/5 evals exact", or that none did and each trial's
// count.
func (d *Detection) String() string {
	if d.Found != nil {
		s := fmt.Sprintf("%s: %d/%d evals exact", d.Found.Period.Label(), d.Found.Exact, d.Found.Compared)
		for _, t := range d.Tied {
			s += fmt.Sprintf(" (so does %s: their evals agree on every position compared)", t.Period.Label())
		}
		return s
	}
	parts := make([]string, 0, len(d.Trials))
	for _, t := range d.Trials {
		if t.Unavailable != "" {
			parts = append(parts, fmt.Sprintf("%s not installed", t.Period.Label()))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d/%d", t.Period.Label(), t.Exact, t.Compared))
	}
	return "no obtainable period gives Lichess's evals (" + strings.Join(parts, "; ") +
		"): the analysis ran on an engine we cannot have (Stockfish 15 or older, 16.1, 17, a 2026 development build) or with evals from Lichess's cloud cache"
}

// DetectPeriod finds the period of Lichess's analysis of g from its evals:
// it runs each candidate period's method (its preset and engine) on a few
// positions past the opening and picks the one that gives every one of
// Lichess's evals exactly. A game's date is not its analysis date (an old
// game analysed today ran today's engine), which is why the evals decide.
// It fails when g carries no Lichess evals past FromPly; a candidate whose
// engine is not installed is reported as unavailable.
func DetectPeriod(ctx context.Context, g *Game, opt DetectOptions) (*Detection, error) {
	opt = opt.withDefaults()
	evals, err := LichessEvals(g)
	if err != nil {
		return nil, fmt.Errorf("analysis: game %s: %w", g.Key(), err)
	}
	gp, err := positionsOf(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("analysis: game %s: %w", g.Key(), err)
	}
	win := detectionWindow(gp, evals, opt)
	if len(win.positions) == 0 {
		return nil, fmt.Errorf("analysis: game %s: no Lichess eval from ply %d on to detect the period with", g.Key(), opt.FromPly)
	}
	d := &Detection{Positions: win.positions}
	for _, p := range opt.Periods {
		t, err := runTrial(ctx, p, gp, win, evals, opt)
		if err != nil {
			return nil, fmt.Errorf("analysis: game %s: %s: %w", g.Key(), p.Label(), err)
		}
		d.Trials = append(d.Trials, t)
	}
	exact := allExact(d.Trials)
	// Two methods of one engine (fishnet 2.7's and 2.8's) can agree on a
	// few positions: compare more of the game, a chunk's worth at a time,
	// until at most one of them gives every eval of Lichess's.
	for len(exact) > 1 {
		more := detectionWindow(gp, evals, DetectOptions{FromPly: opt.FromPly, Evals: len(win.positions) + DetectEvals})
		if len(more.positions) == len(win.positions) {
			break // the whole game compared
		}
		win = more
		d.Positions = win.positions
		for _, i := range exact {
			t, err := runTrial(ctx, d.Trials[i].Period, gp, win, evals, opt)
			if err != nil {
				return nil, fmt.Errorf("analysis: game %s: %s: %w", g.Key(), d.Trials[i].Period.Label(), err)
			}
			d.Trials[i] = t
		}
		exact = allExact(d.Trials)
	}
	if len(exact) > 0 {
		d.Found = &d.Trials[exact[0]]
		for _, i := range exact[1:] {
			d.Tied = append(d.Tied, d.Trials[i])
		}
	}
	return d, nil
}

// allExact returns the indexes of the trials that ran and gave every
// compared eval of Lichess's: the first one and those of the same engine
// (another engine giving all of a few evals as well does not happen with
// real engines; the first such period wins, as it always did).
func allExact(trials []PeriodTrial) []int {
	var out []int
	engine := ""
	for i, t := range trials {
		if t.Unavailable != "" || t.Compared == 0 || t.Exact != t.Compared {
			continue
		}
		e := Presets[t.Period.Preset].Engine
		if len(out) == 0 {
			engine = e
		}
		if e == engine {
			out = append(out, i)
		}
	}
	return out
}

func (o DetectOptions) withDefaults() DetectOptions {
	if o.FromPly <= 0 {
		o.FromPly = DetectFromPly
	}
	if o.Evals <= 0 {
		o.Evals = DetectEvals
	}
	if len(o.Periods) == 0 {
		o.Periods = ExactPeriods()
	}
	if o.Pool == nil {
		o.Pool = func(ctx context.Context, engine string) (*Pool, func(), error) {
			p, err := NewPool(ctx, PoolConfig{Command: []string{engine}, Workers: 1, HashMB: DefaultHashMB})
			if err != nil {
				return nil, nil, err
			}
			return p, func() { p.Close() }, nil
		}
	}
	return o
}

// detectWindow is the positions DetectPeriod searches: fishnet's chunks
// (counted from the game's end) from the first one starting at FromPly on,
// in game order, until they hold Evals positions that carry a Lichess eval
// and are not terminal.
type detectWindow struct {
	// spans are the chunks, [lo, hi) position indexes.
	spans [][2]int
	// positions are the compared positions, in game order.
	positions []int
}

func detectionWindow(gp *gamePositions, evals []PlyEval, opt DetectOptions) detectWindow {
	n := len(gp.boards)
	var spans [][2]int
	for hi := n; hi > 0; hi -= FishnetChunk {
		if lo := max(0, hi-FishnetChunk); lo >= opt.FromPly {
			spans = append([][2]int{{lo, hi}}, spans...)
		}
	}
	var w detectWindow
	for _, s := range spans {
		if len(w.positions) >= opt.Evals {
			break
		}
		w.spans = append(w.spans, s)
		for k := s[0]; k < s[1]; k++ {
			if lichessEvalAt(evals, k) != nil && !gp.job(k, Presets["quick"].Limits()).Skip {
				w.positions = append(w.positions, k)
			}
		}
	}
	return w
}

// lichessEvalAt is Lichess's eval of position k (after ply k), nil when it
// gave none.
func lichessEvalAt(evals []PlyEval, k int) *score.Score {
	if k < 1 || k > len(evals) {
		return nil
	}
	return evals[k-1].Eval
}

// runTrial runs one period's method on the window and compares.
func runTrial(ctx context.Context, p Period, gp *gamePositions, win detectWindow, evals []PlyEval, opt DetectOptions) (PeriodTrial, error) {
	t := PeriodTrial{Period: p}
	budget, ok := Presets[p.Preset]
	if !ok || budget.Engine == "" {
		return t, fmt.Errorf("preset %q names no engine", p.Preset)
	}
	pool, release, err := opt.Pool(ctx, budget.Engine)
	if err != nil {
		if ctx.Err() != nil {
			return t, ctx.Err()
		}
		t.Unavailable = err.Error()
		return t, nil
	}
	defer release()
	got, err := searchWindow(ctx, pool, budget, gp, win)
	if err != nil {
		return t, err
	}
	for _, k := range win.positions {
		want, have := lichessEvalAt(evals, k), got[k].Eval
		t.Compared++
		if have != nil && *have == *want {
			t.Exact++
		} else if t.Mismatch == "" {
			t.Mismatch = fmt.Sprintf("position after ply %d: Lichess %s, ours %s", k, want, have)
		}
	}
	return t, nil
}

// searchWindow searches the window's positions with the budget's method:
// every compared position on its own after ucinewgame (FreshHash), else
// each chunk whole, backwards after ucinewgame and the warm-up search of
// the position that follows it, as fishnet does. It returns the outcomes
// by position index.
func searchWindow(ctx context.Context, pool *Pool, budget Budget, gp *gamePositions, win detectWindow) (map[int]Outcome, error) {
	lim := budget.FishnetLimits()
	out := map[int]Outcome{}
	if budget.FreshHash {
		jobs := make([]Job, len(win.positions))
		for i, k := range win.positions {
			jobs[i] = gp.job(k, lim)
		}
		outs, err := pool.Search(ctx, jobs, SearchOptions{ChunkSize: 1})
		if err != nil {
			return nil, err
		}
		for i, k := range win.positions {
			out[k] = outs[i]
		}
		return out, nil
	}
	for _, s := range win.spans {
		c := Chunk{}
		for k := s[0]; k < s[1]; k++ {
			c.Jobs = append(c.Jobs, gp.job(k, lim))
		}
		if s[1] < len(gp.boards) {
			if w := gp.job(s[1], lim); !w.Skip {
				c.Warmup = &w
			}
		}
		outs, err := pool.SearchChunk(ctx, c)
		if err != nil {
			return nil, err
		}
		for i, o := range outs {
			out[s[0]+i] = o
		}
	}
	return out, nil
}
