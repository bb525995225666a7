package demo

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGateHoldsChallengesUntilSummaries: once the run's games are started
// the sparring partners wait for their summaries instead of starting more
// games (an extra game could end first and take a place); a game that ends
// without a summary to come frees its place.
func TestGateHoldsChallengesUntilSummaries(t *testing.T) {
	g := newGate(2)
	require.True(t, g.open(), "nothing started yet")
	g.gameStarted("a")
	g.gameStarted("a") // counted once
	require.True(t, g.open(), "one of two games started")
	g.gameStarted("b")
	require.False(t, g.open(), "both games started, none summarised")
	g.gameVoided("b")
	require.True(t, g.open(), "b was aborted: its place is free")
	g.gameStarted("c")
	require.False(t, g.open())

	released := make(chan struct{})
	go func() { g.wait(context.Background()); close(released) }()
	g.gameReported()
	require.False(t, g.open(), "one summary of two")
	g.gameReported()
	require.True(t, g.open(), "both summarised: the run is ending")
	<-released

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g2 := newGate(1)
	g2.gameStarted("x")
	require.False(t, g2.open())
	g2.wait(ctx) // a cancelled run never waits

	var none *gate
	none.wait(context.Background())
	none.gameStarted("y") // a sparring partner without a gate
	newGate(0).wait(context.Background())
}
