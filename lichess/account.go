package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ScopeBotPlay is the OAuth scope a BOT needs.
const ScopeBotPlay = "bot:play"

// TokenInfo is what Lichess knows about a token.
type TokenInfo struct {
	// UserID is the account the token belongs to.
	UserID string
	// Scopes are the token's OAuth scopes.
	Scopes []string
	// Expires is when the token expires; zero if never.
	Expires time.Time
}

// HasScope reports whether the token has scope s.
func (t *TokenInfo) HasScope(s string) bool { return slices.Contains(t.Scopes, s) }

// CheckToken asks Lichess about the client's token (POST /api/token/test)
// and checks that it is valid and has every scope in required (bot:play
// when required is empty). Errors say what is wrong: ErrTokenInvalid for an
// unknown, revoked or expired token, ErrMissingScope (naming the scope and
// where to create a proper token) otherwise. The token is never shown.
func (c *Client) CheckToken(ctx context.Context, required ...string) (*TokenInfo, error) {
	info, err := c.checkToken(ctx, required)
	return info, c.red.err(err)
}

func (c *Client) checkToken(ctx context.Context, required []string) (*TokenInfo, error) {
	if c.opts.Token == "" {
		return nil, ErrNoToken
	}
	if len(required) == 0 {
		required = []string{ScopeBotPlay}
	}
	var raw map[string]json.RawMessage
	r := &request{method: "POST", path: "/api/token/test", body: []byte(c.opts.Token), ctype: "text/plain"}
	if err := c.call(ctx, r, &raw); err != nil {
		return nil, fmt.Errorf("lichess: checking the token: %w", err)
	}
	entry, ok := raw[string(c.opts.Token)]
	if !ok || string(entry) == "null" {
		return nil, fmt.Errorf("lichess: %w (create a new one at %s/account/oauth/token/create?scopes[]=%s)",
			ErrTokenInvalid, c.base, ScopeBotPlay)
	}
	var v struct {
		UserID  string `json:"userId"`
		Scopes  string `json:"scopes"`
		Expires *int64 `json:"expires"`
	}
	if err := json.Unmarshal(entry, &v); err != nil {
		return nil, fmt.Errorf("lichess: checking the token: malformed answer: %w", err)
	}
	info := &TokenInfo{UserID: c.red.redact(v.UserID)}
	for _, s := range strings.Split(c.red.redact(v.Scopes), ",") {
		if s = strings.TrimSpace(s); s != "" {
			info.Scopes = append(info.Scopes, s)
		}
	}
	if v.Expires != nil && *v.Expires > 0 {
		info.Expires = time.UnixMilli(*v.Expires)
		if !info.Expires.After(c.clock.Now()) {
			return nil, fmt.Errorf("lichess: %w: it expired at %s", ErrTokenInvalid, info.Expires.UTC().Format(time.RFC3339))
		}
	}
	for _, s := range required {
		if !info.HasScope(s) {
			return info, fmt.Errorf("lichess: %w: the token of %q has scopes [%s] but not %q; create one with it at %s/account/oauth/token/create?scopes[]=%s",
				ErrMissingScope, info.UserID, strings.Join(info.Scopes, ","), s, c.base, s)
		}
	}
	return info, nil
}

// Account returns the token owner's profile (GET /api/account).
func (c *Client) Account(ctx context.Context) (*User, error) {
	var u User
	if err := c.call(ctx, &request{method: "GET", path: "/api/account"}, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// UpgradeToBot turns the token owner's account into a BOT account (POST
// /api/bot/account/upgrade). This cannot be undone, and only works for an
// account that has never played a game.
func (c *Client) UpgradeToBot(ctx context.Context) error {
	return c.call(ctx, &request{method: "POST", path: "/api/bot/account/upgrade"}, nil)
}

// OngoingGames is the answer of GET /api/account/playing.
type OngoingGames struct {
	// NbMyTurn is how many games wait for the account's move.
	NbMyTurn int `json:"nbMyTurn"`
	// NowPlaying lists the games, most urgent first.
	NowPlaying []GameInfo `json:"nowPlaying"`
}

// OngoingGames lists the account's ongoing games (GET /api/account/playing);
// nb is 1..50 (0 means Lichess's default, 9).
func (c *Client) OngoingGames(ctx context.Context, nb int) (*OngoingGames, error) {
	if nb < 0 || nb > 50 {
		return nil, fmt.Errorf("lichess: ongoing games: nb %d out of range 1..50", nb)
	}
	r := &request{method: "GET", path: "/api/account/playing"}
	if nb > 0 {
		r.query = url.Values{"nb": {strconv.Itoa(nb)}}
	}
	var og OngoingGames
	if err := c.call(ctx, r, &og); err != nil {
		return nil, err
	}
	return &og, nil
}

// StreamEvents opens the account's event stream (GET /api/stream/event):
// games starting and finishing, challenges received, cancelled and
// declined. On every (re)connection Lichess replays the current challenges
// and ongoing games. Only one event stream per token exists: opening
// another closes the previous one. The client opens it at most
// EventStreamOpens times in EventStreamWindow, Lichess's limit: a
// reconnection past it waits for the window (see EventStreamOpens).
func (c *Client) StreamEvents(ctx context.Context) (*Stream[Event], error) {
	spec := streamSpec[Event]{
		name:        "events",
		req:         request{method: "GET", path: "/api/stream/event", accept: "application/x-ndjson"},
		decode:      DecodeEvent,
		reconnected: func(n int, cause error) Event { return &Reconnected{Attempt: n, Cause: cause} },
		budget:      c.eventOpens,
	}
	return startStream(ctx, c, spec)
}
