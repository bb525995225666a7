package lichess

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Lichess lets a token open its event stream 30 times in 10 minutes (lila
// modules/web/src/main/Limiters.scala, eventStream; applied in
// controllers/Api.scala, eventStream, whose 429 says "Please don't poll
// this endpoint"). Past that every opening is answered 429 until the
// window clears, and a 429 locks the client out of every request for at
// least a minute (the API's rule, Options.RateLimit): a bot whose network
// keeps dropping the stream would stop moving in its running games. The
// client therefore keeps the budget itself: the 31st opening within 10
// minutes waits until the oldest of the 30 leaves the window, and no 429
// comes. The window slides, which never allows more than lila's fixed
// window does. A restarted process carries the budget on through
// Options.EventStreamOpened and OnEventStreamOpen (the daemon keeps them in
// its store); without them it starts with a full one, and lila may then
// still answer a 429, handled as any other.
const (
	EventStreamOpens  = 30
	EventStreamWindow = 10 * time.Minute
)

// openBudget is a sliding-window budget of stream openings. Safe for
// concurrent use.
type openBudget struct {
	limit  int
	window time.Duration
	spent  func(at time.Time) // called after each opening allowed; may be nil

	mu    sync.Mutex
	opens []time.Time // the openings in the window, oldest first
}

// newOpenBudget returns a budget of limit openings in window, already
// holding the openings seed (in any order; only the latest limit count).
func newOpenBudget(limit int, window time.Duration, seed []time.Time, spent func(time.Time)) *openBudget {
	opens := slices.Clone(seed)
	slices.SortFunc(opens, time.Time.Compare)
	if len(opens) > limit {
		opens = opens[len(opens)-limit:]
	}
	return &openBudget{limit: limit, window: window, spent: spent, opens: opens}
}

// take spends one opening at now and returns 0, or, when the window holds
// limit openings already, spends nothing and returns how long until the
// oldest leaves it.
func (b *openBudget) take(now time.Time) time.Duration {
	d := b.reserve(now)
	if d == 0 && b.spent != nil {
		b.spent(now)
	}
	return d
}

// reserve is take without the report to spent.
func (b *openBudget) reserve(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	keep := 0
	for keep < len(b.opens) && !now.Before(b.opens[keep].Add(b.window)) {
		keep++
	}
	b.opens = b.opens[keep:]
	if len(b.opens) >= b.limit {
		return b.opens[0].Add(b.window).Sub(now)
	}
	b.opens = append(b.opens, now)
	return 0
}

// awaitBudget returns once b allows one more opening of the stream named
// name (and spends it), waiting on the client's clock, or with ctx's error.
func (c *Client) awaitBudget(ctx context.Context, b *openBudget, name, op string) error {
	for {
		d := b.take(c.clock.Now())
		if d <= 0 {
			return nil
		}
		c.log.Warn().Str("stream", name).Dur("wait", d).
			Msgf("opened %d times in %s, Lichess's limit: waiting for the window to reopen it (a 429 would stop every request, moves too)", b.limit, b.window)
		select {
		case <-c.clock.After(d):
		case <-ctx.Done():
			return fmt.Errorf("lichess: %s: %w", op, ctx.Err())
		}
	}
}
