package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/internal/uci"
)

// Budget bounds the search of one position: by nodes (as Lichess) or depth.
type Budget struct {
	Nodes int64
	Depth int
}

// Presets of the per-position budget:
//   - quick:   100,000 nodes (a fast look; ~0.15 s a position on one core)
//   - lichess: 1,000,000 nodes, Lichess's budget for a requested analysis
//     (fishnet actually sends "go nodes" at 6/7 of it)
//   - deep:    5,000,000 nodes, Lichess's broadcast budget
var Presets = map[string]Budget{
	"quick":   {Nodes: 100_000},
	"lichess": {Nodes: 1_000_000},
	"deep":    {Nodes: 5_000_000},
}

// DefaultBudget is the lichess preset.
var DefaultBudget = Presets["lichess"]

// Preset returns the named preset.
func Preset(name string) (Budget, error) {
	b, ok := Presets[strings.ToLower(name)]
	if !ok {
		names := make([]string, 0, len(Presets))
		for n := range Presets {
			names = append(names, n)
		}
		sort.Strings(names)
		return Budget{}, fmt.Errorf("unknown preset %q (want one of %s)", name, strings.Join(names, ", "))
	}
	return b, nil
}

// Limits returns the UCI limits of the budget (the default when empty).
func (b Budget) Limits() uci.Limits {
	if b.Nodes <= 0 && b.Depth <= 0 {
		b = DefaultBudget
	}
	return uci.Limits{Nodes: b.Nodes, Depth: b.Depth}
}

// Deeper returns the budget scaled for a borderline re-search: factor times
// the nodes, or the depth plus 2 per doubling.
func (b Budget) Deeper(factor int) Budget {
	if b.Nodes <= 0 && b.Depth <= 0 {
		b = DefaultBudget
	}
	if factor < 2 {
		factor = 2
	}
	out := b
	if b.Nodes > 0 {
		out.Nodes = b.Nodes * int64(factor)
	}
	if b.Depth > 0 {
		extra := 0
		for f := factor; f > 1; f /= 2 {
			extra += 2
		}
		out.Depth = b.Depth + extra
	}
	return out
}

// String describes the budget ("nodes 1000000", "depth 20").
func (b Budget) String() string {
	if b.Nodes <= 0 && b.Depth <= 0 {
		b = DefaultBudget
	}
	var parts []string
	if b.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", b.Nodes))
	}
	if b.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", b.Depth))
	}
	return strings.Join(parts, ", ")
}
