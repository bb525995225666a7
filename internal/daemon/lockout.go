package daemon

import (
	"context"
	"fmt"
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
// record each new one, each under its own key. Set o.BaseURL first (empty:
// Lichess).
func PersistLockouts(ctx context.Context, st *store.Store, o *lichess.Options, log zerolog.Logger) error {
	server := serverKey(o.BaseURL)
	if err := persistBotGamesLimit(ctx, st, o, server, log); err != nil {
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
