package lichess

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// failFirst answers the first n requests with status, then defers to next.
func failFirst(n int32, status int, next http.HandlerFunc) http.HandlerFunc {
	var seen atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= n {
			writeJSON(w, status, `{"error":"upstream trouble"}`)
			return
		}
		next(w, r)
	}
}

// dropFirst closes the connection without an answer for the first n
// requests (after reading them), then defers to next.
func dropFirst(n int32, next http.HandlerFunc) http.HandlerFunc {
	var seen atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= n {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		next(w, r)
	}
}

func TestRetryServerErrors(t *testing.T) {
	f := newFake(t, failFirst(2, 503, fakeAnswers))
	c, logs := newTestClient(t, f.URL)
	if _, err := c.Account(ctxT(t)); err != nil {
		t.Fatalf("not retried: %v", err)
	}
	if f.count() != 3 {
		t.Fatalf("%d requests, want 3", f.count())
	}
	if !strings.Contains(logs.String(), "retrying request") {
		t.Error("retries not logged")
	}
}

func TestRetryGivesUp(t *testing.T) {
	f := newFake(t, failFirst(100, 502, okHandler))
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.RetryMax = 2 })
	err := c.Bot().Resign(ctxT(t), "abcdefgh")
	var apiErr *APIError
	if !errors.Is(err, ErrServer) || !errors.As(err, &apiErr) || apiErr.Status != 502 || apiErr.Message != "upstream trouble" {
		t.Fatalf("err = %v", err)
	}
	if errors.Is(err, ErrUnknownOutcome) {
		t.Fatal("resign is idempotent; outcome should not be 'unknown'")
	}
	if f.count() != 3 {
		t.Fatalf("%d requests, want 3", f.count())
	}
}

func TestNoRetryOnClientErrors(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 429, 501} {
		f := newFake(t, failFirst(100, status, okHandler))
		c, _ := newTestClient(t, f.URL)
		err := c.Bot().Abort(ctxT(t), "abcdefgh")
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.Status != status {
			t.Errorf("%d: err = %v", status, err)
		}
		if f.count() != 1 {
			t.Errorf("%d: %d requests", status, f.count())
		}
	}
}

func TestSentinels(t *testing.T) {
	cases := map[int]error{400: ErrBadRequest, 401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 429: ErrRateLimited, 500: ErrServer, 503: ErrServer}
	all := []error{ErrBadRequest, ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited, ErrServer}
	for status, want := range cases {
		e := &APIError{Status: status}
		for _, s := range all {
			if errors.Is(e, s) != (s == want) {
				t.Errorf("%d Is %v = %v", status, s, !(s == want))
			}
		}
	}
}

func TestRetryDroppedConnection(t *testing.T) {
	f := newFake(t, dropFirst(1, okHandler))
	c, _ := newTestClient(t, f.URL)
	if err := c.Bot().Resign(ctxT(t), "abcdefgh"); err != nil {
		t.Fatalf("idempotent request not retried after a drop: %v", err)
	}
	if f.count() != 2 {
		t.Fatalf("%d requests", f.count())
	}
}

func TestMoveIsNotResent(t *testing.T) {
	faults := []struct {
		name string
		mk   func() http.HandlerFunc
	}{
		{"answer lost", func() http.HandlerFunc { return dropFirst(1, fakeAnswers) }},
		{"502", func() http.HandlerFunc { return failFirst(1, 502, fakeAnswers) }},
		{"500", func() http.HandlerFunc { return failFirst(1, 500, fakeAnswers) }},
	}
	calls := []struct {
		name string
		call func(c *Client) error
	}{
		{"move", func(c *Client) error { return c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false) }},
		{"board move", func(c *Client) error { return c.Board().Move(ctxT(t), "abcdefgh", "e2e4", true) }},
		{"chat", func(c *Client) error { return c.Bot().Chat(ctxT(t), "abcdefgh", RoomPlayer, "hi") }},
		{"challenge", func(c *Client) error {
			_, err := c.CreateChallenge(ctxT(t), "alice", ChallengeParams{Clock: &ChallengeClock{Limit: 60}})
			return err
		}},
	}
	for _, fault := range faults {
		for _, call := range calls {
			t.Run(fault.name+"/"+call.name, func(t *testing.T) {
				f := newFake(t, fault.mk())
				c, _ := newTestClient(t, f.URL)
				err := call.call(c)
				noToken(t, err)
				if !errors.Is(err, ErrUnknownOutcome) {
					t.Fatalf("err = %v, want ErrUnknownOutcome", err)
				}
				if f.count() != 1 {
					t.Fatalf("sent %d times", f.count())
				}
			})
		}
	}
}

func TestMoveRetriedWhenSurelyUnsent(t *testing.T) {
	// Nothing listens on the port: the connection is refused, so the move
	// never left and may be retried; the error is not "unknown outcome".
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, logs := newTestClient(t, "http://"+addr, func(o *Options) { o.RetryMax = 2 })
	err = c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false)
	if err == nil || errors.Is(err, ErrUnknownOutcome) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(logs.String(), `"attempt":3`) {
		t.Errorf("refused connection not retried:\n%s", logs.String())
	}
}

func TestMoveRejected(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"error":"Not your turn, or game already over"}`)
	})
	c, _ := newTestClient(t, f.URL)
	err := c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false)
	var apiErr *APIError
	if !errors.Is(err, ErrBadRequest) || !errors.As(err, &apiErr) || apiErr.Message != "Not your turn, or game already over" {
		t.Fatalf("err = %v", err)
	}
	if errors.Is(err, ErrUnknownOutcome) {
		t.Fatal("a refused move has a known outcome")
	}
}

// TestFormErrorMessage: Lichess's per-field form errors (the fields, and
// the same object under "error") read as "field: message" in the error.
func TestFormErrorMessage(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"clock.limit":["Invalid value"],"days":["Invalid value","x"],"error":{"days":["Invalid value","x"],"clock.limit":["Invalid value"]}}`)
	})
	c, _ := newTestClient(t, f.URL)
	_, err := c.CreateChallenge(ctxT(t), "alice", ChallengeParams{Days: 3})
	var apiErr *APIError
	if !errors.Is(err, ErrBadRequest) || !errors.As(err, &apiErr) || apiErr.Message != "clock.limit: Invalid value; days: Invalid value, x" {
		t.Fatalf("err = %v", err)
	}
}

func TestMoveCancelledInFlight(t *testing.T) {
	arrived := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	})
	c, _ := newTestClient(t, f.URL)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	err := c.Bot().Move(ctx, "abcdefgh", "e2e4", false)
	if !errors.Is(err, ErrUnknownOutcome) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if f.count() != 1 {
		t.Fatalf("%d requests", f.count())
	}
}
