package lichess

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Sentinel errors. An *APIError matches the one for its status with
// errors.Is, so callers can write errors.Is(err, lichess.ErrNotFound).
var (
	// ErrBadRequest matches a 400 answer (an illegal move, a challenge
	// that cannot be accepted, ...).
	ErrBadRequest = errors.New("bad request")
	// ErrUnauthorized matches a 401 answer: the token is missing, invalid
	// or revoked.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden matches a 403 answer: the token lacks a scope, or the
	// account may not do this.
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound matches a 404 answer.
	ErrNotFound = errors.New("not found")
	// ErrRateLimited matches a 429 answer. After one the client sends no
	// request until its lockout ends (see Client.LockedUntil).
	ErrRateLimited = errors.New("rate limited")
	// ErrServer matches a 5xx answer left after the retries.
	ErrServer = errors.New("server error")
	// ErrUnknownOutcome means a non-idempotent request (a move, a chat
	// message, a challenge) was sent but its answer was lost (network error
	// or 5xx). The server may or may not have acted on it; it was not resent.
	// Check the game state (the game stream) before trying again.
	ErrUnknownOutcome = errors.New("outcome unknown: the request may or may not have been applied")
	// ErrTokenInvalid means the token is unknown to Lichess, revoked or
	// expired.
	ErrTokenInvalid = errors.New("the Lichess token is invalid, revoked or expired")
	// ErrMissingScope means the token lacks a scope this program needs.
	ErrMissingScope = errors.New("the Lichess token lacks a required scope")
)

// APIError is an HTTP answer other than 2xx.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Message is the server's "error" field, or a short text of the body.
	Message string
	// Method and Path name the request (the path never holds the token).
	Method, Path string
	// RetryAfter is how long the client stays locked out after a 429
	// (zero otherwise, and for a 429 of the daily bot-game cap, which locks
	// nothing else out).
	RetryAfter time.Duration
	// LimitKey is the answer's ratelimit.key ("" when it has none), e.g.
	// BotGamesLimitKey.
	LimitKey string
	// LimitEnd, for an answer with LimitKey BotGamesLimitKey, is when the
	// limit ends: ours for a 429 (Client.BotGamesLimitedUntil), the
	// challenged or challenging bot's for a 400.
	LimitEnd time.Time
	// TokenScopes and AcceptedScopes are Lichess's X-OAuth-Scopes (the
	// token's scopes) and X-Accepted-OAuth-Scopes (the endpoint's: any one
	// will do) headers, comma-separated as sent ("" when absent).
	TokenScopes, AcceptedScopes string
}

// missingScopePrefix begins lila's 403 for a token without the scope an
// endpoint needs (modules/oauth/src/main/OAuthServer.scala MissingScope:
// "Missing scope: bot:play", the accepted scopes joined by " || ").
const missingScopePrefix = "Missing scope"

// MissingScope reports whether the answer is Lichess's 403 for a token
// that lacks the endpoint's scope; errors.Is(err, ErrMissingScope) says
// the same of any error wrapping it.
func (e *APIError) MissingScope() bool {
	return e.Status == http.StatusForbidden && strings.HasPrefix(e.Message, missingScopePrefix)
}

// BotGamesLimitKey is the ratelimit key of Lichess's daily cap on a BOT
// account's games against other bots (lila modules/bot/src/main/BotLimit.scala).
const BotGamesLimitKey = "bot.vsBot.day"

// BotGamesLimit reports whether err is an answer of Lichess's daily
// bot-vs-bot cap and returns it: a 429 when we are at our cap, a 400 when
// the other bot is at its own (Status says which; LimitEnd says until when).
func BotGamesLimit(err error) (*APIError, bool) {
	var e *APIError
	if errors.As(err, &e) && e.LimitKey == BotGamesLimitKey {
		return e, true
	}
	return nil, false
}

// Error describes the failure.
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	s := fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, msg)
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (no request for %s)", e.RetryAfter)
	}
	if e.LimitKey == BotGamesLimitKey && !e.LimitEnd.IsZero() {
		s += " (daily bot-game limit until " + e.LimitEnd.UTC().Format(time.RFC3339) + ")"
	}
	if e.MissingScope() {
		s += fmt.Sprintf(" (%v: the token has [%s], the endpoint accepts any of [%s]; create a token with one of them)",
			ErrMissingScope, e.TokenScopes, e.AcceptedScopes)
	}
	return s
}

// Is matches the sentinel error for the status.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.Status == http.StatusBadRequest
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrMissingScope:
		return e.MissingScope()
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrServer:
		return e.Status >= 500
	}
	return false
}

// unknownOutcomeError is ErrUnknownOutcome with its cause.
type unknownOutcomeError struct {
	op    string
	cause error
}

// Error names the request, the unknown outcome and its cause.
func (e *unknownOutcomeError) Error() string {
	return fmt.Sprintf("%s: %v: %v", e.op, ErrUnknownOutcome, e.cause)
}

// Is matches ErrUnknownOutcome.
func (e *unknownOutcomeError) Is(target error) bool { return target == ErrUnknownOutcome }

// Unwrap returns the cause (a network error, an *APIError or a context error).
func (e *unknownOutcomeError) Unwrap() error { return e.cause }

func asAPIError(err error, target **APIError) bool { return errors.As(err, target) }

func isEOF(err error) bool { return errors.Is(err, io.EOF) }

func isTooLong(err error) bool { return errors.Is(err, ErrLineTooLong) }
