package sandbox

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// MateSearchProber is an exact TablebaseProber for positions with a short
// forced mate: a full-width search proves a mate for either side within
// MaxPlies plies and gives its exact DTM (the shortest mate for the
// winner, the longest defence for the loser); any other position is
// ErrTablebaseUnknown. It stands in for Syzygy tables in tests and the
// offline demo; it knows nothing of the 50-move rule beyond the position's
// clock (a mate that would come after it is not claimed), and leaves DTZ
// unknown.
type MateSearchProber struct {
	// MaxPlies bounds the search (1–7; 0 means 5: mate in 3).
	MaxPlies int
}

// Probe proves a mate in b within MaxPlies plies, or returns
// ErrTablebaseUnknown.
func (p MateSearchProber) Probe(ctx context.Context, b *board.Board) (TablebaseProbe, error) {
	limit := p.MaxPlies
	if limit == 0 {
		limit = 5
	}
	if limit < 1 || limit > 7 {
		return TablebaseProbe{}, fmt.Errorf("sandbox: mate search: MaxPlies %d: want 1 to 7", limit)
	}
	b = b.Clone()
	for d := 1; d <= limit; d++ {
		if err := ctx.Err(); err != nil {
			return TablebaseProbe{}, fmt.Errorf("sandbox: mate search: %w", err)
		}
		if b.HalfmoveClock()+d > 100 {
			break
		}
		dtm := d
		if d%2 == 1 && mates(b, d) {
			return TablebaseProbe{WDL: 2, DTM: &dtm}, nil
		}
		if d%2 == 0 && mated(b, d) {
			dtm = -d
			return TablebaseProbe{WDL: -2, DTM: &dtm}, nil
		}
	}
	return TablebaseProbe{}, ErrTablebaseUnknown
}

// mates reports whether the side to move mates within d plies.
func mates(b *board.Board, d int) bool {
	if d <= 0 {
		return false
	}
	var ml board.MoveList
	b.GenerateMoves(&ml)
	for _, m := range ml.Slice() {
		b.Make(m)
		ok := mated(b, d-1)
		b.Unmake()
		if ok {
			return true
		}
	}
	return false
}

// mated reports whether the side to move is mated within d plies (now, or
// whatever it plays).
func mated(b *board.Board, d int) bool {
	var ml board.MoveList
	b.GenerateMoves(&ml)
	if ml.N == 0 {
		return b.InCheck()
	}
	if d <= 1 {
		return false
	}
	for _, m := range ml.Slice() {
		b.Make(m)
		ok := mates(b, d-1)
		b.Unmake()
		if !ok {
			return false
		}
	}
	return true
}
