package ewr

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
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
	for _, bp := range BenchPositions {
		t0 := time.Now()
		res, err := c.Calculate(ctx, bp.Pos, p, opt)
		if err != nil {
			return run, fmt.Errorf("ewr: bench %s: %w", bp.Name, err)
		}
		d := time.Since(t0)
		run.Times = append(run.Times, d)
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
			fmt.Fprintf(w, "%-14s %7.2fs  best %-12s  %2d/%2d moves  %4d nodes  stockfish %4d (+%d cached)  maia %4d in %3d calls  cached=%v\n",
				bp.Name, d.Seconds(), best, s.Candidates, s.LegalMoves, s.Nodes, s.EngineEvals, s.EvalCacheHits, s.MaiaPositions, s.MaiaCalls, res.Cached)
		}
	}
	return run, nil
}
