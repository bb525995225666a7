package book

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// The test keys published with the Polyglot book format.
var polyglotVectors = []struct {
	moves []string
	fen   string
	key   uint64
}{
	{nil, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
	{[]string{"e2e4"}, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
	{[]string{"e2e4", "d7d5"}, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
	{[]string{"e2e4", "d7d5", "e4e5"}, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
	{[]string{"e2e4", "d7d5", "e4e5", "f7f5"}, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
	{[]string{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"}, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1},
	{[]string{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"}, "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9},
	{[]string{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"}, "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
	{[]string{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"}, "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560},
}

func TestPolyglotKeyVectors(t *testing.T) {
	for _, v := range polyglotVectors {
		t.Run(v.fen, func(t *testing.T) {
			fromFEN, err := board.FromFEN(v.fen)
			require.NoError(t, err)
			k, err := Key(fromFEN)
			require.NoError(t, err)
			require.Equalf(t, v.key, k, "from FEN: got %016x", k)

			played, err := engine.Position{Moves: v.moves}.Board()
			require.NoError(t, err)
			k, err = Key(played)
			require.NoError(t, err)
			require.Equalf(t, v.key, k, "from the moves: got %016x", k)
		})
	}
}

// fenKey is the Polyglot key of the standard position fen.
func fenKey(t *testing.T, fen string) uint64 {
	t.Helper()
	b, err := board.FromFEN(fen)
	require.NoError(t, err)
	k, err := Key(b)
	require.NoError(t, err)
	return k
}

func TestPolyglotKeyEnPassantOnlyWhenCapturable(t *testing.T) {
	// After 1.e4 no black pawn stands beside e4: the FEN's e3 does not count.
	require.Equal(t, fenKey(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
		fenKey(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"))
	// A pinned capturer still counts (Polyglot ignores legality): black
	// king a4, black pawn b4 pinned by the rook h4... after c2c4 the pawn
	// on b4 may not take, yet the key includes the c-file.
	require.Equal(t, fenKey(t, "8/8/8/8/kpP4R/8/8/4K3 b - - 0 1")^random64[enPassantOffset+2],
		fenKey(t, "8/8/8/8/kpP4R/8/8/4K3 b - c3 0 1"))
}

func TestPolyglotKeyChess960(t *testing.T) {
	// Chess960 position 518 is the standard setup: same key as chess.
	b, err := board.FromFEN960(engine.StartFEN)
	require.NoError(t, err)
	k, err := Key(b)
	require.NoError(t, err)
	require.Equal(t, uint64(0x463b96181691fc9c), k)

	// A right held by an inner rook (g1, with another rook on h1) has no
	// key in the format.
	inner, err := board.FromFEN960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK1RR w Gkq - 0 1")
	require.NoError(t, err)
	_, err = Key(inner)
	require.ErrorIs(t, err, ErrUnhashable)
}
