package lichess

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// safety says whether a request may be retried when its answer is lost.
type safety int

const (
	// idempotent requests (the zero value) are retried on network errors
	// and 5xx.
	_ safety = iota
	// actsOnce requests (a move, a chat line, a new challenge) are retried
	// only when they surely never reached the server; otherwise a lost
	// answer yields ErrUnknownOutcome.
	actsOnce
)

// request describes one API call.
type request struct {
	method string
	path   string // already escaped
	query  url.Values
	form   url.Values
	body   []byte // used when form is nil
	ctype  string // content type of body
	accept string
	safety safety
}

// op names the request in errors and logs.
func (r *request) op() string { return r.method + " " + r.path }

// newHTTPRequest builds the retryable request with headers set.
func (c *Client) newHTTPRequest(ctx context.Context, r *request) (*retryablehttp.Request, error) {
	u := *c.base
	u.Path = strings.TrimRight(c.base.Path, "/") + r.path
	u.RawPath = ""
	if p, err := url.PathUnescape(u.Path); err == nil {
		u.RawPath = u.Path
		u.Path = p
	}
	if len(r.query) > 0 {
		u.RawQuery = r.query.Encode()
	}
	var body any
	ctype := r.ctype
	switch {
	case r.form != nil:
		body = []byte(r.form.Encode())
		ctype = "application/x-www-form-urlencoded"
	case r.body != nil:
		body = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s: %w", r.op(), err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	} else {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	if c.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+string(c.opts.Token))
	}
	return req, nil
}

// call sends r in the client's turn, reads the whole answer and decodes a
// 2xx JSON body into out (when out is a *[]byte it receives the raw body;
// when out is nil the body is discarded).
func (c *Client) call(ctx context.Context, r *request, out any) error {
	err := c.callRaw(ctx, r, out)
	return c.red.err(err)
}

func (c *Client) callRaw(ctx context.Context, r *request, out any) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := c.newHTTPRequest(ctx, r)
	if err != nil {
		return err
	}
	start := c.clock.Now()
	hc := c.retry
	if r.safety == actsOnce {
		hc = c.once
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil && !surelyUnsent(err) {
			err = ctx.Err()
		}
		// A request that acts once and may have been sent has an unknown
		// outcome, even when the caller gave up (ctx) while waiting.
		if r.safety == actsOnce && !surelyUnsent(err) {
			return &unknownOutcomeError{op: "lichess: " + r.op(), cause: err}
		}
		return fmt.Errorf("lichess: %s: %w", r.op(), err)
	}
	defer resp.Body.Close()
	// Bound the body read too (the headers were bounded by the transport).
	bodyTimer := time.AfterFunc(c.opts.RequestTimeout, cancel)
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	bodyTimer.Stop()
	c.log.Debug().Str("method", r.method).Str("path", r.path).Int("status", resp.StatusCode).
		Dur("took", c.clock.Now().Sub(start)).Msg("request")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := c.apiError(r, resp, body)
		if r.safety == actsOnce && resp.StatusCode >= 500 {
			return &unknownOutcomeError{op: "lichess: " + r.op(), cause: apiErr}
		}
		return fmt.Errorf("lichess: %w", apiErr)
	}
	if rerr != nil {
		return fmt.Errorf("lichess: %s: reading answer: %w", r.op(), rerr)
	}
	switch o := out.(type) {
	case nil:
		return nil
	case *[]byte:
		*o = body
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("lichess: %s: decoding answer: %w", r.op(), err)
	}
	return nil
}

// open sends a streaming request in the client's turn and returns the 2xx
// response once its headers arrived; the turn is given back then. The body
// stays open until ctx ends or the caller closes it.
func (c *Client) open(ctx context.Context, r *request) (*http.Response, error) {
	resp, err := c.openRaw(ctx, r)
	return resp, c.red.err(err)
}

func (c *Client) openRaw(ctx context.Context, r *request) (*http.Response, error) {
	req, err := c.newHTTPRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	body, err := req.BodyBytes()
	if err != nil {
		return nil, fmt.Errorf("lichess: %s: %w", r.op(), err)
	}
	if body != nil {
		req.Request.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := c.hc.Do(req.Request)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("lichess: %s: %w", r.op(), ctx.Err())
		}
		return nil, fmt.Errorf("lichess: %s: %w", r.op(), err)
	}
	c.log.Debug().Str("method", r.method).Str("path", r.path).Int("status", resp.StatusCode).Msg("stream opened")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		return nil, fmt.Errorf("lichess: %w", c.apiError(r, resp, body))
	}
	return resp, nil
}

