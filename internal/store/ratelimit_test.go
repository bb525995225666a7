package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRateLimitSurvivesReopen: a lockout is kept per server across a
// reopen, and a shorter one recorded later does not shorten it.
func TestRateLimitSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	const lichess, sandbox = "https://lichess.org", "http://127.0.0.1:9999"
	got, err := s.RateLimitedUntil(ctx, lichess)
	require.NoError(t, err)
	assert.True(t, got.IsZero(), "nothing recorded yet")

	until := time.UnixMilli(time.Now().Add(time.Minute).UnixMilli())
	require.NoError(t, s.SetRateLimitedUntil(ctx, lichess, until))
	require.NoError(t, s.SetRateLimitedUntil(ctx, lichess, until.Add(-30*time.Second)))
	require.NoError(t, s.SetRateLimitedUntil(ctx, sandbox, until.Add(time.Hour)))

	s2 := reopen(t, s, path)
	got, err = s2.RateLimitedUntil(ctx, lichess)
	require.NoError(t, err)
	assert.True(t, got.Equal(until), "got %v want %v", got, until)
	got, err = s2.RateLimitedUntil(ctx, sandbox)
	require.NoError(t, err)
	assert.True(t, got.Equal(until.Add(time.Hour)), "per server: got %v", got)
	require.NoError(t, s2.SetRateLimitedUntil(ctx, lichess, until.Add(time.Second)))
	got, err = s2.RateLimitedUntil(ctx, lichess)
	require.NoError(t, err)
	assert.True(t, got.Equal(until.Add(time.Second)), "a later end extends: got %v", got)
}
