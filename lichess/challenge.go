package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// DeclineReason is why a challenge is declined. Lichess wants the camelCase
// keys below; the event stream reports them in lower case.
type DeclineReason string

// Decline reasons.
const (
	DeclineGeneric     DeclineReason = "generic"
	DeclineLater       DeclineReason = "later"
	DeclineTooFast     DeclineReason = "tooFast"
	DeclineTooSlow     DeclineReason = "tooSlow"
	DeclineTimeControl DeclineReason = "timeControl"
	DeclineRated       DeclineReason = "rated"
	DeclineCasual      DeclineReason = "casual"
	DeclineStandard    DeclineReason = "standard"
	DeclineVariant     DeclineReason = "variant"
	DeclineNoBot       DeclineReason = "noBot"
	DeclineOnlyBot     DeclineReason = "onlyBot"
)

var declineReasons = []DeclineReason{
	DeclineGeneric, DeclineLater, DeclineTooFast, DeclineTooSlow, DeclineTimeControl,
	DeclineRated, DeclineCasual, DeclineStandard, DeclineVariant, DeclineNoBot, DeclineOnlyBot,
}

// ParseDeclineReason maps a reason in any letter case ("toofast",
// "TooFast", "tooFast") to its camelCase key; ok is false for an unknown
// reason.
func ParseDeclineReason(s string) (DeclineReason, bool) {
	for _, r := range declineReasons {
		if strings.EqualFold(string(r), strings.TrimSpace(s)) {
			return r, true
		}
	}
	return "", false
}

// AcceptChallenge accepts a challenge (POST /api/challenge/{id}/accept).
// color picks a side of an open challenge; leave it empty otherwise.
func (c *Client) AcceptChallenge(ctx context.Context, id string, color Color) error {
	if err := checkID("challenge id", id); err != nil {
		return err
	}
	r := &request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/accept"}
	switch color {
	case "":
	case White, Black:
		r.query = url.Values{"color": {string(color)}}
	default:
		return fmt.Errorf("lichess: accept %s: color %q: want white or black", id, color)
	}
	if err := c.call(ctx, r, nil); err != nil {
		return fmt.Errorf("lichess: accept %s: %w", id, err)
	}
	return nil
}

// DeclineChallenge declines a challenge (POST /api/challenge/{id}/decline)
// with a reason in any letter case (see ParseDeclineReason; empty means
// generic). An unknown reason is an error.
func (c *Client) DeclineChallenge(ctx context.Context, id string, reason DeclineReason) error {
	if err := checkID("challenge id", id); err != nil {
		return err
	}
	if reason == "" {
		reason = DeclineGeneric
	}
	key, ok := ParseDeclineReason(string(reason))
	if !ok {
		return fmt.Errorf("lichess: decline %s: unknown reason %q", id, reason)
	}
	r := &request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/decline", form: url.Values{"reason": {string(key)}}}
	if err := c.call(ctx, r, nil); err != nil {
		return fmt.Errorf("lichess: decline %s: %w", id, err)
	}
	return nil
}

// CancelChallenge withdraws a challenge the account sent, or aborts the game
// it created if nobody has moved yet (POST /api/challenge/{id}/cancel).
func (c *Client) CancelChallenge(ctx context.Context, id string) error {
	if err := checkID("challenge id", id); err != nil {
		return err
	}
	r := &request{method: "POST", path: "/api/challenge/" + url.PathEscape(id) + "/cancel"}
	if err := c.call(ctx, r, nil); err != nil {
		return fmt.Errorf("lichess: cancel %s: %w", id, err)
	}
	return nil
}

// MaxIncrement is the largest clock increment Lichess accepts, in seconds.
const MaxIncrement = 180

// ChallengeClock is a real-time clock for a new challenge, in seconds.
type ChallengeClock struct {
	// Limit is the initial time: 0, 15, 30, 45, 60, 90 or a multiple of 60
	// up to 10800.
	Limit int
	// Increment is 0..180 (the OpenAPI spec says 60; Lichess accepts 180).
	Increment int
}

