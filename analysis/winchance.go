package analysis

import "math"

// winChanceMultiplier is the slope of Lichess's winning-chances sigmoid.
const winChanceMultiplier = -0.00368208

// WinningChances maps centipawns (White POV, NOT capped) to [-1, 1] the way
// Lichess does for judgements.
func WinningChances(cp int) float64 {
	return clampFloat(2/(1+math.Exp(winChanceMultiplier*float64(cp)))-1, -1, 1)
}

// WinPercent is Lichess's Win% of an eval from White's point of view: 0..100,
// cp capped at ±1000 and a mate counting as ±1000.
func WinPercent(e Eval) float64 {
	return 50 + 50*WinningChances(e.CappedCP())
}

// MoveAccuracy is Lichess's accuracy of one move from the mover's Win%
// before and after it: 100 when it did not drop, else a decaying exponential
// of the drop (plus Lichess's one-point uncertainty bonus), within [0, 100].
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	drop := before - after
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*drop) - 3.166924740191411 + 1
	return clampFloat(raw, 0, 100)
}
