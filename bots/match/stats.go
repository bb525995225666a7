package match

import "math"

// Stats is the statistical summary of a match from A's point of view.
type Stats struct {
	Games    int
	Wins     int // A's wins
	Losses   int // A's losses (B's wins)
	Draws    int
	Score    float64 // A's score per game, 0 to 1
	EloDiff  float64 // A's Elo minus B's
	EloError float64 // half-width of the 95% confidence interval of EloDiff
	LOS      float64 // likelihood of superiority of A, 0 to 1
}

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// ComputeStats derives score, Elo difference with a 95% error margin and the
// likelihood of superiority from a win/loss/draw count.
//
// Elo = -400·log10(1/s - 1) for the score s. The error uses the trinomial
// per-game variance σ² = (W(1-s)² + D(½-s)² + L·s²)/N, so the score's
// standard error is σ/√N, and the margin is half the Elo distance between
// s ± 1.96·σ/√N. Scores are clamped to [½/N, 1-½/N] (as if one decisive
// game had been a draw) so that a clean sweep gives a finite number; when
// every game had the same result the binomial variance of the clamped score
// is used instead of zero. LOS = ½(1 + erf((W-L)/√(2(W+L)))), ½ without
// decisive games.
func ComputeStats(wins, losses, draws int) Stats {
	n := wins + losses + draws
	st := Stats{Games: n, Wins: wins, Losses: losses, Draws: draws, LOS: 0.5}
	if n == 0 {
		return st
	}
	N := float64(n)
	s := (float64(wins) + float64(draws)/2) / N
	st.Score = s
	eps := 0.5 / N
	clamp := func(x float64) float64 { return math.Min(math.Max(x, eps), 1-eps) }
	elo := func(x float64) float64 { return -400 * math.Log10(1/x-1) }
	variance := (float64(wins)*(1-s)*(1-s) + float64(draws)*(0.5-s)*(0.5-s) + float64(losses)*s*s) / N
	if variance == 0 {
		c := clamp(s)
		variance = c * (1 - c)
	}
	st.EloDiff = elo(clamp(s))
	se := math.Sqrt(variance / N)
	lo, hi := clamp(s-z95*se), clamp(s+z95*se)
	st.EloError = (elo(hi) - elo(lo)) / 2
	if wins+losses > 0 {
		st.LOS = 0.5 * (1 + math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses))))
	}
	return st
}
