// Package ewrtest holds fakes of expected winrate's engines for tests: a
// uniform Maia, a Stockfish that finds every position level, and the board
// of a probe request. For tests only.
package ewrtest

import (
	"context"
	"errors"
	"strings"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// Board returns the position a probe request asks about: its start FEN
// (the standard start when empty) with its moves played, on a Chess960
// board when the request is for a Chess960 game.
func Board(r ewr.ProbeRequest) (*board.Board, error) {
	fen := r.StartFEN
	if fen == "" {
		fen = board.StartFEN
	}
	b, err := board.FromFENVariant(fen, r.Chess960)
	if err != nil {
		return nil, err
	}
	for _, m := range r.Moves {
		if err := b.MakeUCI(m); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// UniformProber is a fake Maia: every legal move equally likely.
type UniformProber struct{}

// Probe implements ewr.Prober.
func (UniformProber) Probe(_ context.Context, reqs []ewr.ProbeRequest) ([][]ewr.MoveProb, error) {
	out := make([][]ewr.MoveProb, len(reqs))
	for i, r := range reqs {
		b, err := Board(r)
		if err != nil {
			return nil, err
		}
		legal := b.LegalMoves()
		for _, m := range legal {
			out[i] = append(out[i], ewr.MoveProb{UCI: m.String(), P: 1 / float64(len(legal))})
		}
	}
	return out, nil
}

// LevelEvaluator is a fake Stockfish that scores every position 0.00; a
// request for a position whose FEN starts with FailOn (when not "") makes
// the whole call fail with "engine crashed".
type LevelEvaluator struct {
	FailOn string
}

// Evaluate implements ewr.Evaluator.
func (e LevelEvaluator) Evaluate(_ context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
	for i, r := range reqs {
		if e.FailOn != "" && strings.HasPrefix(r.FEN, e.FailOn) {
			return errors.New("engine crashed")
		}
		onResult(i, score.Score{})
	}
	return nil
}
