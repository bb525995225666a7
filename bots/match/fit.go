package match

import (
	"errors"
	"math"
)

// Rung is the result of games against one fixed-strength opponent.
type Rung struct {
	Elo    int // the opponent's rating
	Wins   int // our wins
	Losses int
	Draws  int
}

// Games returns the number of games played at the rung.
func (r Rung) Games() int { return r.Wins + r.Losses + r.Draws }

// Score returns our score per game at the rung (0 when no game was played).
func (r Rung) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games())
}

// Fit is a maximum-likelihood Elo estimate.
type Fit struct {
	Elo   float64 // the estimate
	Error float64 // half-width of the 95% confidence interval
	// Bound is "above" when we won everything (the estimate is only a lower
	// bound), "below" when we lost everything, "" otherwise.
	Bound string
}

// eloSlope is d/dE of log(p) terms: ln(10)/400.
const eloSlope = math.Ln10 / 400

// expected is the logistic Elo model: our expected score at rating elo
// against an opponent rated opp.
func expected(elo, opp float64) float64 { return 1 / (1 + math.Pow(10, (opp-elo)/400)) }

// FitLogistic fits our rating E to the rung results by maximum likelihood
// under the logistic Elo model, treating a draw as half a win:
//
//	L(E) = Σ S_i·ln p_i(E) + (N_i - S_i)·ln(1 - p_i(E)),  p_i = 1/(1+10^((R_i-E)/400))
//
// L is concave, so the root of dL/dE = ln10/400 · Σ (S_i - N_i·p_i) is found
// by bisection. The error is 1.96 standard errors from the Fisher
// information I(E) = (ln10/400)² Σ N_i p_i (1-p_i). When every game was won
// (lost) there is no finite maximum: the estimate is then the top (bottom)
// rung plus (minus) 400 and Bound says so.
func FitLogistic(rungs []Rung) (Fit, error) {
	var n, s float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rungs {
		if r.Games() == 0 {
			continue
		}
		n += float64(r.Games())
		s += float64(r.Wins) + float64(r.Draws)/2
		lo, hi = math.Min(lo, float64(r.Elo)), math.Max(hi, float64(r.Elo))
	}
	if n == 0 {
		return Fit{}, errors.New("match: no games to fit")
	}
	grad := func(e float64) float64 {
		g := 0.0
		for _, r := range rungs {
			if r.Games() == 0 {
				continue
			}
			g += float64(r.Wins) + float64(r.Draws)/2 - float64(r.Games())*expected(e, float64(r.Elo))
		}
		return g
	}
	info := func(e float64) float64 {
		v := 0.0
		for _, r := range rungs {
			p := expected(e, float64(r.Elo))
			v += float64(r.Games()) * p * (1 - p)
		}
		return eloSlope * eloSlope * v
	}
	var f Fit
	switch {
	case s == n:
		f.Elo, f.Bound = hi+400, "above"
	case s == 0:
		f.Elo, f.Bound = lo-400, "below"
	default:
		a, b := lo-2000, hi+2000
		for range 200 {
			m := (a + b) / 2
			if grad(m) > 0 {
				a = m
			} else {
				b = m
			}
		}
		f.Elo = (a + b) / 2
	}
	f.Error = z95 / math.Sqrt(info(f.Elo))
	return f, nil
}
