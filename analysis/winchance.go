package analysis

import "math"

// MoveAccuracy is Lichess's accuracy of one move from the mover's Win%
// before and after it: 100 when it did not drop, else a decaying exponential
// of the drop (plus Lichess's one-point uncertainty bonus), within [0, 100].
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	drop := before - after
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*drop) - 3.166924740191411 + 1
	return clamp(raw, 0, 100)
}
