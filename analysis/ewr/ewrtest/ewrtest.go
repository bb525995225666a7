// Package ewrtest holds fakes of expected winrate's engines for tests: a
// uniform Maia and the board of a probe request. For tests only.
package ewrtest

import (
	"context"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/board"
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
