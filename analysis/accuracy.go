package analysis

import (
	"math"

	"github.com/outpostchess/outpost/bots/score"
)

// AccuracyResult is the outcome of Lichess's game-accuracy computation.
type AccuracyResult struct {
	White, Black float64 // game accuracy per colour (unrounded)
	// HasWhite and HasBlack say whether the colour made at least one
	// evaluated move.
	HasWhite, HasBlack bool
	// Moves holds each evaluated move's accuracy, index i = ply i+1.
	Moves []float64
}

// GameAccuracy computes Lichess's game accuracy per colour from the evals
// after each ply (White POV, in order, the final checkmated position
// omitted). firstWhite says whether White played the first of these plies.
func GameAccuracy(evals []score.Score, firstWhite bool) AccuracyResult {
	wins := make([]float64, 0, len(evals)+1)
	wins = append(wins, (InitialEval).WinPercent())
	for _, e := range evals {
		wins = append(wins, (e).WinPercent())
	}
	window := clamp(len(evals)/10, 2, 8)
	var windows [][]float64
	first := wins[:min(window, len(wins))]
	for i := 0; i < min(window, len(wins))-2; i++ {
		windows = append(windows, first)
	}
	for i := 0; i+window <= len(wins); i++ {
		windows = append(windows, wins[i:i+window])
	}
	type acc struct{ value, weight float64 }
	var white, black []acc
	res := AccuracyResult{Moves: make([]float64, 0, len(evals))}
	for i := 0; i+1 < len(wins) && i < len(windows); i++ {
		prev, next := wins[i], wins[i+1]
		isWhite := (i%2 == 0) == firstWhite
		var a float64
		if isWhite {
			a = MoveAccuracy(prev, next)
		} else {
			a = MoveAccuracy(100-prev, 100-next)
		}
		res.Moves = append(res.Moves, a)
		w := clamp(stdDev(windows[i]), 0.5, 12)
		if isWhite {
			white = append(white, acc{a, w})
		} else {
			black = append(black, acc{a, w})
		}
	}
	colour := func(xs []acc) (float64, bool) {
		if len(xs) == 0 {
			return 0, false
		}
		var sw, swa, sinv float64
		for _, x := range xs {
			sw += x.weight
			swa += x.value * x.weight
			sinv += 1 / math.Max(1, x.value)
		}
		if sw == 0 || sinv == 0 {
			return 0, false
		}
		weighted := swa / sw
		harmonic := float64(len(xs)) / sinv
		return (weighted + harmonic) / 2, true
	}
	res.White, res.HasWhite = colour(white)
	res.Black, res.HasBlack = colour(black)
	return res
}

// stdDev is the population standard deviation.
func stdDev(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var sq float64
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return math.Sqrt(sq / float64(len(xs)))
}

// ACPL computes Lichess's average centipawn loss of one colour. evals holds
// the eval after each ply (nil when unknown), firstWhite whether White
// played the first ply. Losses use capped cp (mates ±1000) and the initial
// +15 before the first move; pairs with an unknown eval are skipped.
func ACPL(evals []*score.Score, firstWhite, white bool) (int, bool) {
	list := make([]*score.Score, 0, len(evals)+1)
	if firstWhite == white {
		init := InitialEval
		list = append(list, &init)
	}
	list = append(list, evals...)
	var sum float64
	n := 0
	for i := 0; i+1 < len(list); i += 2 {
		a, b := list[i], list[i+1]
		if a == nil || b == nil {
			continue
		}
		d := b.CappedCP() - a.CappedCP()
		if white {
			d = -d
		}
		sum += float64(max(d, 0))
		n++
	}
	if n == 0 {
		return 0, false
	}
	return int(math.Floor(sum/float64(n) + 0.5)), true
}

// RoundAccuracy rounds a game accuracy the way Lichess's exports do.
func RoundAccuracy(a float64) int { return int(math.Floor(a + 0.5)) }
