package ewr

import (
	"fmt"
	"math"
)

// Allowed values and defaults of the parameters (the product document's).
var (
	// Thresholds are the allowed probability thresholds.
	Thresholds = []float64{0.1, 0.01, 0.001}
	// Depths are the allowed Stockfish depths.
	Depths = []int{15, 20, 25}
)

// Defaults and bounds.
const (
	DefaultThreshold     = 0.1
	DefaultDepth         = 15
	DefaultLossThreshold = -0.1
	DefaultRating        = 1500
	MinRating            = 1100
	MaxRating            = 1900
	// DefaultMaxNodes bounds the nodes of all trees of one calculation.
	DefaultMaxNodes = 20000
	// MaxMaxNodes is the largest node limit accepted.
	MaxMaxNodes = 1000000
	// MaxPlies bounds a path's length (a forced line whose probability never
	// drops below the threshold would otherwise grow until the node limit).
	MaxPlies = 60
)

// Params are the user's parameters of one calculation.
type Params struct {
	// Threshold is the probability threshold: a path is followed while its
	// cumulative probability is at least this (0.1, 0.01 or 0.001).
	Threshold float64 `json:"threshold"`
	// Depth is the Stockfish depth of every evaluation (15, 20 or 25).
	Depth int `json:"depth"`
	// LossThreshold is the winrate loss allowed (−1..0): a candidate, and
	// every later move of the analysing player, must keep at least
	// base winrate + LossThreshold.
	LossThreshold float64 `json:"loss_threshold"`
	// Rating is the analysing player's Maia rating (1100..1900).
	Rating int `json:"maia_rating"`
	// OpponentRating is the opponent's Maia rating (1100..1900).
	OpponentRating int `json:"opponent_maia_rating"`
	// MaxNodes bounds the tree nodes of the whole calculation; when reached
	// the remaining positions become leaves and a warning is given.
	MaxNodes int `json:"max_nodes"`
	// TreeDepth, when not 0, is the Stockfish depth of phase B (the
	// trees' positions) instead of Depth; the position and its legal moves
	// are still evaluated at Depth, so the candidates are the same. It is
	// what the fast mode changes (see Fast and FastTreeDepth).
	TreeDepth int `json:"tree_depth,omitempty"`
	// FullDepthMass, when above 0 and TreeDepth is below Depth, keeps the
	// likely part of the trees exact: a tree position whose cumulative
	// probability is at least FullDepthMass is still searched at Depth,
	// only the rarer ones at TreeDepth. A position's error weighs in a
	// move's expected winrate by its probability, so this bounds the
	// error where it counts (0..1; 0: every tree position at TreeDepth).
	FullDepthMass float64 `json:"full_depth_mass,omitempty"`
	// DecisionMargin, when above 0 and TreeDepth is below Depth, keeps the
	// trees' shape exact where it is in doubt: an analysing player's move
	// whose winrate at TreeDepth lies within DecisionMargin of base winrate
	// + LossThreshold (where its path ends or goes on) is searched again at
	// Depth, and that search decides (0..1; 0: no second search). The fast
	// mode leaves it at 0: measured on the ten benchmark positions
	// (docs/expected-winrate.md) a margin of 0.03 cost 10 % more nodes and
	// left as many moves over 1 pp, because a depth-15 score itself moves
	// by a point or two with the engine's hash history, so the exact
	// calculation's own decision near the threshold is not stable either.
	DecisionMargin float64 `json:"decision_margin,omitempty"`
	// Volatility, when above 0 and TreeDepth is below Depth, is the settle
	// rule: every tree position is searched towards Depth, and the search
	// ends at TreeDepth when its score there has settled — its cumulative
	// probability × the largest change of its winrate over the
	// VolatilityLookback iterations before TreeDepth is at most
	// Volatility, and (an analysing player's move) its winrate lies at
	// least DecisionMargin from base winrate + LossThreshold. A position
	// that goes on costs no more than the exact calculation's search of
	// it, and gives the same score when the engines clear their hash
	// before every search; only then is a search ended early reproducible,
	// so the settle rule needs EngineEvaluator.ClearEach (0..1; 0: off).
	// An Evaluator that is not a Dispatcher searches such positions at
	// Depth.
	Volatility float64 `json:"volatility,omitempty"`
}

// FastTreeDepth is the trees' Stockfish depth of the fast mode: about
// half the nodes of the exact calculation. Measured on the ten benchmark
// positions (docs/expected-winrate.md): depths 13 and 14 are no closer to
// the exact figures than 12, and keeping the likely positions at the full
// depth (FullDepthMass) saves little and is no closer either once the
// hash's nudge on the depth-15 scores counts, so the fast mode is depth 12
// for every tree position.
const FastTreeDepth = 12

