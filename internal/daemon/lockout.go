package daemon

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// lockoutWriteTimeout bounds the store write of a 429 lockout (it runs in
// the request path of the request that met the 429).
const lockoutWriteTimeout = 5 * time.Second

// PersistLockouts makes the lichess client's 429 lockout and daily
// bot-game cap outlive the process: o.LockedUntil and
// o.BotGamesLimitedUntil are seeded with what st recorded for o.BaseURL
// (so a restarted daemon sends no request inside the lockout, and no
// challenge to a bot inside the cap) and o.OnLockout and o.OnBotGamesLimit
// record each new one, each under its own key. The event stream's recent
// openings are kept the same way (persistEventOpens). Set o.BaseURL first
// (empty: Lichess).
func PersistLockouts(ctx context.Context, st *store.Store, o *lichess.Options, log zerolog.Logger) error {
	server := serverKey(o.BaseURL)
	if err := persistBotGamesLimit(ctx, st, o, server, log); err != nil {
		return err
	}
	if err := persistEventOpens(ctx, st, o, server, log); err != nil {
		return err
	}
	until, err := st.RateLimitedUntil(ctx, server)
	if err != nil {
		return fmt.Errorf("daemon: rate-limit lockout of %s: %w", server, err)
	}
	if time.Now().Before(until) {
		log.Warn().Time("until", until).Str("server", server).
			Msg("a 429 lockout from before the restart is still in force: no request before it ends")
	}
	o.LockedUntil = until // a past end holds nothing
	o.OnLockout = func(until time.Time) {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockoutWriteTimeout)
		defer cancel()
		if err := st.SetRateLimitedUntil(wctx, server, until); err != nil {
			log.Error().Err(err).Msg("persisting the rate-limit lockout")
		}
	}
	return nil
}

// persistBotGamesLimit seeds and records the daily bot-game cap.
func persistBotGamesLimit(ctx context.Context, st *store.Store, o *lichess.Options, server string, log zerolog.Logger) error {
	key := botGamesKey(server)
	until, err := st.RateLimitedUntil(ctx, key)
	if err != nil {
		return fmt.Errorf("daemon: daily bot-game limit of %s: %w", server, err)
	}
	if time.Now().Before(until) {
		log.Info().Time("until", until).Str("server", server).
			Msg("the daily bot-game limit met before the restart is still in force: no challenge to or from bots before it ends")
	}
	o.BotGamesLimitedUntil = until
	o.OnBotGamesLimit = func(until time.Time) {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockoutWriteTimeout)
		defer cancel()
		if err := st.SetRateLimitedUntil(wctx, key, until); err != nil {
			log.Error().Err(err).Msg("persisting the daily bot-game limit")
		}
	}
	return nil
}

// eventOpenKey is the rate_limits key of slot i of the event stream's
// openings: a ring of lichess.EventStreamOpens slots, each holding the
// time of one opening, the oldest overwritten next.
func eventOpenKey(server string, i int) string {
	return fmt.Sprintf("%s event-stream-open %02d", server, i)
}

// persistEventOpens seeds the client's event-stream budget with the
// openings recorded before a restart and records each new one, so that a
// daemon restarted after its stream kept dropping does not reopen it past
// Lichess's limit (lichess.EventStreamOpens) and draw the 429 that would
// lock its resumed games' moves out.
func persistEventOpens(ctx context.Context, st *store.Store, o *lichess.Options, server string, log zerolog.Logger) error {
	n := lichess.EventStreamOpens
	opens := make([]time.Time, n)
	next := 0 // the slot of the oldest (or an empty) opening
	for i := range n {
		at, err := st.RateLimitedUntil(ctx, eventOpenKey(server, i))
		if err != nil {
			return fmt.Errorf("daemon: event stream openings of %s: %w", server, err)
		}
		opens[i] = at
		if at.Before(opens[next]) {
			next = i
		}
	}
	o.EventStreamOpened = opens // zero times fall outside every window
	var mu sync.Mutex
	o.OnEventStreamOpen = func(at time.Time) {
		mu.Lock()
		i := next
		next = (next + 1) % n
		mu.Unlock()
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockoutWriteTimeout)
		defer cancel()
		if err := st.SetRateLimitedUntil(wctx, eventOpenKey(server, i), at); err != nil {
			log.Error().Err(err).Msg("persisting an event stream opening")
		}
	}
	return nil
}
