package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Default hosts of Lichess's auxiliary services (the OpenAPI spec's
// servers; the older *.lichess.ovh names still answer too).
const (
	DefaultExplorerURL  = "https://explorer.lichess.org"
	DefaultTablebaseURL = "https://tablebase.lichess.org"
)

// ServiceLockout is the least time a service is left alone after it
// answered 429: Lichess asks clients to wait a full minute.
const ServiceLockout = time.Minute

// maxServiceBody bounds a service's answer (an explorer answer with top
// games is a few kilobytes).
const maxServiceBody = 1 << 20

// ServiceOptions configures a client of one of Lichess's auxiliary hosts
// (opening explorer, tablebase). The zero value of every field but BaseURL
// is usable.
type ServiceOptions struct {
	// BaseURL is the host, e.g. DefaultExplorerURL or a sandbox's URL.
	BaseURL string
	// Token, when set, is sent as a bearer token (the explorer asks for
	// a logged-in user). It is never logged.
	Token Token
	// HTTPClient carries the requests; nil means a client of its own.
	// Time bounds come from the caller's context.
	HTTPClient *http.Client
	// Clock is the lockout's time source; nil means SystemClock.
	Clock Clock
	// Lockout is how long a 429 stops all requests to the host; values
	// under ServiceLockout (and zero) mean ServiceLockout. A Retry-After
	// header asking for longer wins.
	Lockout time.Duration
	// UserAgent is sent with every request; "" means DefaultUserAgent.
	UserAgent string
}

// Service is a client of one auxiliary Lichess host. It is safe for
// concurrent use; after a 429 it refuses every request (with an error
// matching ErrRateLimited) until its lockout ends, so one Service shared
// by all games keeps the whole process within Lichess's limits.
type Service struct {
	base  *url.URL
	hc    *http.Client
	token Token
	clock Clock
	wait  time.Duration
	ua    string

	locked lockout
}

// NewService returns a client of the host o.BaseURL.
func NewService(o ServiceOptions) (*Service, error) {
	base, err := parseBaseURL("service URL", o.BaseURL)
	if err != nil {
		return nil, err
	}
	if o.Token != "" {
		if err := validateToken(string(o.Token)); err != nil {
			return nil, fmt.Errorf("lichess: service %s: %w", base.Host, err)
		}
	}
	s := &Service{base: base, hc: o.HTTPClient, token: o.Token, clock: o.Clock, wait: max(o.Lockout, ServiceLockout), ua: o.UserAgent}
	if s.hc == nil {
		s.hc = &http.Client{}
	}
	if s.clock == nil {
		s.clock = SystemClock{}
	}
	if s.ua == "" {
		s.ua = DefaultUserAgent
	}
	return s, nil
}

// BaseURL returns the host the service talks to.
func (s *Service) BaseURL() string { return s.base.String() }

// LockedUntil returns when the current 429 lockout ends (zero or past when
// there is none).
func (s *Service) LockedUntil() time.Time { return s.locked.Until() }

// lock starts (or extends) the lockout to last d from now and returns how
// long it lasts.
func (s *Service) lock(d time.Duration) time.Duration {
	now := s.clock.Now()
	return s.locked.extend(now, d).Sub(now)
}

// getJSON sends GET path?q and decodes a 2xx JSON answer into v.
func (s *Service) getJSON(ctx context.Context, path string, q url.Values, v any) error {
	if left := s.LockedUntil().Sub(s.clock.Now()); left > 0 {
		return &APIError{Status: http.StatusTooManyRequests, Method: "GET", Path: path, Message: "rate limited earlier", RetryAfter: left}
	}
	u := *s.base
	u.Path += path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, "GET", u.String(), nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", s.ua)
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+string(s.token))
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, redactErr(err, string(s.token)))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxServiceBody))
	if err != nil {
		return fmt.Errorf("GET %s: reading the answer: %w", path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &APIError{Status: resp.StatusCode, Method: "GET", Path: path, Message: errorMessage(body)}
		if resp.StatusCode == http.StatusTooManyRequests {
			d := s.wait
			if ra, ok := parseRetryAfter(resp.Header.Get("Retry-After"), s.clock.Now()); ok && ra > d {
				d = ra
			}
			e.RetryAfter = s.lock(d)
		}
		return e
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: decoding the answer: %w", path, err)
	}
	return nil
}

// redactErr removes the token from an error's text, should a transport
// ever echo it.
func redactErr(err error, token string) error {
	if token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), token, "lip_…"))
}
