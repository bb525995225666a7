package verify

import (
	"errors"
	"net/http"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// Permanent reports whether err is an answer that asking again cannot
// change: an HTTP 4xx other than 408 (request timeout) and 429 (rate
// limited) — 404 game not found, 400 bad request, 401 bad token, 403
// forbidden, 410 gone. Such a verification ends at once (store.VerifyFailed
// with the reason) instead of being polled for the whole window. Network
// errors, 5xx answers and 429s are transient: polled again with back-off.
func Permanent(err error) bool {
	var ae *lichess.APIError
	if !errors.As(err, &ae) {
		return false
	}
	return ae.Status >= 400 && ae.Status < 500 &&
		ae.Status != http.StatusRequestTimeout && ae.Status != http.StatusTooManyRequests
}

// retryAfter returns the earliest time the server allows the next request
// after err: now plus its Retry-After (an *lichess.APIError's RetryAfter),
// or the zero time when it named none.
func retryAfter(err error, now time.Time) time.Time {
	var ae *lichess.APIError
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		return now.Add(ae.RetryAfter)
	}
	return time.Time{}
}
