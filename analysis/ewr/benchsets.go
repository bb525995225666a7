package ewr

import (
	"fmt"
	"slices"
	"strings"
)

// HoldoutPositions are a second benchmark set, none of them in
// BenchPositions: positions of the real Lichess games kept with the
// project's test data (../shared/lichess-games, the game's id in each
// comment), so that a variant tuned on the benchmark can be checked on
// positions it was not tuned on. Six openings with their history (Maia sees
// it), two middlegames and two endgames from the middle of games (no
// history, as the benchmark's own).
var HoldoutPositions = []BenchPosition{
	// CCW6EEru, before 8. Qb3
	{"evans gambit", Position{Moves: strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 b2b4 c5b4 c2c3 b4a5 d2d4 a5b6 c1a3 g8f6")}},
	// CM8wuIDf, before 9. Qe2
	{"taimanov", Position{Moves: strings.Fields("e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6 b1c3 a7a6 d4c6 b7c6 e4e5 d8c7 c1f4 g8e7")}},
	// P5VLFjXI, before 7. e3
	{"london", Position{Moves: strings.Fields("d2d4 g8f6 g1f3 c7c5 c2c3 d7d5 c1f4 d8b6 d1c2 c5d4 c3d4 b8c6")}},
	// ZlCTzfMG, before 11. Nc4
	{"bishop's opening", Position{Moves: strings.Fields("e2e4 e7e5 f1c4 g8f6 d2d3 c7c6 g1f3 d7d5 c4b3 f8b4 c2c3 b4d6 b1d2 b8d7 e1g1 e8g8 f1e1 d5e4 d3e4 d8e7")}},
	// q7ZvsdUF, before 9. Qe2
	{"semi-slav", Position{Moves: strings.Fields("d2d4 d7d5 c2c4 c7c6 b1c3 e7e6 e2e4 b8d7 e4d5 c6d5 c4d5 e6d5 c3d5 d7b6 f1b5 c8d7")}},
	// lila's test game expected1, before 11. Qxf3
	{"rossolimo", Position{Moves: strings.Fields("e2e4 c7c5 g1f3 b8c6 f1b5 d8b6 b1c3 c6d4 b5c4 e7e6 e1g1 a7a6 d2d3 d7d6 f1e1 g8f6 a1b1 f8e7 c1e3 d4f3")}},
	// lila's test game expected3, before 6...b4 (Black to move)
	{"closed ruy", Position{StartFEN: "b1r2rk1/2q1bppp/p2p1n2/nppPp3/4P2N/2P1B2P/PPBN1PP1/R2Q1RK1 b - - 2 6"}},
	// CM8wuIDf, before 21. Qd3
	{"heavy pieces", Position{StartFEN: "5rk1/1r1pqpp1/p3p1n1/2p1P2p/7P/2Q3B1/P1PK1PP1/3R3R w - - 0 21"}},
	// P5VLFjXI, before 31. Kf3
	{"bishop endgame", Position{StartFEN: "8/1p3k1p/p5p1/2b2pP1/4pB2/1P2P3/1P3PKP/8 w - - 0 31"}},
	// q7ZvsdUF, before 51. Ne3
	{"knight endgame", Position{StartFEN: "8/p2k4/1p6/3P1Kp1/P1N2n2/1P3P2/8/8 w - - 2 51"}},
}

// BenchSets names the benchmark sets: "standard" (BenchPositions, also
// the empty name) and "holdout" (HoldoutPositions).
var BenchSets = []string{"standard", "holdout"}

// BenchSet returns the benchmark set of that name (see BenchSets).
func BenchSet(name string) ([]BenchPosition, bool) {
	switch name {
	case "", "standard":
		return BenchPositions, true
	case "holdout":
		return HoldoutPositions, true
	}
	return nil, false
}

// BenchPositionNamesOf splits a comma-separated list of position names,
// checking that each names one of set.
func BenchPositionNamesOf(set []BenchPosition, list string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if !slices.ContainsFunc(set, func(bp BenchPosition) bool { return bp.Name == n }) {
			return nil, fmt.Errorf("no benchmark position %q", n)
		}
		names = append(names, n)
	}
	return names, nil
}