// ChallengeParams describes a challenge to create. Set Clock for a
// real-time game, Days for correspondence, neither for unlimited.
type ChallengeParams struct {
	Clock   *ChallengeClock
	Days    int
	Rated   bool
	Color   Color  // white, black or random (default)
	Variant string // variant key, default standard
	FEN     string // start position (standard/fromPosition only)
	// Rules are lila GameRules for the game (Rule* names). Lichess
	// refuses them in a challenge to a bot ("Rules not applicable for
	// bots"): only a challenge to a human may carry them.
	Rules []string
}

// Game rules, as lila names them (lila.core.game.GameRule): a challenge to
// a human or a bulk pairing may set them, and a challenge's JSON lists
// them (Challenge.Rules). lila sends them nowhere else: not in gameStart,
// gameFull, gameState nor the game export.
const (
	RuleNoAbort     = "noAbort"     // no abort (nor resignation) in the first two plies
	RuleNoRematch   = "noRematch"   // no rematch
	RuleNoGiveTime  = "noGiveTime"  // no extra time given
	RuleNoClaimWin  = "noClaimWin"  // no claim of victory or draw when the opponent left
	RuleNoEarlyDraw = "noEarlyDraw" // no draw before ply 60
)

// EarlyDrawPlies is the ply before which noEarlyDraw forbids draws: lila's
// Game.rulePreventsDraw is hasRule(noEarlyDraw) && playedTurns < 60.
const EarlyDrawPlies = 60

// KnownRule reports whether name is one of lila's game rules.
func KnownRule(name string) bool {
	switch name {
	case RuleNoAbort, RuleNoRematch, RuleNoGiveTime, RuleNoClaimWin, RuleNoEarlyDraw:
		return true
	}
	return false
}

// form validates p and encodes it.
func (p ChallengeParams) form() (url.Values, error) {
	f := url.Values{}
	if p.Clock != nil && p.Days != 0 {
		return nil, fmt.Errorf("set either a clock or days, not both")
	}
	if p.Clock != nil {
		if err := validClockLimit(p.Clock.Limit); err != nil {
			return nil, err
		}
		if p.Clock.Increment < 0 || p.Clock.Increment > MaxIncrement {
			return nil, fmt.Errorf("clock.increment %d: want 0..%d seconds", p.Clock.Increment, MaxIncrement)
		}
		f.Set("clock.limit", strconv.Itoa(p.Clock.Limit))
		f.Set("clock.increment", strconv.Itoa(p.Clock.Increment))
	}
	if p.Days != 0 {
		switch p.Days {
		case 1, 2, 3, 5, 7, 10, 14:
		default:
			return nil, fmt.Errorf("days %d: want 1, 2, 3, 5, 7, 10 or 14", p.Days)
		}
		f.Set("days", strconv.Itoa(p.Days))
	}
	f.Set("rated", strconv.FormatBool(p.Rated))
	switch p.Color {
	case "":
	case White, Black, Random:
		f.Set("color", string(p.Color))
	default:
		return nil, fmt.Errorf("color %q: want white, black or random", p.Color)
	}
	if p.Variant != "" {
		f.Set("variant", p.Variant)
	}
	if p.FEN != "" {
		f.Set("fen", p.FEN)
	}
	for _, r := range p.Rules {
		if !KnownRule(r) {
			return nil, fmt.Errorf("rule %q: want noAbort, noRematch, noGiveTime, noClaimWin or noEarlyDraw", r)
		}
	}
	if len(p.Rules) > 0 {
		f.Set("rules", strings.Join(p.Rules, ","))
	}
	return f, nil
}