// apiError builds the error for a non-2xx answer; for a 429 it reports the
// lockout the transport started.
func (c *Client) apiError(r *request, resp *http.Response, body []byte) *APIError {
	e := &APIError{Status: resp.StatusCode, Method: r.method, Path: r.path, Message: c.red.redact(errorMessage(body)),
		TokenScopes: c.red.redact(resp.Header.Get("X-OAuth-Scopes")), AcceptedScopes: c.red.redact(resp.Header.Get("X-Accepted-OAuth-Scopes"))}
	key, d := rateLimitOf(body)
	switch {
	case key == BotGamesLimitKey && resp.StatusCode == http.StatusTooManyRequests:
		e.LimitKey, e.LimitEnd = key, c.BotGamesLimitedUntil()
	case key == BotGamesLimitKey:
		// A 400 of BotLimit: the opponent is at its cap until then.
		e.LimitKey, e.LimitEnd = key, c.clock.Now().Add(d)
	case resp.StatusCode == http.StatusTooManyRequests:
		e.LimitKey = key
		e.RetryAfter = c.LockedUntil().Sub(c.clock.Now())
	}
	return e
}

// errorMessage extracts the "error" field of an error body, or a short text
// of the body itself.
func errorMessage(body []byte) string {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return truncate(s, 300)
		}
		if fields := formErrorText(v.Error); fields != "" {
			return truncate(fields, 300)
		}
		return truncate(string(v.Error), 300)
	}
	return truncate(strings.TrimSpace(string(body)), 200)
}

// formErrorText renders Lichess's per-field form errors
// ({"clock.limit":["Invalid value"]}) as "clock.limit: Invalid value",
// fields in order; "" when raw is not such an object.
func formErrorText(raw json.RawMessage) string {
	var fields map[string][]string
	if json.Unmarshal(raw, &fields) != nil || len(fields) == 0 {
		return ""
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+strings.Join(fields[k], ", "))
	}
	return strings.Join(parts, "; ")
}

// rateLimitSeconds reads {"ratelimit":{"seconds":N}} from a 429 body.
func rateLimitSeconds(body []byte) time.Duration {
	_, d := rateLimitOf(body)
	return d
}

// maxRateLimitSeconds bounds a ratelimit.seconds believed: a week, well
// over lila's longest limit (a day) and short enough that a corrupt value
// cannot stop the bot for good.
const maxRateLimitSeconds = 7 * 24 * 3600

// rateLimitOf reads {"ratelimit":{"key":K,"seconds":N}} from an error body
// (lila lila.web CtrlErrors' Writes[RateLimit.Limited], and
// BotLimit's Writes[OpponentLimit] on a 400). The duration is zero when the
// seconds are missing, not positive or over a week.
func rateLimitOf(body []byte) (key string, d time.Duration) {
	var v struct {
		RateLimit struct {
			Key     string  `json:"key"`
			Seconds float64 `json:"seconds"`
		} `json:"ratelimit"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", 0
	}
	key = v.RateLimit.Key
	if v.RateLimit.Seconds <= 0 || v.RateLimit.Seconds > maxRateLimitSeconds {
		return key, 0
	}
	return key, time.Duration(v.RateLimit.Seconds * float64(time.Second))
}

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date.
func parseRetryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(h, 10, 64); err == nil {
		if n < 0 || n > 7*24*3600 {
			return 0, false
		}
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 && d <= 7*24*time.Hour {
			return d, true
		}
	}
	return 0, false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// retryTransient retries network errors and 5xx answers (not 501), never a
// 429 (the lockout handles those) nor an error no retry can fix.
func retryTransient(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return !permanent(err), nil
	}
	return resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented, nil
}

// retryUnsent retries only errors proving the request never reached the
// server (it could not even connect).
func retryUnsent(ctx context.Context, _ *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	return err != nil && surelyUnsent(err), nil
}

// permanent reports errors that a retry cannot fix.
func permanent(err error) bool {
	var unknownAuth x509.UnknownAuthorityError
	var invalidCert x509.CertificateInvalidError
	var hostname x509.HostnameError
	return errors.As(err, &unknownAuth) || errors.As(err, &invalidCert) || errors.As(err, &hostname)
}

// surelyUnsent reports errors raised before any byte of the request was
// written: giving up while waiting for the turn, DNS failures and failed
// connection attempts.
func surelyUnsent(err error) bool {
	var ns *notSentError
	if errors.As(err, &ns) {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// jitterBackoff is exponential backoff with full jitter in [d/2, d], where d
// doubles from min up to max.
func jitterBackoff(lo, hi time.Duration, attempt int, _ *http.Response) time.Duration {
	return backoffDelay(lo, hi, attempt)
}

func backoffDelay(lo, hi time.Duration, attempt int) time.Duration {
	if lo <= 0 {
		return 0
	}
	d := lo
	for i := 0; i < attempt && d < hi; i++ {
		d *= 2
	}
	if d > hi {
		d = hi
	}
	half := d / 2
	return half + rand.N(d-half+1)
}
