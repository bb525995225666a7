package search

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/syzygy"
	"github.com/outpostchess/outpost/bots/syzygy/syzygytest"
)

// TestSyzygySearchAvoidsDrawingCapture: in KNN v KP (a win for White,
// mate in 115 by endgame-dm-5.epd) taking the pawn leaves KNN v K, a dead
// draw that any evaluation counts as a knight-and-a-half up. Without
// tables medium and hard grab the pawn; probing after the capture they
// see the draw and keep the pawn on the board.
func TestSyzygySearchAvoidsDrawingCapture(t *testing.T) {
	const fen = "1N6/8/p7/8/8/8/2k1N3/K7 w - - 0 1"
	for _, tc := range []struct {
		name string
		new  func(...Option) (*Engine, error)
	}{{"medium", NewMedium}, {"hard", NewHard}} {
		t.Run(tc.name, func(t *testing.T) {
			c := syzygytest.AvoidsDrawingCapture(t, fen, "b8a6", engine.Limits{Depth: 5}, func(tb *syzygytest.Counting) (engine.Engine, error) {
				if tb == nil {
					return tc.new()
				}
				return tc.new(WithTablebase(tb, 0))
			})
			assert.Positive(t, c.Move.Score.CP, "still better for White")
			c.CloseClosesTables(t, fen)
		})
	}
}

// TestSyzygySearchScoresTableWin: a capture into a won 3-piece ending is
// scored as a tablebase win (above any evaluation, below mates) and
// chosen; a non-capturing root (the halfmove clock above 0 everywhere
// below) is never probed.
func TestSyzygySearchScoresTableWin(t *testing.T) {
	tb := syzygytest.Open(t)
	e, err := NewHard(WithTablebase(tb, 0))
	require.NoError(t, err)
	defer e.Close()
	// White's rook takes the black rook: KRvK, a tablebase win.
	mv, err := e.SelectMove(context.Background(), engine.Position{StartFEN: "8/8/8/3k4/8/8/2K5/3r3R w - - 0 1"}, engine.Limits{Depth: 4})
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(mv.UCI, "d1"), "takes the rook: %s", mv.UCI)
	assert.Greater(t, mv.Score.CP, mateBound-2*maxPly, "scored as a table win: %+v", mv.Score)
	assert.Zero(t, mv.Score.Mate)

	before := tb.Probes
	_, err = e.SelectMove(context.Background(), engine.Position{StartFEN: "8/8/8/3k4/8/8/2K5/7R w - - 5 1"}, engine.Limits{Depth: 4})
	require.NoError(t, err)
	assert.Equal(t, before, tb.Probes, "no zeroing move in KRK: no probe")
}

func TestSyzygySearchOptionErrors(t *testing.T) {
	_, err := NewMedium(WithTablebase(nil, 0))
	assert.Error(t, err)
	tb := syzygytest.Open(t)
	defer tb.Close()
	_, err = NewMedium(WithTablebase(tb, -1))
	assert.Error(t, err)
}

// TestSyzygyConvertsWins plays won KQK and KRK positions against the
// tablebase's best defence, once with hard alone (depth 6) and once with
// the syzygy move source, and compares the plies to mate: the tables mate
// every time within the 50-move rule and never later than the search.
func TestSyzygyConvertsWins(t *testing.T) {
	tb := syzygytest.Open(t)
	defer tb.Close()
	src := syzygy.NewSource(tb.Tables)
	fens := []string{
		"8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
		"8/8/8/4k3/8/8/3K4/7Q w - - 0 1",
		"8/8/8/4k3/8/8/8/K6R w - - 0 1",
		"8/8/3k4/8/8/8/8/R3K3 w - - 0 1",
		"8/8/8/8/3k4/8/8/K6R w - - 0 1",
	}
	e, err := NewHard()
	require.NoError(t, err)
	defer e.Close()
	ctx := context.Background()
	// play returns the plies until mate (0 if none before the 50-move rule).
	play := func(fen string, attacker func(engine.Position) string) int {
		pos := engine.Position{StartFEN: fen}
		b, err := board.FromFEN(fen)
		require.NoError(t, err)
		for ply := 0; b.HalfmoveClock() < 100; ply++ {
			if b.IsCheckmate() {
				return ply
			}
			var uci string
			if ply%2 == 0 {
				uci = attacker(pos)
			} else {
				mv, err := src.Move(ctx, pos, engine.Limits{})
				require.NoError(t, err)
				uci = mv.UCI
			}
			require.NoError(t, b.MakeUCI(uci))
			pos.Moves = append(pos.Moves, uci)
		}
		return 0
	}
	for _, fen := range fens {
		search := play(fen, func(pos engine.Position) string {
			mv, err := e.SelectMove(ctx, pos, engine.Limits{Depth: 6})
			require.NoError(t, err)
			return mv.UCI
		})
		require.NoError(t, e.NewGame(ctx))
		tables := play(fen, func(pos engine.Position) string {
			mv, err := src.Move(ctx, pos, engine.Limits{})
			require.NoError(t, err)
			return mv.UCI
		})
		t.Logf("%-32s plies to mate: hard depth 6 %3d, tables %3d (0 = no mate before the 50-move rule)", fen, search, tables)
		require.Positive(t, tables, fen)
		if search > 0 {
			assert.LessOrEqual(t, tables, search, fen)
		}
	}
}
