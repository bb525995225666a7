package ewr

import "testing"

// TestEngineSplit: the nodes per engine on a compare line, in millions.
func TestEngineSplit(t *testing.T) {
	for _, c := range []struct {
		nodes []int64
		want  string
	}{
		{nil, ""},
		{[]int64{5_000_000}, ""},
		{[]int64{11_240_000, 10_360_000}, " (11.2/10.4M)"},
		{[]int64{0, 1_000_000, 2_060_000}, " (0.0/1.0/2.1M)"},
	} {
		if got := engineSplit(c.nodes); got != c.want {
			t.Errorf("engineSplit(%v) = %q, want %q", c.nodes, got, c.want)
		}
	}
}

// TestSameBestOrTie: a variant's best move counts as the reference's when
// it is the same move, or a tie — within the tolerance of the reference's
// best by the reference's own figures; a move the reference did not rank
// never ties.
func TestSameBestOrTie(t *testing.T) {
	res := func(moves ...any) *Result {
		r := &Result{}
		for i := 0; i < len(moves); i += 2 {
			r.Moves = append(r.Moves, MoveResult{UCI: moves[i].(string), SAN: moves[i].(string), ExpectedWinrate: moves[i+1].(float64)})
		}
		return r
	}
	for _, c := range []struct {
		name      string
		ref, v    *Result
		same, tie bool
	}{
		{"same move", res("g1f3", 0.533, "e2e4", 0.530), res("g1f3", 0.540, "e2e4", 0.520), true, true},
		{"tie by 0.1 pp", res("g1f3", 0.533, "d2d4", 0.532), res("d2d4", 0.532, "g1f3", 0.531), false, true},
		{"tie at exactly 1 pp", res("g1f3", 0.530, "d2d4", 0.520), res("d2d4", 0.525, "g1f3", 0.524), false, true},
		{"1.1 pp apart is no tie", res("g1f3", 0.531, "d2d4", 0.520), res("d2d4", 0.530, "g1f3", 0.529), false, false},
		{"ties by the reference's figures, not the variant's", res("g1f3", 0.60, "d2d4", 0.55), res("d2d4", 0.601, "g1f3", 0.600), false, false},
		{"variant's best not ranked by the reference", res("g1f3", 0.533), res("b1c3", 0.534, "g1f3", 0.533), false, false},
		{"no moves on both sides", res(), res(), true, true},
		{"no moves on one side", res("g1f3", 0.5), res(), false, false},
	} {
		same, tie := sameBestOrTie(c.ref, c.v, Tolerance)
		if same != c.same || tie != c.tie {
			t.Errorf("%s: sameBestOrTie = %v, %v; want %v, %v", c.name, same, tie, c.same, c.tie)
		}
	}
}

// TestBestMark: the compare line's note on the best moves.
func TestBestMark(t *testing.T) {
	for _, c := range []struct {
		same, tie bool
		want      string
	}{{true, true, ""}, {false, true, " (tie)"}, {false, false, " (differs)"}} {
		if got := bestMark(c.same, c.tie); got != c.want {
			t.Errorf("bestMark(%v, %v) = %q, want %q", c.same, c.tie, got, c.want)
		}
	}
}
