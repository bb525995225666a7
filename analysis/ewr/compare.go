package ewr

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// CompareRun is a side-by-side benchmark of two parameter sets (the exact
// calculation and the fast mode) on the benchmark positions.
type CompareRun struct {
	// A and B are the two sides' times and engine counts.
	A, B BenchRun
	// MaxDiff is the largest difference of a move's expected winrate
	// between the sides, over every move both evaluated; MeanDiff the mean;
	// Moves the number of moves compared; Over1pp those differing by more
	// than one percentage point.
	MaxDiff, MeanDiff float64
	Moves, Over1pp    int
	// SameBest counts the positions whose best practical move is the same;
	// SameOrTie those whose B best move is A's or ties with it by A's own
	// figures (see sameBestOrTie).
	SameBest, SameOrTie int
}

// Tolerance is the bound of the fast calculation's error per move: one
// percentage point of expected winrate against the reference (issue #26).
// Compare counts the moves beyond it, and a best move within it of the
// reference's best is a tie.
const Tolerance = 0.01

// sameBestOrTie reports whether v's best move is ref's best move, or a
// tie with it: a move whose expected winrate in ref lies within tol of
// ref's best. A variant with any error at all may swap two moves that
// near; a move ref did not rank (dropped at its loss filter) is never a
// tie. Two results without moves agree.
func sameBestOrTie(ref, v *Result, tol float64) (same, tie bool) {
	rb, okr := ref.Best()
	vb, okv := v.Best()
	if !okr || !okv {
		return okr == okv, okr == okv
	}
	if rb.UCI == vb.UCI {
		return true, true
	}
	m, ok := ref.Move(vb.UCI)
	return false, ok && m.ExpectedWinrate >= rb.ExpectedWinrate-tol-eps
}

// CompareSide is one side's outcome on one benchmark position, as
// RunCompare records it (and may reuse it as a reference).
type CompareSide struct {
	// Side is "A" or "B"; Position the benchmark position's name.
	Side     string `json:"side"`
	Position string `json:"position"`
	Params   Params `json:"params"`
	// ClearHash is set when the engines cleared their hash before every
	// search (`outpost ewr --clear-hash`): the same Params give other
	// figures with and without it, so a reference is used only by a run
	// made the same way.
	ClearHash bool `json:"clear_hash,omitempty"`
	// Seconds is the wall time, Load the machine's load average after it.
	Seconds float64 `json:"seconds"`
	Load    string  `json:"load,omitempty"`
	// Searches and Nodes are the engine searches and their nodes.
	Searches int64 `json:"searches"`
	Nodes    int64 `json:"nodes"`
	// EngineNodes are the nodes by engine (when the evaluator counts
	// them): the busiest engine bounds the wall time.
	EngineNodes []int64 `json:"engine_nodes,omitempty"`
	// FirstRanking is the time to the first progress event carrying a
	// ranking, MaxGap the longest time without a progress event (seconds).
	FirstRanking float64 `json:"first_ranking"`
	MaxGap       float64 `json:"max_gap"`
	Result       *Result `json:"result"`
}

// CompareOptions are RunCompare's optional parts.
type CompareOptions struct {
	// Load, when not nil, returns the machine's load average, printed on
	// each line.
	Load func() string
	// Out receives one line per position.
	Out io.Writer
	// Reference holds A sides of an earlier run by position name; one
	// whose Params equal a (and made with the same ClearHash) is used instead of calculating A again (the
	// calculation is deterministic: the same parameters give the same
	// figures, see the digests), so that several B variants can be
	// measured against one exact run.
	Reference map[string]CompareSide
	// Record, when not nil, receives every side calculated or reused.
	Record func(CompareSide) error
	// Only, when not empty, limits the run to the benchmark positions of
	// these names.
	Only []string
	// Positions is the set to run (nil: BenchPositions).
	Positions []BenchPosition
	// ClearHash says the evaluator's engines clear their hash before every
	// search; it is recorded in each side and must match a reference's.
	ClearHash bool
}

// positionsOr returns set, or BenchPositions when it is nil.
func positionsOr(set []BenchPosition) []BenchPosition {
	if set == nil {
		return BenchPositions
	}
	return set
}

