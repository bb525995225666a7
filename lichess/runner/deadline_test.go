package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// stalled is an engine that never answers before its context ends.
type stalled struct{}

func (stalled) SelectMove(ctx context.Context, _ engine.Position, _ engine.Limits) (engine.Move, error) {
	<-ctx.Done()
	return engine.Move{}, ctx.Err()
}
func (stalled) Name() string { return "stalled" }
func (stalled) Close() error { return nil }

// steppingClock advances by step at every reading: the runner reads it
// when a state arrives and again when it plans the move, so the move is
// planned one step after its state arrived, on any machine.
type steppingClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *steppingClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// Issue 39: correspondence moves overran their deadline (move time less
// move overhead), where real-time moves did not: the fixed move time was
// counted from the engine's start, not from the state's arrival, and the
// Fallback's grace (up to twice a fifth of the budget) came on top of it.
// A stalled engine behind a Fallback, whose alarm records when it would
// give up, planned 300 ms (on the injected clock) after its state arrived:
// the Fallback's worst case plus that delay must end within the move time
// less the move overhead. Without the fix it ended at 1.12 s for 800 ms.
func TestRunnerHoldsCorrespondenceDeadline(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	g := gameCfg()
	g.CorrespondenceMoveTime, g.MoveOverhead = time.Second, 200*time.Millisecond
	const lag = 300 * time.Millisecond
	clock := &steppingClock{t: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), step: lag}
	giveUp := make(chan time.Duration, 4)
	eng := bots.NewFallback(stalled{}, nil, bots.WithFallbackAlarm(func(d time.Duration) (<-chan time.Time, func()) {
		giveUp <- d
		fired := make(chan time.Time, 1)
		fired <- time.Time{} // give up at once: the move is the fallback's
		return fired, func() {}
	}))
	id := w.challenge(t, lichess.ChallengeParams{Days: 1, Color: lichess.Black}) // the bot is white
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: g, Logger: zerolog.Nop(),
		UnknownOutcomeRetry: 200 * time.Millisecond, Now: clock.now}, w.bot.Bot(), eng, w.store)
	done := runAsync(ctx, r)

	d := <-giveUp
	assert.LessOrEqual(t, d+lag, g.CorrespondenceMoveTime-g.MoveOverhead,
		"the Fallback gives up %v after a start %v late: past the move time less the overhead", d, lag)
	assert.Greater(t, d, (g.CorrespondenceMoveTime-g.MoveOverhead-lag)/2, "the engine keeps most of the move time")
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	res := w.aliceResigns(t, ctx, id, done) // after one move: the game is aborted
	assert.Len(t, res.Notes, 1, "one move played")
}
