package daemon

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// lockoutWriteTimeout bounds the store write of a 429 lockout (it runs in
// the request path of the request that met the 429).
const lockoutWriteTimeout = 5 * time.Second

// PersistLockouts makes the lichess client's 429 lockout outlive the
// process: o.LockedUntil is seeded with the lockout st recorded for
// o.BaseURL (so a restarted daemon sends no request inside it) and
// o.OnLockout records each new one. Set o.BaseURL first (empty: Lichess).
func PersistLockouts(ctx context.Context, st *store.Store, o *lichess.Options, log zerolog.Logger) error {
	server := strings.TrimRight(o.BaseURL, "/")
	if server == "" {
		server = lichess.DefaultBaseURL
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
