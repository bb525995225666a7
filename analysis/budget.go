package analysis

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
)

// Budget bounds the search of one position: by nodes (as Lichess) or depth.
type Budget struct {
	Nodes int64
	Depth int
	// FreshHash searches every position on its own after ucinewgame, with
	// the whole budget, as fishnet up to 2.6 did; otherwise positions go in
	// fishnet's chunks (see FishnetLimits and SearchOptions).
	FreshHash bool
	// Engine is the engine name (package enginepath) the preset reproduces
	// Lichess's analysis with ("" = any engine): callers that pick the
	// engine from the preset (compare --preset by-date) run it.
	Engine string
	// ByDate picks, for each game, the preset of the period it was played
	// in (LichessPeriodAt); the other fields are then unused.
	ByDate bool
	// ChunkScale is the factor (numerator, denominator) fishnet applied to
	// the node limit of a chunked analysis, to pay for the overlap
	// position: zero means 6/7, Chunk::MAX_POSITIONS / (MAX_POSITIONS + 1)
	// of fishnet 2.9.2 and later (NodeLimit::get); fishnet 2.8.2 used 5/6.
	ChunkScale [2]int64
	// Name is the preset's name when the budget is a preset (Preset sets
	// it), "" for --nodes or --depth.
	Name string
}

// Presets of the per-position budget:
//   - quick:   100,000 nodes (a fast look; ~0.15 s a position on one core)
//   - lichess: 1,000,000 nodes, Lichess's budget for a requested analysis
//     (fishnet sends "go nodes" at 6/7 of it: see FishnetLimits)
//   - deep:    5,000,000 nodes, Lichess's broadcast budget
//   - lichess-sf15: 1,500,000 nodes, each position with a fresh hash:
//     Lichess's analysis with Stockfish 15/15.1 (fishnet 2.x, 2022 to mid
//     2023; its "sf15" node limit). With Stockfish 15.1 (engine sf15:
//     Debian's build or the native one) and a 16 MB hash (Stockfish's
//     default, which fishnet keeps) it reproduces that analysis exactly:
//     same depth, nodes, score and line.
//   - lichess-sf18: Lichess's analysis with fishnet 2.13.0 (from
//     2026-01-31): Stockfish 18 (engine sf18), Threads 1, Hash 16,
//     MultiPV 1, 1,000,000 nodes sent as "go nodes 857142" (6/7), positions
//     backwards in chunks of 5 after ucinewgame and a warm-up search of the
//     following position, at most 300 plies. fishnet also sets
//     UCI_Chess960 true for every game; here a Chess960 game's positions
//     carry it (uci.Position.Chess960), and a standard game's leave it off:
//     there it changes only how castling is written (king takes rook), not
//     the search (docs/stockfish.md).
//   - lichess-sf16: Lichess's analysis with fishnet 2.7.x (2023-07-01 to
//     2024-01-03): Stockfish 16 (engine sf16), each position on its own
//     after ucinewgame (fishnet's stockfish.rs of that time sends
//     ucinewgame before every position), Hash 16, Threads 1, MultiPV 1,
//     fishnetSF16Nodes nodes; it reproduces every eval fishnet computed of
//     eOXqcPAS, a game of the period (docs/stockfish.md).
//   - lichess-sf16-2.8: fishnet 2.8.x (2024-01-04 to 2024-02-23):
//     Stockfish 16 at fishnetSF16Nodes × 5/6 ("go nodes 1250000", fishnet
//     2.8.2's overlap factor), positions backwards in chunks of 5 after
//     ucinewgame and, for every chunk but the game's last, a warm-up search
//     of the position after it.
//   - lichess-sf17.1: fishnet 2.9.5 (2025-03-30 to 2026-01-30): Stockfish
//     17.1 (engine sf17.1) with lichess-sf18's method: 1,000,000 nodes
//     sent as "go nodes 857142", chunks of 5 backwards after ucinewgame
//     and a warm-up search (fishnet's queue.rs and NodeLimit::get since
//     2.9.2).
//   - by-date: per game, the preset of the period it was played in
//     (LichessPeriods), saying when the period's engine is not one we can
//     run.
var Presets = map[string]Budget{
	"quick":            {Nodes: 100_000},
	"lichess":          {Nodes: 1_000_000},
	"lichess-sf15":     {Nodes: 1_500_000, FreshHash: true, Engine: enginepath.Stockfish15},
	"lichess-sf16":     {Nodes: fishnetSF16Nodes, FreshHash: true, Engine: enginepath.Stockfish16},
	"lichess-sf16-2.8": {Nodes: fishnetSF16Nodes, Engine: enginepath.Stockfish16, ChunkScale: [2]int64{5, 6}},
	"lichess-sf17.1":   {Nodes: 1_000_000, Engine: enginepath.Stockfish171},
	"lichess-sf18":     {Nodes: 1_000_000, Engine: enginepath.Stockfish18},
	"by-date":          {ByDate: true},
	"deep":             {Nodes: 5_000_000},
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
	b.Name = strings.ToLower(name)
	return b, nil
}