func validClockLimit(s int) error {
	switch {
	case s == 0, s == 15, s == 30, s == 45, s == 60, s == 90:
		return nil
	case s > 0 && s <= 10800 && s%60 == 0:
		return nil
	}
	return fmt.Errorf("clock.limit %d: want 0, 15, 30, 45, 60, 90 or a multiple of 60 up to 10800 seconds", s)
}

// CreateChallenge challenges a user (POST /api/challenge/{username}). A
// real-time challenge expires after 20 s unless accepted; use
// CreateChallengeKeepAlive to keep it open longer. The game id will be the
// challenge id. A challenge whose answer was lost is not resent (the error
// matches ErrUnknownOutcome). A 429 with ratelimit key bot.vsBot.day means
// the daily bot-vs-bot games are used up.
func (c *Client) CreateChallenge(ctx context.Context, username string, p ChallengeParams) (*Challenge, error) {
	r, err := challengeRequest(username, p, false)
	if err != nil {
		return nil, err
	}
	var ch Challenge
	if err := c.call(ctx, r, &ch); err != nil {
		return nil, fmt.Errorf("lichess: challenge %s: %w", username, err)
	}
	return &ch, nil
}

func challengeRequest(username string, p ChallengeParams, keepAlive bool) (*request, error) {
	if err := checkID("username", username); err != nil {
		return nil, err
	}
	f, err := p.form()
	if err != nil {
		return nil, fmt.Errorf("lichess: challenge %s: %w", username, err)
	}
	r := &request{method: "POST", path: "/api/challenge/" + url.PathEscape(username), form: f, safety: actsOnce}
	if keepAlive {
		f.Set("keepAliveStream", "true")
		r.accept = "application/x-ndjson"
	}
	return r, nil
}

// PendingChallenge is a challenge created with keepAliveStream: it stays
// open while its connection does.
type PendingChallenge struct {
	// Challenge is the challenge as created.
	Challenge *Challenge
	body      interface{ Close() error }
	lines     *LineReader
}

// Wait blocks until Lichess reports the challenge's fate and returns it:
// "accepted", "declined" or "canceled" (the {"done":...} line). If the
// connection ends without one, it returns an error.
func (pc *PendingChallenge) Wait(ctx context.Context) (string, error) {
	stop := context.AfterFunc(ctx, func() { pc.body.Close() })
	defer stop()
	for {
		line, err := pc.lines.Next()
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if isTooLong(err) {
				continue
			}
			return "", fmt.Errorf("lichess: challenge %s: stream ended without an answer: %w", pc.Challenge.ID, err)
		}
		var v struct {
			Done string `json:"done"`
		}
		if json.Unmarshal(line, &v) == nil && v.Done != "" {
			pc.body.Close()
			return v.Done, nil
		}
	}
}

// Close closes the connection, which withdraws a challenge still pending.
func (pc *PendingChallenge) Close() error { return pc.body.Close() }

// CreateChallengeKeepAlive creates a challenge that stays open until it is
// accepted, declined or cancelled, or until Close (keepAliveStream=true).
func (c *Client) CreateChallengeKeepAlive(ctx context.Context, username string, p ChallengeParams) (*PendingChallenge, error) {
	r, err := challengeRequest(username, p, true)
	if err != nil {
		return nil, err
	}
	resp, err := c.open(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("lichess: challenge %s: %w", username, err)
	}
	lr := NewLineReader(resp.Body, c.opts.MaxLineBytes)
	line, err := lr.Next()
	if err != nil {
		resp.Body.Close()
		return nil, c.red.err(fmt.Errorf("lichess: challenge %s: reading the challenge: %w", username, err))
	}
	var ch Challenge
	if err := json.Unmarshal(line, &ch); err != nil || ch.ID == "" {
		resp.Body.Close()
		return nil, fmt.Errorf("lichess: challenge %s: first line is not a challenge", username)
	}
	return &PendingChallenge{Challenge: &ch, body: resp.Body, lines: lr}, nil
}