// Fast returns p in the fast mode: the trees evaluated at FastTreeDepth
// (when that is below p.Depth).
func (p Params) Fast() Params {
	if FastTreeDepth < p.Depth {
		p.TreeDepth = FastTreeDepth
	}
	return p
}

// IsFast reports whether the trees are evaluated below Depth.
func (p Params) IsFast() bool { return p.TreeDepth > 0 && p.TreeDepth < p.Depth }

// treeDepth is the Stockfish depth of phase B.
func (p Params) treeDepth() int {
	if p.TreeDepth > 0 {
		return p.TreeDepth
	}
	return p.Depth
}

// DefaultParams returns the product defaults: threshold 10 %, depth 15,
// loss threshold −0.1, both sides at Maia 1500.
func DefaultParams() Params {
	return Params{
		Threshold:      DefaultThreshold,
		Depth:          DefaultDepth,
		LossThreshold:  DefaultLossThreshold,
		Rating:         DefaultRating,
		OpponentRating: DefaultRating,
		MaxNodes:       DefaultMaxNodes,
	}
}

// Validate reports the first parameter out of its allowed set, naming it.
// A zero MaxNodes is accepted (it means DefaultMaxNodes).
func (p Params) Validate() error {
	if !thresholdAllowed(p.Threshold) {
		return fmt.Errorf("ewr: probability threshold %g not allowed: use 0.1, 0.01 or 0.001 (10%%, 1%%, 0.1%%)", p.Threshold)
	}
	ok := false
	for _, d := range Depths {
		ok = ok || p.Depth == d
	}
	if !ok {
		return fmt.Errorf("ewr: Stockfish depth %d not allowed: use 15, 20 or 25", p.Depth)
	}
	if math.IsNaN(p.LossThreshold) || p.LossThreshold < -1 || p.LossThreshold > 0 {
		return fmt.Errorf("ewr: winrate loss threshold %g out of range: use a value from -1 to 0 (e.g. -0.1)", p.LossThreshold)
	}
	if p.Rating < MinRating || p.Rating > MaxRating {
		return fmt.Errorf("ewr: Maia rating %d out of range %d..%d", p.Rating, MinRating, MaxRating)
	}
	if p.OpponentRating < MinRating || p.OpponentRating > MaxRating {
		return fmt.Errorf("ewr: opponent Maia rating %d out of range %d..%d", p.OpponentRating, MinRating, MaxRating)
	}
	if p.TreeDepth < 0 || p.TreeDepth > p.Depth {
		return fmt.Errorf("ewr: tree depth %d out of range: use 1..%d (the depth), or 0 for the depth itself", p.TreeDepth, p.Depth)
	}
	if math.IsNaN(p.FullDepthMass) || p.FullDepthMass < 0 || p.FullDepthMass > 1 {
		return fmt.Errorf("ewr: full-depth probability mass %g out of range: use a value from 0 to 1 (0: none)", p.FullDepthMass)
	}
	if math.IsNaN(p.DecisionMargin) || p.DecisionMargin < 0 || p.DecisionMargin > 1 {
		return fmt.Errorf("ewr: decision margin %g out of range: use a value from 0 to 1 (0: none)", p.DecisionMargin)
	}
	if math.IsNaN(p.Volatility) || p.Volatility < 0 || p.Volatility > 1 {
		return fmt.Errorf("ewr: volatility %g out of range: use a value from 0 to 1 (0: none)", p.Volatility)
	}
	if p.MaxNodes < 0 || p.MaxNodes > MaxMaxNodes {
		return fmt.Errorf("ewr: node limit %d out of range 1..%d", p.MaxNodes, MaxMaxNodes)
	}
	return nil
}

// normalized returns p with a canonical threshold value and the default
// node limit filled in; p must be valid.
func (p Params) normalized() Params {
	for _, t := range Thresholds {
		if math.Abs(p.Threshold-t) <= t*1e-9 {
			p.Threshold = t
		}
	}
	if p.MaxNodes == 0 {
		p.MaxNodes = DefaultMaxNodes
	}
	if p.TreeDepth == p.Depth {
		p.TreeDepth = 0
	}
	if !p.IsFast() {
		p.FullDepthMass = 0 // every position is at Depth anyway
		p.DecisionMargin = 0
		p.Volatility = 0
	}
	return p
}

func thresholdAllowed(t float64) bool {
	for _, a := range Thresholds {
		if math.Abs(t-a) <= a*1e-9 {
			return true
		}
	}
	return false
}

// NearestMaiaRating maps a player's rating to the nearest Maia level
// (1100..1900 in steps of 100); 0 (unknown) maps to DefaultRating.
func NearestMaiaRating(rating int) int {
	if rating <= 0 {
		return DefaultRating
	}
	r := (rating + 50) / 100 * 100
	return max(MinRating, min(MaxRating, r))
}
