package demo

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
)

// requestTaker is a summariser that keeps the request it was given.
type requestTaker struct {
	countingSummariser
	req postgame.Request
}

func (r *requestTaker) Summarise(ctx context.Context, req postgame.Request) (postgame.Summary, error) {
	r.req = req
	return r.countingSummariser.Summarise(ctx, req)
}

// onClock is a postgame.Phases with a game on the clock.
type onClock struct{}

func (onClock) Allowed() (int, <-chan struct{})  { return 0, nil }
func (onClock) OnClock() (bool, <-chan struct{}) { return true, nil }

// TestWrappedSummariserGetsGateAndName: the sandbox's verification flow
// (afterAnalysis) passes the daemon's request on whole — the gate of its
// games and our account name. When the gate and the name were optional
// setters the wrappers dropped both (`run --sandbox` ran its summaries
// unheld beside games, a live daemon with chat_line named our side "");
// now they travel with each request and [verify] chat_line is a summary
// line, not a wrapper.
func TestWrappedSummariserGetsGateAndName(t *testing.T) {
	inner := &requestTaker{}
	req := postgame.Request{Game: store.Game{ID: "wrap0001", Status: "aborted"}, Me: BotName, Phases: onClock{}}
	_, err := afterAnalysis{inner: inner}.Summarise(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, BotName, inner.req.Me)
	require.NotNil(t, inner.req.Phases, "the gate reached the wrapped summariser")
	on, _ := inner.req.Phases.OnClock()
	assert.True(t, on, "the gate says whether a game is on the clock")
}
