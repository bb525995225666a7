package lichess

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
	"github.com/rs/zerolog"
)

// Client talks to Lichess (or a Lichess-compatible server). It is safe for
// concurrent use; it sends one request at a time (opening a stream counts as
// a request until its response headers arrive) and, after a 429, none at all
// until the lockout ends.
type Client struct {
	opts  Options
	base  *url.URL
	hc    *http.Client
	retry *retryablehttp.Client // idempotent requests: network errors and 5xx retried
	once  *retryablehttp.Client // non-idempotent requests: retried only if surely unsent
	log   zerolog.Logger
	clock Clock
	red   redactor

	locked   lockout
	botGames lockout // the daily bot-vs-bot cap (BotGamesLimitKey)
	// eventOpens is Lichess's budget of event-stream openings
	// (EventStreamOpens in EventStreamWindow).
	eventOpens *openBudget
}

// New returns a Client for opts, filling in defaults. It fails on a malformed
// BaseURL, an HTTPClient with a Timeout, or a token that cannot be sent.
func New(opts Options) (*Client, error) {
	o := opts.withDefaults()
	base, err := parseBaseURL("base URL", o.BaseURL)
	if err != nil {
		return nil, err
	}
	if o.Token != "" {
		if err := validateToken(string(o.Token)); err != nil {
			return nil, fmt.Errorf("lichess: %w", err)
		}
	}
	user := o.HTTPClient
	if user == nil {
		user = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if user.Timeout != 0 {
		return nil, fmt.Errorf("lichess: HTTPClient.Timeout must be 0 (streams stay open); use Options.RequestTimeout")
	}
	rt := user.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	c := &Client{
		opts:  o,
		base:  base,
		log:   o.Logger.With().Str("component", "lichess").Logger(),
		clock: o.Clock,
		red:   redactor{token: string(o.Token)},

		eventOpens: newOpenBudget(EventStreamOpens, EventStreamWindow, o.EventStreamOpened, o.OnEventStreamOpen),

		locked:   lockout{until: o.LockedUntil},
		botGames: lockout{until: o.BotGamesLimitedUntil},
	}
	hc := &http.Client{Transport: &turnTransport{c: c, base: rt}, CheckRedirect: user.CheckRedirect, Jar: user.Jar}
	c.hc = hc
	c.retry = &retryablehttp.Client{
		HTTPClient:     hc,
		RetryWaitMin:   o.RetryWaitMin,
		RetryWaitMax:   o.RetryWaitMax,
		RetryMax:       o.RetryMax,
		CheckRetry:     retryTransient,
		Backoff:        jitterBackoff,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		RequestLogHook: c.logRetry,
	}
	c.once = &retryablehttp.Client{
		HTTPClient:     hc,
		RetryWaitMin:   o.RetryWaitMin,
		RetryWaitMax:   o.RetryWaitMax,
		RetryMax:       o.RetryMax,
		CheckRetry:     retryUnsent,
		Backoff:        jitterBackoff,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		RequestLogHook: c.logRetry,
	}
	return c, nil
}

// BaseURL returns the server the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

// LockedUntil returns when the current 429 lockout ends (the zero time or a
// past time when there is none).
func (c *Client) LockedUntil() time.Time { return c.locked.Until() }

// BotGamesLimitedUntil returns when the daily bot-vs-bot cap met in a 429
// (key BotGamesLimitKey) ends: until then Lichess refuses our challenges
// to bots and our accepting theirs, and nothing else. The zero or a past
// time means none is known.
func (c *Client) BotGamesLimitedUntil() time.Time { return c.botGames.Until() }

// lockout extends the lockout to last at least d from now and returns its
// end.
func (c *Client) lockout(d time.Duration) time.Time { return c.locked.extend(c.clock.Now(), d) }

// logRetry logs each retry of a request (never its headers).
func (c *Client) logRetry(_ retryablehttp.Logger, req *http.Request, attempt int) {
	if attempt > 0 {
		c.log.Warn().Str("method", req.Method).Str("path", req.URL.Path).Int("attempt", attempt+1).Msg("retrying request")
	}
}

// Close releases the client's idle connections. Close open streams first;
// the client must not be used afterwards.
func (c *Client) Close() { c.hc.CloseIdleConnections() }
