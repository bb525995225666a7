package bots

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestSyzygyOption: medium built with WithSyzygy probes the tables in its
// search (it no longer takes the pawn into a drawn KNN v K, see
// bots/search); a directory without tables fails New, naming it.
func TestSyzygyOption(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "tablebases", "syzygy")
	ctx := context.Background()
	e, err := New(ctx, "medium", WithSyzygy([]string{dir}, 0, 0))
	require.NoError(t, err)
	mv, err := e.SelectMove(ctx, engine.Position{StartFEN: "1N6/8/p7/8/8/8/2k1N3/K7 w - - 0 1"}, engine.Limits{Depth: 5})
	require.NoError(t, err)
	assert.NotEqual(t, "b8a6", mv.UCI, "the search probes the tables")
	require.NoError(t, e.Close())

	empty := t.TempDir()
	_, err = New(ctx, "hard", WithSyzygy([]string{empty}, 0, 0))
	require.Error(t, err)
	assert.Contains(t, err.Error(), empty)
	_, err = New(ctx, "medium", WithSyzygy(nil, 0, 0))
	assert.Error(t, err)
}
