package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunByIDAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	id, err := s.StartRun(ctx, "Alice", `{"max":5}`)
	require.NoError(t, err)
	require.NoError(t, s.SaveRunGame(ctx, id, "g1", `{"id":"g1"}`))
	r, err := s.Run(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "Alice", r.User)
	assert.Equal(t, RunRunning, r.State)
	assert.False(t, r.StartedAt.IsZero())
	assert.True(t, r.FinishedAt.IsZero())

	require.NoError(t, s.FinishRun(ctx, id, RunFailed, `{"error":"x"}`))
	r, err = s.Run(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, RunFailed, r.State)
	assert.False(t, r.FinishedAt.IsZero())
	started := r.StartedAt

	require.NoError(t, s.ReopenRun(ctx, id))
	// survives a reopen of the database file
	s2 := reopen(t, s, path)
	r, err = s2.Run(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, RunRunning, r.State)
	assert.Equal(t, "", r.Report)
	assert.True(t, r.FinishedAt.IsZero())
	assert.Equal(t, started, r.StartedAt)
	games, err := s2.RunGames(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"g1": `{"id":"g1"}`}, games)

	_, err = s2.Run(ctx, id+100)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, s2.ReopenRun(ctx, id+100), ErrNotFound)
}
