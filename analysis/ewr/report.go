package ewr

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Machine is what a benchmark report says about the machine it ran on.
type Machine struct {
	// CPUs is the number of CPUs named in the report's first line.
	CPUs int
	// LoadAvg, when not nil, returns the machine's load average in the
	// format of /proc/loadavg; without it (or on its error) the benchmark
	// report leaves the load lines out and the side-by-side report prints
	// "?".
	LoadAvg func() (string, error)
}

// load returns the first three fields of the load average, or "?".
func (m Machine) load() string {
	if m.LoadAvg == nil {
		return "?"
	}
	la, err := m.LoadAvg()
	f := strings.Fields(la)
	if err != nil || len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// writeLoad writes the whole load average line labelled when, if known.
func (m Machine) writeLoad(w io.Writer, when string) {
	if m.LoadAvg == nil {
		return
	}
	if la, err := m.LoadAvg(); err == nil {
		fmt.Fprintf(w, "load average %s: %s", when, la)
	}
}

// BenchReport runs the benchmark set with p cold, then repeated (whole
// results cached), then without the result cache (evaluations cached),
// then at another Maia rating (evaluations shared), and writes the figures
// of every pass to w: `outpost ewr --bench`. The calculator's cache should
// start empty, so that the first pass is cold.
func BenchReport(ctx context.Context, w io.Writer, c *Calculator, p Params, m Machine) error {
	fmt.Fprintf(w, "ewr benchmark: %d positions, threshold %g, depth %d, loss %+.2f, Maia %d vs %d, %d CPUs\n",
		len(BenchPositions), p.Threshold, p.Depth, p.LossThreshold, p.Rating, p.OpponentRating, m.CPUs)
	m.writeLoad(w, "before")
	other := p
	other.Rating = p.Rating + 100
	if other.Rating > MaxRating {
		other.Rating = p.Rating - 100
	}
	passes := []struct {
		name string
		p    Params
		opt  Options
	}{
		{"fresh", p, Options{}},
		{"repeated (result cache)", p, Options{}},
		{"repeated (evaluation cache only)", p, Options{SkipResultCache: true}},
		{fmt.Sprintf("Maia %d instead (evaluations shared)", other.Rating), other, Options{}},
	}
	for _, pass := range passes {
		fmt.Fprintf(w, "\n%s:\n", pass.name)
		r, err := RunBench(ctx, c, pass.p, pass.opt, w)
		if err != nil {
			return err
		}
		writeBenchSummary(w, r)
	}
	m.writeLoad(w, "after")
	return nil
}

// writeBenchSummary writes the totals line of one benchmark pass.
func writeBenchSummary(w io.Writer, r BenchRun) {
	fmt.Fprintf(w, "median %.2fs per position · total %.1fs (Stockfish %.1fs, Maia %.1fs, other %.1fs) · Stockfish %d evaluations, %d searches, %.1fM nodes · Maia %d positions in %d calls · cache hit rate %.0f%%\n",
		r.Median().Seconds(), r.Total().Seconds(), r.StockfishTime.Seconds(), r.MaiaTime.Seconds(), (r.Total() - r.StockfishTime - r.MaiaTime).Seconds(),
		r.EngineEvals, r.Searches, float64(r.Nodes)/1e6, r.MaiaPositions, r.MaiaCall, 100*r.HitRate())
}

// CompareReportOptions are CompareReport's optional parts.
type CompareReportOptions struct {
	Machine
	// Only, when not empty, limits the run to these benchmark positions.
	Only []string
	// Positions is the set to run (nil: BenchPositions).
	Positions []BenchPosition
	// Margin, when not nil, overrides the fast mode's decision margin.
	Margin *float64
	// Repeat calculates the same parameters on both sides, so that the
	// differences are the run-to-run ones.
	Repeat bool
	// Reference holds A sides of an earlier run by position (see
	// ReadCompareReference and CompareOptions.Reference).
	Reference map[string]CompareSide
	// Save, when not nil, receives every side as a line of JSON (the
	// format ReadCompareReference reads).
	Save io.Writer
	// ClearHash: the engines clear their hash before every search (see
	// CompareOptions.ClearHash).
	ClearHash bool
}

// compareSides returns the two parameter sets of a side-by-side run: A the
// exact calculation, B p's tree depth when it has one, else the fast mode
// (with margin as its decision margin when not nil).
func compareSides(p Params, margin *float64) (exact, fast Params) {
	exact = p
	exact.TreeDepth = 0
	fast = p // a tree depth as given (equal to the depth: exact against exact)
	if p.TreeDepth == 0 {
		fast = p.Fast()
		if margin != nil {
			fast.DecisionMargin = *margin
		}
	}
	return exact, fast
}

// CompareReport runs the benchmark positions with the exact calculation
// (A) and the fast mode (B) alternately on the same engines and writes both
// with the per-move difference and the totals to w: `outpost ewr --bench
// --compare`.
func CompareReport(ctx context.Context, w io.Writer, c *Calculator, p Params, opt CompareReportOptions) error {
	fmt.Fprintf(w, "ewr benchmark, side by side: %d positions, threshold %g, loss %+.2f, Maia %d vs %d, %d engines\n",
		len(positionsOr(opt.Positions)), p.Threshold, p.LossThreshold, p.Rating, p.OpponentRating, opt.CPUs)
	exact, fast := compareSides(p, opt.Margin)
	writeCompareSides(w, p, exact, fast, opt.Repeat)
	if opt.Repeat {
		exact, fast = p, p
	}
	fmt.Fprintf(w, "load average before: %s\n", opt.load())
	copt := CompareOptions{Load: opt.load, Out: w, Only: opt.Only, Positions: opt.Positions, Reference: opt.Reference, ClearHash: opt.ClearHash}
	if opt.Save != nil {
		enc := json.NewEncoder(opt.Save)
		copt.Record = func(cs CompareSide) error { return enc.Encode(cs) }
	}
	r, err := RunCompare(ctx, c, exact, fast, copt)
	if err != nil {
		return err
	}
	writeCompareSummary(w, r, opt.Repeat)
	fmt.Fprintf(w, "load average after: %s\n", opt.load())
	return nil
}

// writeCompareSides writes the line saying what A and B are.
func writeCompareSides(w io.Writer, p, exact, fast Params, repeat bool) {
	treeDepth := fast.TreeDepth
	if treeDepth == 0 {
		treeDepth = fast.Depth
	}
	mass := ""
	if fast.IsFast() && fast.FullDepthMass > 0 {
		mass = fmt.Sprintf(" (positions of cumulative probability ≥ %g at depth %d)", fast.FullDepthMass, fast.Depth)
	}
	if fast.IsFast() && fast.DecisionMargin > 0 {
		mass += fmt.Sprintf(" (the analysing player's moves within %g of the threshold again at depth %d)", fast.DecisionMargin, fast.Depth)
	}
	if fast.IsFast() && fast.Volatility > 0 {
		mass += fmt.Sprintf(" (settle rule: towards depth %d, ended at %d or %d when probability × (change + %g) ≤ %g)", fast.Depth, treeDepth, min(treeDepth+settleExtra, fast.Depth-1), SettleFloor, fast.Volatility)
	}
	if !repeat {
		fmt.Fprintf(w, "A: exact (depth %d everywhere) · B: legal moves at depth %d, trees at depth %d%s\n", exact.Depth, fast.Depth, treeDepth, mass)
		return
	}
	if p.IsFast() {
		fmt.Fprintf(w, "A and B: the fast mode (trees at depth %d"+mass+"), calculated twice (run-to-run difference)\n", p.TreeDepth)
	} else {
		fmt.Fprintf(w, "A and B: exact (depth %d everywhere), calculated twice (run-to-run difference)\n", p.Depth)
	}
}

// writeCompareSummary writes the totals of a side-by-side run.
func writeCompareSummary(w io.Writer, r CompareRun, repeat bool) {
	la, lb := "A exact:", "B:      " // the header line says what B is (fast, settle, …)
	if repeat {
		la, lb = "A run 1:", "B run 2:"
	}
	fmt.Fprintf(w, la+" median %.2fs, max %.2fs, %d searches, %.1fM nodes\n", r.A.Median().Seconds(), r.A.MaxTime().Seconds(), r.A.Searches, float64(r.A.Nodes)/1e6)
	fmt.Fprintf(w, lb+" median %.2fs, max %.2fs, %d searches, %.1fM nodes (%.2f× fewer nodes, median %.2f× faster)\n",
		r.B.Median().Seconds(), r.B.MaxTime().Seconds(), r.B.Searches, float64(r.B.Nodes)/1e6,
		float64(r.A.Nodes)/math.Max(1, float64(r.B.Nodes)), r.A.Median().Seconds()/math.Max(1e-9, r.B.Median().Seconds()))
	fmt.Fprintf(w, lb+" first ranking at most %.1fs, longest silence %.1fs (targets: 3 s, 2 s)\n",
		slices.Max(append([]time.Duration{0}, r.B.FirstRanking...)).Seconds(), slices.Max(append([]time.Duration{0}, r.B.MaxGap...)).Seconds())
	fmt.Fprintf(w, "B against A: %d moves, max |Δ| %.2f pp, mean %.2f pp, %d over 1 pp; same best move in %d of %d positions, same best (ties within 1 pp) in %d of %d\n",
		r.Moves, 100*r.MaxDiff, 100*r.MeanDiff, r.Over1pp, r.SameBest, len(r.A.Times), r.SameOrTie, len(r.A.Times))
}

// ReadCompareReference reads the A sides of a file written through
// CompareReportOptions.Save, by position; B sides are skipped.
func ReadCompareReference(r io.Reader) (map[string]CompareSide, error) {
	out := map[string]CompareSide{}
	dec := json.NewDecoder(r)
	for n := 1; ; n++ {
		var cs CompareSide
		if err := dec.Decode(&cs); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("record %d: %w", n, err)
		}
		if cs.Side == "A" && cs.Result != nil {
			out[cs.Position] = cs
		}
	}
}

// BenchPositionNames splits a comma-separated list of benchmark position
// names, checking that each names one of BenchPositions.
func BenchPositionNames(list string) ([]string, error) {
	return BenchPositionNamesOf(BenchPositions, list)
}
