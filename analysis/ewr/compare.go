package ewr

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"slices"
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
	// SameBest counts the positions whose best practical move is the same.
	SameBest int
}

// RunCompare calculates every benchmark position with a, then with b, on
// the same engines (their hash cleared before each calculation, no cache),
// and writes one line per position to w: both sides' time and nodes and
// the per-move difference of the expected winrates. load, when not nil,
// is printed with each line (the machine's load average).
func RunCompare(ctx context.Context, c *Calculator, a, b Params, load func() string, w io.Writer) (CompareRun, error) {
	var out CompareRun
	cnt, _ := c.Evaluator.(counter)
	tc := *c
	tc.Cache = nil
	sum := 0.0
	for _, bp := range BenchPositions {
		var res [2]*Result
		var side [2]*BenchRun
		side[0], side[1] = &out.A, &out.B
		var line [2]string
		for i, p := range []Params{a, b} {
			var s0, n0 int64
			if cnt != nil {
				s0, n0 = cnt.Counts()
			}
			t0 := time.Now()
			r, err := tc.Calculate(ctx, bp.Pos, p, Options{SkipResultCache: true})
			if err != nil {
				return out, fmt.Errorf("ewr: compare %s: %w", bp.Name, err)
			}
			d := time.Since(t0)
			var searches, nodes int64
			if cnt != nil {
				s1, n1 := cnt.Counts()
				searches, nodes = s1-s0, n1-n0
			}
			res[i] = r
			side[i].Times = append(side[i].Times, d)
			side[i].Searches += searches
			side[i].Nodes += nodes
			side[i].EngineEvals += r.Stats.EngineEvals
			line[i] = fmt.Sprintf("%6.2fs %4d searches %5.1fM nodes", d.Seconds(), searches, float64(nodes)/1e6)
		}
		maxD, arg := 0.0, "-"
		for _, m := range res[0].Moves {
			f, ok := res[1].Move(m.UCI)
			if !ok {
				continue
			}
			d := math.Abs(f.ExpectedWinrate - m.ExpectedWinrate)
			out.Moves++
			sum += d
			if d > 0.01 {
				out.Over1pp++
			}
			if d > maxD || arg == "-" {
				maxD, arg = d, m.SAN
			}
		}
		out.MaxDiff = max(out.MaxDiff, maxD)
		ba, _ := res[0].Best()
		bb, _ := res[1].Best()
		if ba.UCI == bb.UCI {
			out.SameBest++
		}
		if w != nil {
			l := ""
			if load != nil {
				l = "  load " + load()
			}
			fmt.Fprintf(w, "%-14s A %s | B %s | max |Δ| %.2f pp (%s), best %s %.1f%% / %s %.1f%%, %d/%d moves, digests %s %s%s\n",
				bp.Name, line[0], line[1], 100*maxD, arg, ba.SAN, 100*ba.ExpectedWinrate, bb.SAN, 100*bb.ExpectedWinrate,
				len(res[0].Moves), len(res[1].Moves), digest(res[0]), digest(res[1]), l)
		}
	}
	if out.Moves > 0 {
		out.MeanDiff = sum / float64(out.Moves)
	}
	return out, nil
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
