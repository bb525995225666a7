package demo

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGateHoldsChallengesUntilSummaries: once the run's games are over the
// sparring partners wait for the summaries instead of starting more games.
func TestGateHoldsChallengesUntilSummaries(t *testing.T) {
	g := newGate(2)
	require.True(t, g.open(), "nothing over yet")
	g.gameEnded("a")
	g.gameEnded("a") // a restarted daemon finishing it again counts once
	require.True(t, g.open(), "one of two games over")
	g.gameEnded("b")
	require.False(t, g.open(), "both games over, none summarised")

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
	g2.gameEnded("x")
	require.False(t, g2.open())
	g2.wait(ctx) // a cancelled run never waits

	var none *gate
	none.wait(context.Background())
	newGate(0).wait(context.Background())
}
