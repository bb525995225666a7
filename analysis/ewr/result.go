package ewr

import (
	"sort"

	"github.com/outpostchess/outpost/bots/board"
)

// Pruning reasons: why a path ended before its probability fell below the
// threshold.
const (
	ReasonBlunder      = "analyzing_player_blunder"
	ReasonCheckmate    = "checkmate"
	ReasonStalemate    = "stalemate"
	ReasonInsufficient = "insufficient_material"
	ReasonRepetition   = "repetition"
	ReasonFiftyMoves   = "fifty_move_rule"
	ReasonNodeLimit    = "node_limit"
	ReasonMaxPlies     = "max_plies"
)

// Node is one move of a probability tree and the position after it.
type Node struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	// FEN is the position after the move.
	FEN string `json:"fen"`
	// Probability is Maia's probability of the move (1 for the candidate).
	Probability float64 `json:"probability"`
	// CumulativeProbability is the product of the probabilities from the
	// candidate to this move.
	CumulativeProbability float64 `json:"cumulative_probability"`
	// Winrate is the analysing player's winrate in the position (Stockfish,
	// or the game's result when it ended); null when not evaluated.
	Winrate *float64 `json:"winrate"`
	// Pruned marks a path ended for a reason other than the probability
	// threshold; PruningReason names it.
	Pruned        bool    `json:"pruned"`
	PruningReason string  `json:"pruning_reason"`
	Children      []*Node `json:"children"`

	depth int          // plies from the analysed position; the candidate is 1
	ours  bool         // the analysing player made this move
	path  []string     // UCI moves from the analysed position through this one
	key   string       // evaluation key: FEN without move counters
	b     *board.Board // the position, kept only while the node awaits expansion
	seq   int          // depth-first order over all trees, for phase B's scheduling
	// full is set when the node's position is searched again at Params.Depth
	// (a fast mode's decision too close to call at the trees' depth).
	full bool
	// scoreDepth is the Stockfish depth of the node's winrate (0: none
	// yet or a game's end).
	scoreDepth int
}

// MoveResult is the outcome for one candidate move.
type MoveResult struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	// ExpectedWinrate is Σ p·wr + (1 − Σ p)·base winrate, in [0, 1].
	ExpectedWinrate float64 `json:"expected_winrate"`
	// Confidence is the coverage on which ConfidenceLabel is based.
	Confidence      float64 `json:"confidence"`
	ConfidenceLabel string  `json:"confidence_label"`
	// TreeDepth is the mean length of the evaluated paths in plies.
	TreeDepth float64 `json:"tree_depth"`
	// Coverage is Σ p over the evaluated paths.
	Coverage float64 `json:"coverage"`
	// Branches is the number of evaluated paths.
	Branches int `json:"branches"`
	// StockfishWinrate is Stockfish's winrate after the move.
	StockfishWinrate float64 `json:"stockfish_winrate"`
	// Filtered is set for a move analysed on request (Options.Include)
	// although it failed the winrate loss filter.
	Filtered bool `json:"filtered,omitempty"`
	// Partial is set when the time limit left paths of the move's tree
	// unevaluated (they count at the base winrate; with none evaluated the
	// confidence is 0). Only a partial Result has such moves.
	Partial bool `json:"partial,omitempty"`
}

// Result is a whole calculation. Its JSON form is the `outpost ewr --json`
// schema.
type Result struct {
	// BaseWinrate is the analysing player's winrate in the position.
	BaseWinrate float64 `json:"base_winrate"`
	Params      Params  `json:"params"`
	// Moves are the candidates, best expected winrate first.
	Moves []MoveResult `json:"moves"`
	// CalcMS is the calculation's wall time in milliseconds.
	CalcMS int64 `json:"calc_ms"`
	// Cached is true when the result came from the result cache.
	Cached bool `json:"cached"`
	// Trees maps each candidate's SAN to its tree.
	Trees map[string]*Node `json:"trees"`
	// Partial is true when the time limit cut the calculation short;
	// Warnings explain it and any node limit reached.
	Partial  bool     `json:"partial,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// FEN is the analysed position; Stats the work done (not in the JSON
	// output).
	FEN   string `json:"-"`
	Stats Stats  `json:"-"`
}

// Stats counts the work of one calculation.
type Stats struct {
	LegalMoves int
	Candidates int
	// Nodes is the number of tree nodes built.
	Nodes int
	// MaiaPositions and MaiaCalls count positions sent to the prober and
	// its calls (each call is batched).
	MaiaPositions, MaiaCalls int
	// EngineEvals counts evaluations run by the engine; EvalCacheHits
	// those found in the persistent cache; EvalReuse the evaluations
	// shared within the run (transpositions, repeated requests).
	EngineEvals, EvalCacheHits, EvalReuse int
	// EngineCalls counts calls to the evaluator.
	EngineCalls int
	// Rechecks counts the analysing player's moves searched again at the
	// full depth because their tree-depth winrate was within
	// Params.DecisionMargin of the threshold.
	Rechecks int
	// Settled counts the positions whose search ended at the trees'
	// depth under the settle rule (Params.Volatility).
	Settled int `json:",omitempty"`
	// ResultCacheHit is true when the whole result came from the cache.
	ResultCacheHit bool
}

// CacheHitRate is the share of evaluations served from the cache (the whole
// result counts as one hit).
func (s Stats) CacheHitRate() float64 {
	if s.ResultCacheHit {
		return 1
	}
	n := s.EngineEvals + s.EvalCacheHits
	if n == 0 {
		return 0
	}
	return float64(s.EvalCacheHits) / float64(n)
}

// Move returns the result of the move with this SAN or UCI.
func (r *Result) Move(m string) (MoveResult, bool) {
	for _, x := range r.Moves {
		if x.SAN == m || x.UCI == m {
			return x, true
		}
	}
	return MoveResult{}, false
}

// Best returns the best move by expected winrate, if any.
func (r *Result) Best() (MoveResult, bool) {
	if len(r.Moves) == 0 {
		return MoveResult{}, false
	}
	return r.Moves[0], true
}

// ConfidenceLabel names the confidence band of a coverage: High above
// 0.8, Medium from 0.6 to 0.8, Low below 0.6.
func ConfidenceLabel(coverage float64) string {
	switch {
	case coverage > 0.8:
		return "High"
	case coverage >= 0.6:
		return "Medium"
	}
	return "Low"
}

// sortMoves orders moves best first: expected winrate, then Stockfish's
// winrate, then UCI.
func sortMoves(ms []MoveResult) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if (a.Branches == 0) != (b.Branches == 0) { // unevaluated (partial) last
			return b.Branches == 0
		}
		if a.ExpectedWinrate != b.ExpectedWinrate {
			return a.ExpectedWinrate > b.ExpectedWinrate
		}
		if a.StockfishWinrate != b.StockfishWinrate {
			return a.StockfishWinrate > b.StockfishWinrate
		}
		return a.UCI < b.UCI
	})
}
