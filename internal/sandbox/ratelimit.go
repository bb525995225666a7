package sandbox

import (
	"math"
	"net"
	"net/http"
	"sync"
	"time"
)

// lila's request limits on the endpoints bots use (docs/sandbox.md
// "Request limits"). Each is a lila.memo.RateLimit (modules/memo/src/main/
// RateLimit.scala): a key has credits per window; the window opens with
// the key's first request and clears window later; a request whose cost
// exceeds what is left is refused until then. lila answers such a request
// with its controller's `rateLimited(msg)` (lila.web ResponseBuilder): 429
// {"error":msg}, with no ratelimit object and no Retry-After header.

// rateLimitedMsg is lila's default message (ResponseBuilder.rateLimitedMsg).
const rateLimitedMsg = "Too many requests. Try again later."

// limitSpec is one limit as lila declares it (lila.web.Limiters).
type limitSpec struct {
	key     string // lila's key
	credits int
	window  time.Duration
}

// The limits, from modules/web/src/main/Limiters.scala.
var (
	// eventStream: RateLimit[Bearer](30, 10.minutes) in Api.eventStream.
	limitEventStream = limitSpec{"api.stream.event.bearer", 30, 10 * time.Minute}
	// apiMe: RateLimit[UserId](30, 5.minutes) in Account.apiMe.
	limitAPIMe = limitSpec{"api.account.user", 30, 5 * time.Minute}
	// challenge: RateLimit[IpAddress](500, 10.minute) in Challenge.apiCreate.
	limitChallengeIP = limitSpec{"challenge.create.ip", 500, 10 * time.Minute}
	// challengeUser: RateLimit.composite[UserId] ("fast", 5*5, 1.minute),
	// ("slow", 40*5, 1.day) in Challenge.apiCreate: a challenge to a bot
	// costs 1, to a human 5 (0 to a friend or for an API hog: the sandbox
	// has neither).
	limitChallengeUserFast = limitSpec{"challenge.create.user.fast", 25, time.Minute}
	limitChallengeUserSlow = limitSpec{"challenge.create.user.slow", 200, 24 * time.Hour}
)

// The messages of the limited answers (Api.eventStream, Account.apiMe).
const (
	eventStreamLimitedMsg = "Please don't poll this endpoint, it is intended to be streamed. See https://lichess.org/api#tag/Board/operation/apiStreamEvent."
	apiMeLimitedMsg       = "Please don't poll this endpoint. Stream https://lichess.org/api#tag/Board/operation/apiStreamEvent instead."
)

// rateWindow is one key's use of a limit.
type rateWindow struct {
	used    int
	clearAt time.Time
}

// requestLimits keeps every limit's windows. Its lock is taken after the
// server's, never before it.
type requestLimits struct {
	mu      sync.Mutex
	scale   float64
	windows map[limitSpec]map[string]*rateWindow
}

// newRequestLimits returns the limits scaled by scale (credits multiplied,
// at least 1), or nil (no limit) when scale is not positive.
func newRequestLimits(scale float64) *requestLimits {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil
	}
	return &requestLimits{scale: scale, windows: map[limitSpec]map[string]*rateWindow{}}
}

// credits is spec's credits under the scale.
func (l *requestLimits) credits(spec limitSpec) int {
	return max(int(float64(spec.credits)*l.scale), 1)
}

// allow spends cost on key in every one of specs (lila's composite limits
// spend on all or none) and reports whether it could; a nil l allows
// everything, a zero cost is always allowed.
func (l *requestLimits) allow(now time.Time, key string, cost int, specs ...limitSpec) bool {
	if l == nil || cost <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ws := make([]*rateWindow, len(specs))
	for i, spec := range specs {
		byKey := l.windows[spec]
		if byKey == nil {
			byKey = map[string]*rateWindow{}
			l.windows[spec] = byKey
		}
		w := byKey[key]
		if w == nil || !now.Before(w.clearAt) {
			w = &rateWindow{clearAt: now.Add(spec.window)}
			byKey[key] = w
		}
		if w.used+cost > l.credits(spec) {
			return false
		}
		ws[i] = w
	}
	for _, w := range ws {
		w.used += cost
	}
	return true
}

// rateLimited answers lila's 429 when key may not spend cost on specs,
// and reports whether it did.
func (s *Server) rateLimited(w http.ResponseWriter, msg, key string, cost int, specs ...limitSpec) bool {
	if s.limits.allow(s.now(), key, cost, specs...) {
		return false
	}
	writeError(w, http.StatusTooManyRequests, msg)
	return true
}

// challengeCost is what a challenge to dest costs in challengeUser.
func challengeCost(dest *account) int {
	if dest.Bot {
		return 1
	}
	return 5
}

// remoteIP is the request's client address without its port.
func remoteIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
