package lichess

import (
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// Defaults applied by New to zero-valued Options fields.
const (
	DefaultBaseURL        = "https://lichess.org"
	DefaultRateLimit      = 60 * time.Second
	DefaultStreamTimeout  = 20 * time.Second
	DefaultMaxLineBytes   = 1 << 20
	DefaultRequestTimeout = 30 * time.Second
	DefaultRetryMax       = 4
	DefaultRetryWaitMin   = 1 * time.Second
	DefaultRetryWaitMax   = 30 * time.Second
	DefaultReconnectMin   = 500 * time.Millisecond
	DefaultReconnectMax   = 20 * time.Second
	DefaultUserAgent      = "outpost (+https://github.com/outpostchess/outpost)"
	// maxBodyBytes bounds a non-streamed answer.
	maxBodyBytes = 32 << 20
)

// Options configures a Client. The zero value of every field selects its
// default.
type Options struct {
	// BaseURL is the server, default https://lichess.org. A sandbox on
	// loopback is given as http://127.0.0.1:PORT.
	BaseURL string
	// Token authenticates requests (Authorization: Bearer). It may be empty
	// for the public endpoints. It never appears in an error or log line.
	Token Token
	// HTTPClient sends the requests. Its Timeout must be zero, because
	// streams stay open for hours; per-request deadlines come from
	// RequestTimeout. Default: a client with its own transport.
	HTTPClient *http.Client
	// Logger receives the client's log lines. The zero value logs nothing.
	Logger zerolog.Logger
	// RateLimit is the shortest lockout after a 429 (default 60 s); a longer
	// ratelimit.seconds in the body or Retry-After header wins.
	RateLimit time.Duration
	// LockedUntil seeds the 429 lockout: no request is sent before it (a
	// lockout an earlier process met and persisted through OnLockout, so
	// that a restart does not send its start-up requests inside it). A
	// zero or past time means none.
	LockedUntil time.Time
	// OnLockout, when set, is called with the lockout's new end each time
	// a 429 starts or extends it (to persist it for LockedUntil). It runs
	// on the request's goroutine before the 429 is returned; it must not
	// call the client.
	OnLockout func(until time.Time)
	// BotGamesLimitedUntil seeds Client.BotGamesLimitedUntil (the daily
	// bot-vs-bot cap met before a restart); a zero or past time means none.
	BotGamesLimitedUntil time.Time
	// OnBotGamesLimit, when set, is called with the cap's new end each
	// time a 429 with key BotGamesLimitKey arrives (to persist it for
	// BotGamesLimitedUntil). Such a 429 starts no lockout. It runs on the
	// request's goroutine; it must not call the client.
	OnBotGamesLimit func(until time.Time)
	// EventStreamOpened seeds the event stream's budget (EventStreamOpens
	// in EventStreamWindow) with the openings of an earlier process of the
	// same token, persisted through OnEventStreamOpen, so that a restart
	// does not reopen the stream past Lichess's limit. Times outside the
	// window are ignored.
	EventStreamOpened []time.Time
	// OnEventStreamOpen, when set, is called with the time of each opening
	// of the event stream the budget allows (to persist it for
	// EventStreamOpened). It runs on the stream's goroutine before the
	// request is sent; it must not call the client.
	OnEventStreamOpen func(at time.Time)
	// StreamTimeout is how long a stream may stay silent (not even a
	// keep-alive blank line) before it is dropped and reconnected
	// (default 20 s).
	StreamTimeout time.Duration
	// MaxLineBytes bounds one ndjson line; longer lines are skipped
	// (default 1 MiB).
	MaxLineBytes int
	// RequestTimeout bounds the wait for the response headers of each
	// attempt (streams included) and the reading of a non-streamed answer
	// (default 30 s). Waiting for the client's turn, for a 429 lockout and
	// between retries is not counted.
	RequestTimeout time.Duration
	// RetryMax is how many times a request that failed with a network error
	// or a 5xx is retried (default 4; negative means never).
	RetryMax int
	// RetryWaitMin and RetryWaitMax bound the exponential, jittered backoff
	// between retries (defaults 1 s and 30 s).
	RetryWaitMin, RetryWaitMax time.Duration
	// ReconnectMin and ReconnectMax bound the exponential, jittered delay
	// before a dropped stream is reopened (defaults 500 ms and 20 s). A
	// negative ReconnectMin reconnects at once (for tests).
	ReconnectMin, ReconnectMax time.Duration
	// Clock is the time source for the lockout, the stream watchdog and the
	// reconnect delay (default SystemClock).
	Clock Clock
	// UserAgent is sent with every request.
	UserAgent string
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	o.RateLimit = positiveOr(o.RateLimit, DefaultRateLimit)
	o.StreamTimeout = positiveOr(o.StreamTimeout, DefaultStreamTimeout)
	o.MaxLineBytes = positiveOr(o.MaxLineBytes, DefaultMaxLineBytes)
	o.RequestTimeout = positiveOr(o.RequestTimeout, DefaultRequestTimeout)
	o.RetryMax = defaultOrOff(o.RetryMax, DefaultRetryMax)
	o.RetryWaitMin = positiveOr(o.RetryWaitMin, DefaultRetryWaitMin)
	o.RetryWaitMax = max(positiveOr(o.RetryWaitMax, DefaultRetryWaitMax), o.RetryWaitMin)
	o.ReconnectMin = defaultOrOff(o.ReconnectMin, DefaultReconnectMin)
	o.ReconnectMax = max(positiveOr(o.ReconnectMax, DefaultReconnectMax), o.ReconnectMin)
	if o.Clock == nil {
		o.Clock = SystemClock{}
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	return o
}

// positiveOr returns v when it is positive, else def.
func positiveOr[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// defaultOrOff returns def for zero (unset), zero for a negative v (off)
// and v otherwise.
func defaultOrOff[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
