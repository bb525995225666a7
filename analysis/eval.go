package analysis

import (
	"math"

	"github.com/outpostchess/outpost/bots/score"
)

// InitialEval is the eval Lichess assumes before the first move (+15 cp).
var InitialEval = score.CP(15)

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func clampFloat(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}
