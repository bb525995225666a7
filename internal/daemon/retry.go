package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// transient reports errors worth retrying: a 429 (the client itself holds
// every request back until its lockout ends), a 5xx left after the client's
// retries, or a network failure.
func transient(err error) bool {
	if err == nil {
		return false
	}
	if _, ok := lichess.BotGamesLimit(err); ok {
		return false // a day-long cap on bot games, not a failure to retry
	}
	if errors.Is(err, lichess.ErrRateLimited) || errors.Is(err, lichess.ErrServer) {
		return true
	}
	var api *lichess.APIError
	return !errors.As(err, &api) && !errors.Is(err, lichess.ErrTokenInvalid) &&
		!errors.Is(err, lichess.ErrMissingScope) && !errors.Is(err, context.Canceled) &&
		!errors.Is(err, context.DeadlineExceeded)
}

// persist runs fn until it succeeds, fails for good, or ctx ends, waiting
// between transient failures with a growing delay (capped at a minute).
func persist[T any](ctx context.Context, what string, d *Daemon, fn func(context.Context) (T, error)) (T, error) {
	wait := 500 * time.Millisecond
	for {
		v, err := fn(ctx)
		if err == nil || !transient(err) || ctx.Err() != nil {
			return v, err
		}
		d.log.Warn().Err(err).Dur("retry_in", wait).Msg(what + " failed; retrying")
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, time.Minute)
	}
}
