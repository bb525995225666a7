package syzygy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/bots/board"
)

// fivePieces is a Prober of 5-piece tables that probes nothing.
type fivePieces struct{}

func (fivePieces) MaxPieces() int                     { return 5 }
func (fivePieces) ProbeWDL(*board.Board) (WDL, error) { return 0, ErrNotCovered }
func (fivePieces) Close() error                       { return nil }

func TestInSearch(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      bool
	}{
		{"after a capture", "8/8/8/3k4/8/8/2K5/3R4 b - - 0 1", true},
		{"halfmove clock 3", "8/8/8/3k4/8/8/2K5/3R4 b - - 3 9", false},
		{"castling right", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false},
		{"five pieces", "4k3/8/8/8/8/8/1P6/RN2K3 w - - 0 1", true},
		{"six pieces", "4k3/8/8/8/8/8/1PP5/RN2K3 w - - 0 1", false},
	} {
		assert.Equal(t, tc.want, InSearch(fivePieces{}, mustBoard(t, tc.fen)), tc.name)
	}
}
