package daemon

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/lichess"
)

// TestExportedMoves: the export's SAN moves come back as the UCI moves the
// game stream gives (castling as the king's move in standard chess, as the
// king taking its rook in Chess960; promotions with their piece), and an
// unreadable move is an error naming its number and text.
func TestExportedMoves(t *testing.T) {
	const castle = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
	tests := []struct {
		name, variant, fen, moves string
		want                      string
		err                       string
	}{
		{name: "standard", variant: "standard", moves: "e4 e5 Nf3 Nc6 Bb5 a6", want: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"},
		{name: "none", variant: "standard", moves: "", want: ""},
		{name: "castling", variant: "fromPosition", fen: castle, moves: "O-O Kd7", want: "e1g1 e8d7"},
		{name: "chess960 castling", variant: "chess960", fen: castle, moves: "O-O Kd7", want: "e1h1 e8d7"},
		{name: "promotion", variant: "fromPosition", fen: "8/P6k/8/8/8/8/8/K7 w - - 0 1", moves: "a8=Q Kg6", want: "a7a8q h7g6"},
		{name: "illegal", variant: "standard", moves: "e4 e4", err: `exported move 2 "e4"`},
		{name: "long algebraic read too", variant: "standard", moves: "e2e4 Nc6", want: "e2e4 b8c6"},
		{name: "bad fen", variant: "fromPosition", fen: "8/8/8/8/8/8/8/8 w - - 0 1", err: "start position"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &lichess.Game{ID: "abcdefgh", Variant: lichess.Variant{Key: tt.variant}, InitialFEN: tt.fen, Moves: tt.moves}
			got, err := exportedMoves(g)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), "abcdefgh", "the error names the game")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, strings.Join(got, " "))
		})
	}
}

// FuzzExportedMoves: any export text converts without panicking, and moves
// converted replay as UCI to the same SAN.
func FuzzExportedMoves(f *testing.F) {
	f.Add("", "e4 e5 Nf3 Nc6 O-O")
	f.Add("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O Kd7")
	f.Add("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8=Q+ Kg6 Qb7")
	f.Fuzz(func(t *testing.T, fen, moves string) {
		g := &lichess.Game{ID: "fuzz", Variant: lichess.Variant{Key: "fromPosition"}, InitialFEN: fen, Moves: moves}
		ucis, err := exportedMoves(g)
		if err != nil {
			return
		}
		b, err := replay.New(fen)
		require.NoError(t, err)
		sans := strings.Fields(moves)
		require.Len(t, ucis, len(sans))
		back := b.LineSAN(ucis, 0)
		require.Len(t, back, len(ucis), "every converted move replays as UCI")
	})
}
