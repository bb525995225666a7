package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test on game pairs (the
// pentanomial model): H0 "A is Elo0 stronger than B" against H1 "A is Elo1
// stronger", both in logistic Elo, with false-positive rate Alpha (accepting
// H1 when H0 holds) and false-negative rate Beta.
//
// A pair is the two games of one opening with colours swapped; its outcome
// is A's points in it (0, ½, 1, 1½ or 2), so the statistic is the pair
// score x = points/2. Pairs cancel most of the opening's bias, which makes
// the pentanomial variance smaller than the per-game (trinomial) one and the
// test shorter.
//
// The log-likelihood ratio is the generalised SPRT's normal approximation:
// with N pairs, mean pair score μ and per-pair variance σ² (both from the
// sample), and the expected scores s0 = L(Elo0), s1 = L(Elo1) of the
// logistic L(e) = 1/(1+10^(−e/400)),
//
//	LLR = N·(s1 − s0)·(2μ − s0 − s1) / (2σ²)
//
// which is the log ratio of two normal likelihoods of the sample mean,
// N/(2σ²)·((μ−s0)² − (μ−s1)²). The test accepts H1 when LLR ≥ ln((1−β)/α)
// and H0 when LLR ≤ ln(β/(1−α)) (Wald's bounds, ±2.944 at α = β = 0.05).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// DefaultSPRTRisk is α and β of ParseSPRT.
const DefaultSPRTRisk = 0.05

// priorPairs is a prior added to every pentanomial bin in the mean and the
// variance (not in the pair count N): half a pair each, 2.5 pairs of mean ½
// and variance ⅛, which is what two equal engines that rarely draw would
// give. Without it the sample variance is zero after one pair, or after any
// number of pairs when every pair has the same outcome (two identical
// deterministic engines score exactly one point in every pair), and the
// LLR is infinite; with it early decisions are conservative (the mean is
// pulled to ½, the variance up) and after a few hundred pairs its effect
// is a few percent of the LLR (3% at 200 pairs of a typical match).
const priorPairs = 0.5

// ParseSPRT reads "elo0,elo1" (elo0 < elo1) with α = β = DefaultSPRTRisk.
func ParseSPRT(s string) (SPRT, error) {
	f := strings.Split(s, ",")
	if len(f) != 2 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1 (e.g. 0,10)", s)
	}
	var v [2]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > 1000 {
			return SPRT{}, fmt.Errorf("sprt %q: %q is not an Elo between -1000 and 1000", s, x)
		}
		v[i] = n
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: DefaultSPRTRisk, Beta: DefaultSPRTRisk}
	return t, t.check()
}

func (t SPRT) check() error {
	if !(t.Elo0 < t.Elo1) {
		return fmt.Errorf("sprt: elo0 %g must be below elo1 %g", t.Elo0, t.Elo1)
	}
	if !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5) {
		return fmt.Errorf("sprt: α %g and β %g must lie strictly between 0 and 0.5", t.Alpha, t.Beta)
	}
	return nil
}

// Bounds returns Wald's LLR bounds: accept H0 at or below lower, H1 at or
// above upper.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Pentanomial counts game pairs by A's points in the pair: index k holds
// the pairs where A scored k/2 points (0, ½, 1, 1½, 2).
type Pentanomial [5]int

// Pairs returns the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// add counts a pair in which A scored points (0 to 2 in half points).
func (p *Pentanomial) add(points float64) { p[int(math.Round(points*2))]++ }

// moments returns the mean and variance of the pair score x = k/4 over the
// pairs and the prior (priorPairs).
func (p Pentanomial) moments() (mean, variance float64) {
	var n, sx float64
	var c [5]float64
	for k, v := range p {
		c[k] = float64(v) + priorPairs
		n += c[k]
		sx += c[k] * float64(k) / 4
	}
	mean = sx / n
	for k := range c {
		d := float64(k)/4 - mean
		variance += c[k] * d * d
	}
	return mean, variance / n
}

// logistic is the expected score of a player elo points stronger.
func logistic(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// eloOf is the inverse of logistic.
func eloOf(score float64) float64 { return -400 * math.Log10(1/score-1) }

// LLR returns the log-likelihood ratio of H1 against H0 after the pairs of
// p (0 without a pair).
func (t SPRT) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	mean, variance := p.moments()
	s0, s1 := logistic(t.Elo0), logistic(t.Elo1)
	return float64(p.Pairs()) * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// SPRTResult is the state of an SPRT after some pairs.
type SPRTResult struct {
	Test         SPRT
	Pentanomial  Pentanomial
	LLR          float64
	Lower, Upper float64 // the bounds
	// Decision is "H1" (A is at least Elo1 stronger: accept the change),
	// "H0" (at most Elo0: reject it) or "" while the test goes on.
	Decision string
	// Elo is the pentanomial estimate of A's advantage, Error the
	// half-width of its 95% confidence interval.
	Elo, Error float64
}

// Check evaluates the test after the pairs of p.
func (t SPRT) Check(p Pentanomial) SPRTResult {
	r := SPRTResult{Test: t, Pentanomial: p, LLR: t.LLR(p)}
	r.Lower, r.Upper = t.Bounds()
	switch {
	case p.Pairs() == 0:
	case r.LLR >= r.Upper:
		r.Decision = "H1"
	case r.LLR <= r.Lower:
		r.Decision = "H0"
	}
	if n := p.Pairs(); n > 0 {
		mean, variance := p.moments()
		eps := 0.25 / float64(n) // a quarter of a pair's score: finite Elo for a sweep
		clamp := func(x float64) float64 { return math.Min(math.Max(x, eps), 1-eps) }
		se := math.Sqrt(variance / float64(n))
		r.Elo = eloOf(clamp(mean))
		r.Error = (eloOf(clamp(mean+z95*se)) - eloOf(clamp(mean-z95*se))) / 2
	}
	return r
}

// String describes the result on one line: games, the pentanomial, Elo ±
// error, LLR with its bounds and the decision.
func (r SPRTResult) String() string {
	verdict := "continue"
	switch r.Decision {
	case "H1":
		verdict = fmt.Sprintf("H1 accepted (A ≥ %+g Elo)", r.Test.Elo1)
	case "H0":
		verdict = fmt.Sprintf("H0 accepted (A ≤ %+g Elo)", r.Test.Elo0)
	}
	p, elo := r.Pentanomial, r.Elo
	if elo == 0 {
		elo = 0 // not -0
	}
	return fmt.Sprintf("SPRT [%g, %g] α=%g β=%g: %d pairs (%d games), pentanomial %v, Elo %+.1f ± %.1f, LLR %.2f (%.2f, %.2f): %s",
		r.Test.Elo0, r.Test.Elo1, r.Test.Alpha, r.Test.Beta, p.Pairs(), 2*p.Pairs(), [5]int(p), elo, r.Error,
		r.LLR, r.Lower, r.Upper, verdict)
}
