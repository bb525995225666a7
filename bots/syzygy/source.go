package syzygy

import (
	"context"
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/score"
)

// SourceName is the name the Syzygy move source reports (engine.Move.Source).
const SourceName = "syzygy"

// tbWinCP is the centipawn score given to a tablebase win (minus its DTZ),
// below any mate score and above any evaluation of a normal position.
const tbWinCP = 20000

// Source is a movesource.Source answering from local Syzygy tables: in a
// position they cover (few enough pieces, no castling rights) it plays the
// move Root.Best chooses. Closing the source closes its tables when it
// owns them (NewSource).
type Source struct {
	t    *Tables
	owns bool
}

var _ movesource.Source = (*Source)(nil)

// NewSource returns a source over t; t stays open when the source is
// closed (the caller owns it).
func NewSource(t *Tables) *Source { return &Source{t: t} }

// OwnedSource returns a source that closes t when it is closed.
func OwnedSource(t *Tables) *Source { return &Source{t: t, owns: true} }

// Name returns SourceName.
func (s *Source) Name() string { return SourceName }

// Tables returns the tables the source probes.
func (s *Source) Tables() *Tables { return s.t }

// Close closes the tables when the source owns them.
func (s *Source) Close() error {
	if s.owns {
		return s.t.Close()
	}
	return nil
}

// Move returns the tablebase's best move for pos, or movesource.ErrNoMove
// when the tables do not cover it (too many pieces, castling rights,
// no table for its material) or the game is over.
func (s *Source) Move(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	if err := ctx.Err(); err != nil {
		return engine.Move{}, fmt.Errorf("syzygy: %w", err)
	}
	b, err := pos.Board()
	if err != nil {
		return engine.Move{}, fmt.Errorf("syzygy: %w", err)
	}
	if !s.t.Covers(b) {
		return engine.Move{}, movesource.ErrNoMove
	}
	root, err := s.t.ProbeRoot(b)
	if errors.Is(err, ErrNotCovered) || errors.Is(err, ErrGameOver) {
		return engine.Move{}, movesource.ErrNoMove
	}
	if err != nil {
		return engine.Move{}, err
	}
	best, ok := root.Best()
	if !ok {
		return engine.Move{}, movesource.ErrNoMove
	}
	return engine.Move{
		UCI:      best.UCI,
		Score:    Score(best.WDL, best.DTZ),
		HasScore: true,
		PV:       []string{best.UCI},
		Source:   SourceName,
	}, nil
}

// Score turns a tablebase result into an engine score for the side to
// move: ±(tbWinCP − |DTZ|) for a win or a loss the 50-move rule does not
// save, 0 otherwise (draws, cursed wins and blessed losses are draws
// under the rule).
func Score(w WDL, dtz int) score.Score {
	switch w {
	case Win:
		return score.CP(tbWinCP - abs(dtz))
	case Loss:
		return score.CP(-tbWinCP + abs(dtz))
	}
	return score.CP(0)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