// ParseBudget is the one budget parser of the command line and the config:
// it returns the budget set by at most one of nodes, depth and preset (the
// zero value of each meaning unset), and DefaultBudget when none is set.
// Errors name the offending flag or key as --nodes, --depth or --preset.
func ParseBudget(nodes int64, depth int, preset string) (Budget, error) {
	set := 0
	for _, b := range []bool{nodes != 0, depth != 0, preset != ""} {
		if b {
			set++
		}
	}
	switch {
	case set > 1:
		return Budget{}, errors.New("use only one of --nodes, --depth and --preset")
	case nodes < 0:
		return Budget{}, fmt.Errorf("--nodes %d: want a positive number", nodes)
	case depth < 0:
		return Budget{}, fmt.Errorf("--depth %d: want a positive number", depth)
	case nodes > 0:
		return Budget{Nodes: nodes}, nil
	case depth > 0:
		return Budget{Depth: depth}, nil
	case preset != "":
		return Preset(preset)
	}
	return DefaultBudget, nil
}

// Limits returns the UCI limits of the budget (the default when empty).
func (b Budget) Limits() uci.Limits {
	if b.Nodes <= 0 && b.Depth <= 0 {
		b = DefaultBudget
	}
	return uci.Limits{Nodes: b.Nodes, Depth: b.Depth}
}

// fishnetMaxPositions is fishnet's Chunk::MAX_POSITIONS: a chunk holds
// FishnetChunk positions and the overlap position.
const fishnetMaxPositions = FishnetChunk + 1

// FishnetLimits returns the limits of one position of a chunked game
// analysis as fishnet sends them: the node budget times ChunkScale (6/7 by
// default), so that a chunk's overlap position is paid for (fishnet's
// NodeLimit::get: 1,000,000 → "go nodes 857142"). A depth budget is kept
// as it is.
func (b Budget) FishnetLimits() uci.Limits {
	lim := b.Limits()
	if lim.Nodes > 0 && !b.FreshHash {
		num, den := b.ChunkScale[0], b.ChunkScale[1]
		if num <= 0 || den <= 0 {
			num, den = fishnetMaxPositions, fishnetMaxPositions+1
		}
		lim.Nodes = lim.Nodes * num / den
	}
	return lim
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
	if b.ByDate {
		return "preset by game date"
	}
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
	if b.FreshHash {
		parts = append(parts, "fresh hash")
	}
	return strings.Join(parts, ", ")
}

// fishnetSF16Nodes is the node limit of Lichess's analysis in Stockfish
// 16's period (lila's "sf16" node limit, sent to every position after its
// own ucinewgame by fishnet 2.7.x): the figure that reproduces a game of
// that period's evals exactly (docs/stockfish.md, "Stockfish 16's method").
const fishnetSF16Nodes = 1_500_000
