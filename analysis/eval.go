package analysis

import (
	"cmp"

	"github.com/outpostchess/outpost/bots/score"
)

// InitialEval is the eval Lichess assumes before the first move (+15 cp).
var InitialEval = score.CP(15)

// clamp limits v to [lo, hi].
func clamp[T cmp.Ordered](v, lo, hi T) T {
	return max(lo, min(hi, v))
}
