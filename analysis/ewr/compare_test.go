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
