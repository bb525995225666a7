package lichess

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// errHeaderTimeout is the cause when no response headers arrived within
// RequestTimeout.
var errHeaderTimeout = errors.New("no response headers in time")

// notSentError is returned when a request gave up before it was sent
// (its context ended while it waited for its turn or a lockout).
type notSentError struct{ err error }

// Error describes why the request was not sent.
func (e *notSentError) Error() string { return "not sent: " + e.err.Error() }

// Unwrap returns the context error.
func (e *notSentError) Unwrap() error { return e.err }

// turnTransport enforces the client's discipline on every attempt of every
// request, retries and stream openings included: wait for any 429 lockout
// and for the client's turn, send, hold the turn until the response headers
// arrive (at most RequestTimeout), and start a lockout on a 429. The turn is
// not held while go-retryablehttp sleeps between attempts, so a move is not
// stuck behind another request's backoff, and a game's actions (moves
// first of all) are served before waiting ordinary requests (see
// turnQueue), so a move does not wait behind other games' chat, challenge
// or export requests.
type turnTransport struct {
	c    *Client
	base http.RoundTripper
	q    turnQueue
}

// acquire waits until no 429 lockout is in force and the turn is this
// request's. It returns holding the turn (release it with t.q.release), or
// the context's error without it. The lockout is waited out without the
// turn, so that when it ends the turn goes to the most urgent request, and
// checked again once the turn is held (another request may have met a 429
// meanwhile).
func (t *turnTransport) acquire(ctx context.Context, urgent bool) error {
	c := t.c
	for {
		if wait := c.LockedUntil().Sub(c.clock.Now()); wait > 0 {
			c.log.Debug().Dur("wait", wait).Msg("rate-limit lockout: holding request")
			select {
			case <-c.clock.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := t.q.acquire(ctx, urgent); err != nil {
			return err
		}
		if !c.LockedUntil().After(c.clock.Now()) {
			return nil
		}
		t.q.release()
	}
}

// RoundTrip sends one attempt in the client's turn.
func (t *turnTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.acquire(req.Context(), urgentPath(req.URL.Path)); err != nil {
		return nil, &notSentError{err: err}
	}
	defer t.q.release()
	ctx, cancel := context.WithCancel(req.Context())
	var timedOut atomic.Bool
	timeout := t.c.opts.RequestTimeout
	timer := time.AfterFunc(timeout, func() { timedOut.Store(true); cancel() })
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if !timer.Stop() && err == nil {
		resp.Body.Close()
		err = context.Canceled
	}
	if err != nil {
		cancel()
		if timedOut.Load() && req.Context().Err() == nil {
			return nil, fmt.Errorf("%w (%s)", errHeaderTimeout, timeout)
		}
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	if resp.StatusCode == http.StatusTooManyRequests {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if key, d := rateLimitOf(body); key == BotGamesLimitKey {
			t.c.noteBotGamesLimit(req.URL.Path, d)
		} else {
			t.c.noteRateLimit(req.URL.Path, resp.Header.Get("Retry-After"), body)
		}
	}
	return resp, nil
}

// noteRateLimit starts (or extends) the lockout after a 429: the longest of
// Options.RateLimit, ratelimit.seconds in the body and Retry-After.
func (c *Client) noteRateLimit(path, retryAfter string, body []byte) {
	wait := c.opts.RateLimit
	if d := rateLimitSeconds(body); d > wait {
		wait = d
	}
	if d, ok := parseRetryAfter(retryAfter, c.clock.Now()); ok && d > wait {
		wait = d
	}
	until := c.lockout(wait)
	if c.opts.OnLockout != nil {
		c.opts.OnLockout(until)
	}
	c.log.Warn().Str("path", path).Dur("lockout", until.Sub(c.clock.Now())).
		Msg("rate limited by the server: no request until the lockout ends")
}

// noteBotGamesLimit records a 429 of Lichess's daily bot-vs-bot cap
// (ratelimit key bot.vsBot.day, lila modules/bot/src/main/BotLimit.scala
// challengeLimitError): it covers challenging bots and accepting bots'
// challenges only, so it starts no lockout of the other requests (moves,
// chat, streams go on). Its end is BotGamesLimitedUntil, told to
// Options.OnBotGamesLimit.
func (c *Client) noteBotGamesLimit(path string, d time.Duration) {
	if d <= 0 {
		// lila always sends seconds (at least 0); a body without them gets
		// the shortest lockout so that the caller does not ask again at once.
		d = c.opts.RateLimit
	}
	until := c.botGames.extend(c.clock.Now(), d)
	if c.opts.OnBotGamesLimit != nil {
		c.opts.OnBotGamesLimit(until)
	}
	c.log.Warn().Str("path", path).Time("until", until).
		Msg("daily bot-vs-bot game limit reached: no challenge to or from bots until it ends; games, moves and chat go on")
}

// cancelBody cancels the request context when the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close closes the body and releases the request context.
func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// CloseIdleConnections closes the underlying transport's idle connections.
func (t *turnTransport) CloseIdleConnections() {
	if ci, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}
