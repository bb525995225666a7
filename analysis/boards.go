package analysis

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis/replay"
)

// Boards returns the position before each ply and the one after the last,
// as the engine analysis replayed them (AnalyseGames) or ReplayBoards did,
// so that a check of the same moves against another analysis (Lichess's
// export, Lichess's cloud) need not replay the game again. It is nil for
// an analysis decoded from JSON or built by Build alone, until
// ReplayBoards.
func (a *Analysis) Boards() []*replay.Board {
	if len(a.boards) != len(a.Plies)+1 {
		return nil
	}
	return a.boards
}

// ReplayBoards returns Boards, replaying the analysis's moves from its FEN
// first (with Chess960's castling when chess960) when it has none under
// those rules, as for an analysis read back from the store; the boards are
// kept for the next call. The replay is counted in ctx (CountReplay).
func (a *Analysis) ReplayBoards(ctx context.Context, chess960 bool) ([]*replay.Board, error) {
	if b := a.Boards(); b != nil && a.boards960 == chess960 {
		return b, nil
	}
	CountReplay(ctx)
	b, err := replay.NewVariant(a.FEN, chess960)
	if err != nil {
		return nil, fmt.Errorf("analysis: game %s: %w", a.ID, err)
	}
	boards := []*replay.Board{b}
	for _, p := range a.Plies {
		m, err := b.ParseUCI(p.UCI)
		if err != nil {
			return nil, fmt.Errorf("analysis: game %s: ply %d %s: %w", a.ID, p.Ply, p.UCI, err)
		}
		b = b.Play(m)
		boards = append(boards, b)
	}
	a.boards, a.boards960 = boards, chess960
	return boards, nil
}
