package ewr

import (
	"context"
	"math"
	"testing"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// cpFor returns a centipawn score whose winrate (score.Score.Winrate) is
// w, within a centipawn.
func cpFor(t *testing.T, w float64) score.Score {
	t.Helper()
	lo, hi := -3000, 3000
	for lo < hi {
		m := lo + (hi-lo)/2
		if score.CP(m).Winrate() < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return score.CP(lo)
}

// iters builds a side-to-move score table from winrates by depth.
func iters(t *testing.T, w map[int]float64) map[int]score.Score {
	out := map[int]score.Score{}
	for d, x := range w {
		out[d] = cpFor(t, x)
	}
	return out
}

// TestSettled: the settle rule of one tree position — probability ×
// (spread over the two iterations before + SettleFloor) against
// Volatility, the decision margin for the analysing player's moves, and
// only at the tree depth and the one after.
func TestSettled(t *testing.T) {
	p := DefaultParams().Fast()
	p.DecisionMargin, p.Volatility = 0.03, 0.004
	steady := map[int]float64{10: 0.50, 11: 0.50, 12: 0.50, 13: 0.50, 14: 0.50}
	moved := map[int]float64{10: 0.46, 11: 0.49, 12: 0.50, 13: 0.50}
	for _, c := range []struct {
		name      string
		d         int
		w         map[int]float64
		cum       float64
		ours      bool
		threshold float64
		want      bool
	}{
		// 0.2 × (0 + 0.01) = 0.002 ≤ 0.004
		{"steady, unlikely", 12, steady, 0.2, false, 0.4, true},
		// 0.5 × 0.01 = 0.005 > 0.004: a likely position goes on whatever its iterations
		{"steady, likely", 12, steady, 0.5, false, 0.4, false},
		// 0.1 × (0.04 + 0.01) = 0.005 > 0.004
		{"moved 4 points", 12, moved, 0.1, false, 0.4, false},
		// at 13 it moved by 1 point from 12, nothing from 11: 0.2 × 0.02 = 0.004
		{"settled one iteration later", 13, moved, 0.2, false, 0.4, true},
		{"not at 14", 14, steady, 0.2, false, 0.4, false},
		{"not below the tree depth", 11, steady, 0.2, false, 0.4, false},
		// the analysing player's move 2 points from the threshold: its path is in doubt
		{"ours near the threshold", 12, steady, 0.2, true, 0.48, false},
		{"ours clear of the threshold", 12, steady, 0.2, true, 0.46, true},
		{"an iteration missing", 12, map[int]float64{11: 0.5, 12: 0.5}, 0.2, false, 0.4, false},
	} {
		if got := p.settled(c.d, iters(t, c.w), c.cum, c.ours, c.threshold); got != c.want {
			t.Errorf("%s: settled = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDropped: a legal move's search ends at the tree depth only when its
// winrate there, raised by its spread, is still DecisionMargin below the
// loss threshold.
func TestDropped(t *testing.T) {
	p := DefaultParams().Fast()
	p.DecisionMargin, p.Volatility = 0.03, 0.004
	for _, c := range []struct {
		name string
		d    int
		w    map[int]float64
		want bool
	}{
		{"far below", 12, map[int]float64{10: 0.20, 11: 0.21, 12: 0.20}, true},
		{"below, but moved by 8 points", 12, map[int]float64{10: 0.38, 11: 0.30, 12: 0.30}, false},
		{"within the margin", 12, map[int]float64{10: 0.385, 11: 0.385, 12: 0.385}, false},
		{"above", 12, map[int]float64{10: 0.5, 11: 0.5, 12: 0.5}, false},
		{"only at the tree depth", 13, map[int]float64{11: 0.2, 12: 0.2, 13: 0.2}, false},
	} {
		// the analysing player moved: the side to move's winrate is 1 − w
		w := map[int]float64{}
		for d, x := range c.w {
			w[d] = 1 - x
		}
		if got := p.dropped(c.d, iters(t, w), 0.40); got != c.want {
			t.Errorf("%s: dropped = %v, want %v", c.name, got, c.want)
		}
	}
}

// iterSearcher reports one info line per iteration from a table of
// side-to-move scores by depth and stops, as Stockfish does, when its
// context ends (reporting a line of the unfinished depth as it goes).
type iterSearcher struct {
	fakeSearcher
	byDepth map[int]score.Score
	depths  []int // the deepest iteration of each search
}

func (f *iterSearcher) Analyse(ctx context.Context, _ uci.Position, lim uci.Limits) (*uci.Result, error) {
	res := &uci.Result{BestMove: "e2e4"}
	for d := 1; d <= lim.Depth; d++ {
		in := uci.Info{MultiPV: 1, Depth: d, HasScore: true, Score: f.byDepth[d], Nodes: int64(1000 * d)}
		res.Nodes, res.Lines = in.Nodes, []uci.Info{in}
		if lim.OnInfo != nil {
			lim.OnInfo(in)
		}
		if ctx.Err() != nil {
			// the line Stockfish prints when stopped mid-iteration: the next
			// depth with a partial score, which must not count
			stop := uci.Info{MultiPV: 1, Depth: d + 1, HasScore: true, Score: score.CP(-999), Nodes: in.Nodes + 10}
			lim.OnInfo(stop)
			res.Nodes, res.Lines, res.Stopped = stop.Nodes, []uci.Info{stop}, true
			f.depths = append(f.depths, d)
			return res, nil
		}
	}
	f.depths = append(f.depths, lim.Depth)
	return res, nil
}

// TestEngineEarlyStop: a request with Settled ends its search at the first
// depth where Settled says so and reports that iteration's score (not the
// stop line's) and depth; without Settled, or when it never agrees, the
// search goes to Depth.
func TestEngineEarlyStop(t *testing.T) {
	byDepth := map[int]score.Score{}
	for d := 1; d <= 15; d++ {
		byDepth[d] = score.CP(10 * d)
	}
	for _, c := range []struct {
		name        string
		settleAt    int // Settled answers true from this depth (0: never)
		shallow     int
		wantDepth   int
		wantReached int
	}{
		{"settled at 12", 12, 12, 12, 12},
		{"settled at 13", 13, 12, 13, 13},
		{"never settled", 0, 12, 15, 0},
		{"no early end asked", 12, 0, 15, 0},
	} {
		s := &iterSearcher{byDepth: byDepth}
		ev := NewEngineEvaluator(s)
		var asked []int
		q := EvalRequest{FEN: "k7/8/8/8/8/8/8/K7 w - -", Depth: 15, Shallow: c.shallow}
		q.Settled = func(d int, got map[int]score.Score) bool {
			asked = append(asked, d)
			if got[d] != byDepth[d] || got[d-1] != byDepth[d-1] {
				t.Errorf("%s: Settled at %d sees %v", c.name, d, got)
			}
			return c.settleAt > 0 && d >= c.settleAt
		}
		sc, reached, err := ev.search(context.Background(), 0, q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := byDepth[c.wantDepth]; sc != want || reached != c.wantReached {
			t.Errorf("%s: score %v at %d, want %v at %d", c.name, sc, reached, want, c.wantReached)
		}
		if len(s.depths) != 1 || s.depths[0] != c.wantDepth {
			t.Errorf("%s: searched to %v, want %d", c.name, s.depths, c.wantDepth)
		}
		if c.shallow > 0 && (len(asked) == 0 || asked[0] != c.shallow || asked[len(asked)-1] >= 15) {
			t.Errorf("%s: Settled asked at %v", c.name, asked)
		}
		if _, nodes := ev.Counts(); nodes == 0 {
			t.Errorf("%s: no nodes counted", c.name)
		}
	}
}

// TestSettleRuleNeedsFast: the settle rule is part of the fast mode; the
// exact calculation drops it, so its figures (and a saved reference) stay
// those of depth 15 everywhere.
func TestSettleRuleNeedsFast(t *testing.T) {
	p := DefaultParams()
	p.Volatility = 0.004
	if got := p.normalized().Volatility; got != 0 {
		t.Errorf("exact: volatility %v kept", got)
	}
	p = p.Fast()
	if got := p.normalized().Volatility; got != 0.004 {
		t.Errorf("fast: volatility %v", got)
	}
	for _, v := range []float64{-0.1, 1.5, math.NaN()} {
		p.Volatility = v
		if err := p.Validate(); err == nil {
			t.Errorf("volatility %v accepted", v)
		}
	}
}

// TestWithMode: the modes' parameters — the settle mode (the default, also
// for ""), the exact calculation, the fast mode — and which need engines
// that clear their hash.
func TestWithMode(t *testing.T) {
	d := DefaultParams()
	for _, c := range []struct {
		mode               string
		tree               int
		margin, volatility float64
		clears, ok         bool
	}{
		{"", FastTreeDepth, SettleDecisionMargin, SettleVolatility, true, true},
		{ModeSettle, FastTreeDepth, SettleDecisionMargin, SettleVolatility, true, true},
		{ModeExact, 0, 0, 0, false, true},
		{ModeFast, FastTreeDepth, 0, 0, false, true},
		{"quick", 0, 0, 0, false, false},
	} {
		p, ok := d.WithMode(c.mode)
		if ok != c.ok || ModeClearsHash(c.mode) != (c.clears && c.ok) {
			t.Errorf("%q: ok %v, clears hash %v", c.mode, ok, ModeClearsHash(c.mode))
		}
		if !ok {
			continue
		}
		if p.TreeDepth != c.tree || p.DecisionMargin != c.margin || p.Volatility != c.volatility {
			t.Errorf("%q: tree depth %d, margin %v, volatility %v", c.mode, p.TreeDepth, p.DecisionMargin, p.Volatility)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%q: %v", c.mode, err)
		}
	}
	if Modes[0] != DefaultMode || DefaultMode != ModeSettle {
		t.Errorf("default mode %q, modes %v", DefaultMode, Modes)
	}
	// the exact mode undoes a variant
	if p, _ := d.Settle().WithMode(ModeExact); p != d {
		t.Errorf("exact of settle: %+v", p)
	}
}
