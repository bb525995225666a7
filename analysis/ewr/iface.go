package ewr

import (
	"context"

	"github.com/outpostchess/outpost/bots/score"
)

// ProbeRequest asks for the human move distribution of the position reached
// by Moves from StartFEN.
type ProbeRequest struct {
	// StartFEN is the game's initial position ("" for the standard start).
	StartFEN string
	// Moves is the history from StartFEN in UCI; models see it.
	Moves []string
	// Chess960 is set for a Chess960 game.
	Chess960 bool
	// Rating is the Maia rating of the side to move; OppRating the other's.
	Rating, OppRating int
}

// MoveProb is one legal move with its probability.
type MoveProb struct {
	UCI string
	P   float64
}

// MoveProber predicts human moves (Maia). Probe answers every request, in
// order, with the position's legal moves and their probabilities; it should
// batch the requests. An error fails the calculation.
type MoveProber interface {
	Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error)
}

// EvalRequest asks for a fixed-depth evaluation of a position.
type EvalRequest struct {
	FEN   string
	Depth int
	// Chess960 is set for a position of a Chess960 game (the engine gets
	// UCI_Chess960): the calculation knows it from its tree, so no
	// evaluator parses the FEN again to find out.
	Chess960 bool
	// WhiteToMove is the side to move in FEN, from the calculation's tree
	// too: an evaluator that needs it (PoolEvaluator, for the pool's White
	// point of view) takes it here instead of parsing FEN again.
	WhiteToMove bool
	// Shallow, when above 0 and below Depth, lets an evaluator that sees
	// the search's iterations end it early: Settled is asked at each
	// iteration from depth Shallow below Depth, once that iteration's
	// exact score is in (byDepth: the scores of the iterations so far, by
	// depth, those the engine reported as a bound left out), and when it
	// answers true the search stops there and its score is that
	// iteration's (see Params.Volatility). An iteration's score is the
	// score a search to that depth alone would give only when the engine
	// starts from a cleared hash (EngineEvaluator.ClearEach). Evaluators
	// that cannot stop early search to Depth, which is always allowed.
	Shallow int
	Settled func(depth int, byDepth map[int]score.Score) bool
	// Reached is set by a Dispatcher in the request it reports: the depth
	// of the reported score when it is not Depth (0: Depth).
	Reached int

	// key identifies the search among a calculation's (see requestKey).
	key string
}

// depthOfScore is the depth of the score reported for q.
func (q EvalRequest) depthOfScore() int {
	if q.Reached > 0 {
		return q.Reached
	}
	return q.Depth
}

// Evaluator evaluates positions (Stockfish). Evaluate calls onResult once
// per request as its evaluation completes (in any order, from one goroutine
// at a time) and returns nil when all are done. On an error or when ctx ends
// it returns the error; results already reported stand. It never reports a
// made-up score: a position it could not evaluate is an error.
type Evaluator interface {
	Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(i int, s score.Score)) error
}

// Cache is a persistent key/value cache; internal/store's *Store satisfies
// it.
type Cache interface {
	CacheGet(ctx context.Context, kind, key string) (value []byte, ok bool, err error)
	CachePut(ctx context.Context, kind, key string, value []byte) error
}

// Cache kinds.
const (
	KindEval   = "ewr-eval"
	KindResult = "ewr-result"
)