// RunCompare calculates every benchmark position with a, then with b, on
// the same engines (their hash cleared before each calculation, no cache),
// and writes one line per position to opt.Out: both sides' time and nodes
// and the per-move difference of the expected winrates.
func RunCompare(ctx context.Context, c *Calculator, a, b Params, opt CompareOptions) (CompareRun, error) {
	var out CompareRun
	tc := *c
	tc.Cache = nil
	sum := 0.0
	w := opt.Out
	if w == nil {
		w = io.Discard
	}
	for _, bp := range positionsOr(opt.Positions) {
		if len(opt.Only) > 0 && !slices.Contains(opt.Only, bp.Name) {
			continue
		}
		var res [2]*Result
		side := [2]*BenchRun{&out.A, &out.B}
		var line [2]string
		for i, p := range []Params{a, b} {
			cs, err := compareSide(ctx, &tc, bp, p, i, opt)
			if err != nil {
				return out, err
			}
			if opt.Record != nil {
				if err := opt.Record(cs); err != nil {
					return out, fmt.Errorf("ewr: compare %s: record: %w", bp.Name, err)
				}
			}
			res[i] = cs.Result
			d := time.Duration(cs.Seconds * float64(time.Second))
			side[i].Times = append(side[i].Times, d)
			side[i].Searches += cs.Searches
			side[i].Nodes += cs.Nodes
			side[i].EngineEvals += cs.Result.Stats.EngineEvals
			side[i].FirstRanking = append(side[i].FirstRanking, time.Duration(cs.FirstRanking*float64(time.Second)))
			side[i].MaxGap = append(side[i].MaxGap, time.Duration(cs.MaxGap*float64(time.Second)))
			line[i] = fmt.Sprintf("%6.2fs %4d searches %5.1fM nodes%s", cs.Seconds, cs.Searches, float64(cs.Nodes)/1e6, engineSplit(cs.EngineNodes))
			if i == 1 {
				line[i] += fmt.Sprintf(" (first ranking %.1fs, longest silence %.1fs)", cs.FirstRanking, cs.MaxGap)
			}
			if i == 0 && cs.Load == "reference" {
				line[i] += " (ref)"
			}
		}
		maxD, arg, dsum, n, over := moveDiffs(res[0], res[1])
		sum += dsum
		out.Moves += n
		out.Over1pp += over
		out.MaxDiff = max(out.MaxDiff, maxD)
		ba, _ := res[0].Best()
		bb, _ := res[1].Best()
		same, tie := sameBestOrTie(res[0], res[1], Tolerance)
		if same {
			out.SameBest++
		}
		if tie {
			out.SameOrTie++
		}
		l := ""
		if opt.Load != nil {
			l = "  load " + opt.Load()
		}
		fmt.Fprintf(w, "%-14s A %s | B %s | max |Δ| %.2f pp (%s), best %s %.1f%% / %s %.1f%%%s, %d/%d moves, digests %s %s%s\n",
			bp.Name, line[0], line[1], 100*maxD, arg, ba.SAN, 100*ba.ExpectedWinrate, bb.SAN, 100*bb.ExpectedWinrate, bestMark(same, tie),
			len(res[0].Moves), len(res[1].Moves), digest(res[0]), digest(res[1]), l)
	}
	if out.Moves > 0 {
		out.MeanDiff = sum / float64(out.Moves)
	}
	return out, nil
}

// moveDiffs compares the expected winrates of the moves both a and b
// ranked: the largest |Δ| and its move (SAN, "-" when none), the sum of
// |Δ|, the moves compared and those differing by more than Tolerance.
func moveDiffs(a, b *Result) (maxD float64, arg string, sum float64, n, over int) {
	arg = "-"
	for _, m := range a.Moves {
		f, ok := b.Move(m.UCI)
		if !ok {
			continue
		}
		d := math.Abs(f.ExpectedWinrate - m.ExpectedWinrate)
		n++
		sum += d
		if d > Tolerance {
			over++
		}
		if d > maxD || arg == "-" {
			maxD, arg = d, m.SAN
		}
	}
	return maxD, arg, sum, n, over
}

// compareSide calculates one side of one position, or takes side A from
// the reference when it was calculated with the same parameters.
func compareSide(ctx context.Context, c *Calculator, bp BenchPosition, p Params, i int, opt CompareOptions) (CompareSide, error) {
	name := [2]string{"A", "B"}[i]
	if ref, ok := opt.Reference[bp.Name]; ok && i == 0 && ref.Result != nil && ref.Params == p.normalized() && ref.ClearHash == opt.ClearHash {
		ref.Side, ref.Load = name, "reference"
		return ref, nil
	}
	cnt, _ := c.Evaluator.(counter)
	var s0, n0 int64
	if cnt != nil {
		s0, n0 = cnt.Counts()
	}
	en, _ := c.Evaluator.(interface{ EngineNodes() []int64 })
	var e0 []int64
	if en != nil {
		e0 = en.EngineNodes()
	}
	t0 := time.Now()
	pm := &phaseMeter{start: t0, last: t0}
	r, err := c.Calculate(ctx, bp.Pos, p, Options{SkipResultCache: true, Progress: pm.event})
	if err != nil {
		return CompareSide{}, fmt.Errorf("ewr: compare %s: %w", bp.Name, err)
	}
	pm.event(Event{Phase: PhaseDone})
	cs := CompareSide{Side: name, Position: bp.Name, Params: r.Params, ClearHash: opt.ClearHash, Seconds: time.Since(t0).Seconds(), Result: r,
		FirstRanking: pm.first.Seconds(), MaxGap: pm.gap.Seconds()}
	if cnt != nil {
		s1, n1 := cnt.Counts()
		cs.Searches, cs.Nodes = s1-s0, n1-n0
	}
	if en != nil {
		for i, n := range en.EngineNodes() {
			cs.EngineNodes = append(cs.EngineNodes, n-e0[i])
		}
	}
	if opt.Load != nil {
		cs.Load = opt.Load()
	}
	return cs, nil
}

// bestMark annotates a position's best moves on its compare line: nothing
// when the same, " (tie)" within the tolerance, " (differs)" otherwise.
func bestMark(same, tie bool) string {
	switch {
	case same:
		return ""
	case tie:
		return " (tie)"
	}
	return " (differs)"
}

// engineSplit formats nodes per engine, e.g. " (11.2/10.4M)", or "" when
// there are fewer than two counts.
func engineSplit(nodes []int64) string {
	if len(nodes) < 2 {
		return ""
	}
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = fmt.Sprintf("%.1f", float64(n)/1e6)
	}
	return " (" + strings.Join(parts, "/") + "M)"
}

// MaxTime is the longest time per position.
func (b BenchRun) MaxTime() time.Duration {
	if len(b.Times) == 0 {
		return 0
	}
	return slices.Max(b.Times)
}

// digest fingerprints a result's ranking (moves and expected winrates at
// full precision), so that runs in different processes can be compared:
// equal digests mean identical figures.
func digest(r *Result) string {
	h := fnv.New32a()
	for _, m := range r.Moves {
		fmt.Fprintf(h, "%s %v %v\n", m.UCI, m.ExpectedWinrate, m.Coverage)
	}
	return fmt.Sprintf("%08x", h.Sum32())
}
