package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// User is a Lichess account (User / UserExtended in the spec).
type User struct {
	ID           string               `json:"id"`
	Username     string               `json:"username"`
	Title        string               `json:"title,omitempty"`
	Perfs        map[string]PerfStats `json:"perfs,omitempty"`
	CreatedAt    int64                `json:"createdAt,omitempty"`
	SeenAt       int64                `json:"seenAt,omitempty"`
	Disabled     bool                 `json:"disabled,omitempty"`
	TosViolation bool                 `json:"tosViolation,omitempty"`
	Verified     bool                 `json:"verified,omitempty"`
	Patron       bool                 `json:"patron,omitempty"`
	Profile      *Profile             `json:"profile,omitempty"`
	PlayTime     *PlayTime            `json:"playTime,omitempty"`
	URL          string               `json:"url,omitempty"`
	Playing      string               `json:"playing,omitempty"`
	Count        *Count               `json:"count,omitempty"`
	Streaming    bool                 `json:"streaming,omitempty"`
	Followable   bool                 `json:"followable,omitempty"`
	Following    bool                 `json:"following,omitempty"`
	Blocking     bool                 `json:"blocking,omitempty"`
}

// IsBot reports a BOT account.
func (u *User) IsBot() bool { return u.Title == "BOT" }

// PerfStats is a user's rating in one category (puzzle modes use Runs and
// Score instead).
type PerfStats struct {
	Games  int  `json:"games"`
	Rating int  `json:"rating"`
	RD     int  `json:"rd"`
	Prog   int  `json:"prog"`
	Prov   bool `json:"prov,omitempty"`
	Rank   int  `json:"rank,omitempty"`
	Runs   int  `json:"runs,omitempty"`
	Score  int  `json:"score,omitempty"`
}

// Profile is the free-form part of a user's profile.
type Profile struct {
	Flag       string `json:"flag,omitempty"`
	Location   string `json:"location,omitempty"`
	Bio        string `json:"bio,omitempty"`
	RealName   string `json:"realName,omitempty"`
	FideRating int    `json:"fideRating,omitempty"`
	Links      string `json:"links,omitempty"`
}

// PlayTime is time spent playing, in seconds.
type PlayTime struct {
	Total int64 `json:"total"`
	TV    int64 `json:"tv"`
	Human int64 `json:"human,omitempty"`
}

// Count is a user's game counters.
type Count struct {
	All      int `json:"all"`
	Rated    int `json:"rated"`
	Draw     int `json:"draw"`
	Loss     int `json:"loss"`
	Win      int `json:"win"`
	Bookmark int `json:"bookmark"`
	Playing  int `json:"playing"`
	Import   int `json:"import"`
	Me       int `json:"me"`
}

// User returns a user's public data (GET /api/user/{username}).
func (c *Client) User(ctx context.Context, username string) (*User, error) {
	if err := checkID("username", username); err != nil {
		return nil, err
	}
	var u User
	if err := c.call(ctx, &request{method: "GET", path: "/api/user/" + url.PathEscape(username)}, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// OnlineBots returns up to nb (1..512; 0 means 100) online BOT accounts
// (GET /api/bot/online, ndjson). Malformed lines are skipped.
func (c *Client) OnlineBots(ctx context.Context, nb int) ([]User, error) {
	if nb < 0 || nb > 512 {
		return nil, fmt.Errorf("lichess: online bots: nb %d out of range 1..512", nb)
	}
	r := &request{method: "GET", path: "/api/bot/online", accept: "application/x-ndjson"}
	if nb > 0 {
		r.query = url.Values{"nb": {strconv.Itoa(nb)}}
	}
	var out []User
	err := c.readNDJSON(ctx, r, func(line []byte) error {
		var u User
		if err := json.Unmarshal(line, &u); err != nil || u.ID == "" {
			c.log.Warn().Str("path", r.path).Msg("skipping malformed bot line")
			return nil
		}
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readNDJSON opens r and calls fn for each non-blank line until the end of
// the body, an error from fn, or ctx ends. Over-long lines are skipped.
func (c *Client) readNDJSON(ctx context.Context, r *request, fn func([]byte) error) error {
	resp, err := c.openWithRetry(ctx, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	lr := NewLineReader(resp.Body, c.opts.MaxLineBytes)
	for {
		line, err := lr.Next()
		switch {
		case err == nil:
		case isEOF(err):
			return nil
		case isTooLong(err):
			c.log.Warn().Str("path", r.path).Err(err).Msg("skipping over-long line")
			continue
		default:
			if ctx.Err() != nil {
				return fmt.Errorf("lichess: %s: %w", r.op(), ctx.Err())
			}
			return c.red.err(fmt.Errorf("lichess: %s: reading: %w", r.op(), err))
		}
		if err := fn(line); err != nil {
			return err
		}
	}
}

// openWithRetry opens a finite ndjson answer, retrying the opening on
// network errors and 5xx like any idempotent request.
func (c *Client) openWithRetry(ctx context.Context, r *request) (*http.Response, error) {
	var last error
	for attempt := 0; attempt <= c.opts.RetryMax; attempt++ {
		if attempt > 0 {
			// Real time, like go-retryablehttp's backoff.
			t := time.NewTimer(backoffDelay(c.opts.RetryWaitMin, c.opts.RetryWaitMax, attempt-1))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, fmt.Errorf("lichess: %s: %w", r.op(), ctx.Err())
			}
		}
		resp, err := c.open(ctx, r)
		if err == nil {
			return resp, nil
		}
		last = err
		var apiErr *APIError
		if ctx.Err() != nil || (asAPIError(err, &apiErr) && apiErr.Status < 500) || permanent(err) {
			return nil, err
		}
	}
	return nil, last
}
