package knobs

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/syzygy/syzygytest"
)

// TestSyzygyKnobsSearch: in KNN v KB the king can take the bishop, which
// leaves KNN v K, a dead draw that the knobs' material count scores as two
// knights up. Without tables the knobs engine takes it; probing after the
// capture it sees the draw and keeps the material on the board. A capture into a won KRvK is
// scored as a mate of the losing side and chosen. Closing the engine
// closes its tables.
func TestSyzygyKnobsSearch(t *testing.T) {
	const fen = "8/8/N7/6k1/8/5b2/5KN1/8 w - - 0 1"
	lim := engine.Limits{Depth: 3}
	c := syzygytest.AvoidsDrawingCapture(t, fen, "f2f3", lim, func(tb *syzygytest.Counting) (engine.Engine, error) {
		if tb == nil {
			return New(Defaults())
		}
		return New(Defaults(), WithTablebase(tb, 0))
	})

	// Taking the black rook leaves KRvK, a tablebase win: the line scores
	// as a mate of Black, far above the material count without tables.
	krk := engine.Position{StartFEN: "8/8/8/3k4/8/8/2K5/3r3R w - - 0 1"}
	won, err := c.WithTables.SelectMove(context.Background(), krk, lim)
	require.NoError(t, err)
	assert.Contains(t, []string{"h1d1", "c2d1"}, won.UCI)
	counted, err := c.Plain.SelectMove(context.Background(), krk, lim)
	require.NoError(t, err)
	require.True(t, won.HasScore && counted.HasScore)
	assert.Greater(t, won.Score.CP, counted.Score.CP+500, "a table win counts as a mate, not as a rook")

	c.CloseClosesTables(t, fen)
	require.NoError(t, c.WithTables.Close(), "Close is idempotent")
}
