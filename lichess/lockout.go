package lichess

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// lockout is when a 429 lockout ends; a Client and a Service each keep
// one for all their requests. Safe for concurrent use.
type lockout struct {
	mu    sync.Mutex
	until time.Time
}

// Until returns when the lockout ends (zero or past when there is none).
func (l *lockout) Until() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.until
}

// extend makes the lockout last at least d from now and returns its end.
func (l *lockout) extend(now time.Time, d time.Duration) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if until := now.Add(d); until.After(l.until) {
		l.until = until
	}
	return l.until
}

// parseBaseURL reads the base URL of a client (what names it in errors):
// http(s)://host[:port] and an optional path, trailing slashes dropped.
func parseBaseURL(what, raw string) (*url.URL, error) {
	base, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil {
		return nil, fmt.Errorf("lichess: %s %q: %w", what, raw, err)
	}
	if base.Scheme != "http" && base.Scheme != "https" || base.Host == "" {
		return nil, fmt.Errorf("lichess: %s %q: want http(s)://host[:port]", what, raw)
	}
	return base, nil
}
