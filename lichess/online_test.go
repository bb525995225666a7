package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestExplorerSpecExample and TestTablebaseSpecExample decode the spec's
// example answers into the wire types.
func TestExplorerSpecExample(t *testing.T) {
	var ex Explorer
	strictUnmarshal(t, "openingExplorer-lichess", exampleJSON(t, "openingExplorer-lichess.json.yaml"), &ex)
	if ex.White == 0 || len(ex.Moves) == 0 || ex.Moves[0].UCI != "c6d5" || ex.Moves[0].Games() != 4517660+450366+4016728 {
		t.Errorf("decoded %+v", ex)
	}
	var ms Explorer
	strictUnmarshal(t, "openingExplorer-masters", exampleJSON(t, "openingExplorer-masters.json.yaml"), &ms)
	if len(ms.Moves) == 0 || ms.Moves[0].UCI == "" {
		t.Errorf("decoded %+v", ms)
	}
}

func TestTablebaseSpecExample(t *testing.T) {
	var tb Tablebase
	strictUnmarshal(t, "TablebaseJson example", specJSON(t, "schemas/TablebaseJson.yaml", "example"), &tb)
	if tb.Category != TBWin || tb.DTM == nil || *tb.DTM != 17 || len(tb.Moves) != 1 {
		t.Fatalf("decoded %+v", tb)
	}
	m := tb.Moves[0]
	if m.UCI != "h7h8q" || m.Category != TBLoss || *m.DTZ != -2 || !m.Zeroing {
		t.Errorf("move %+v", m)
	}
}

// TestTablebaseRateLimitBackoff: a 429 stops every request to the host
// for at least a minute (longer when Retry-After says so), on the injected
// clock, then requests flow again.
func TestTablebaseRateLimitBackoff(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		want       time.Duration
	}{
		{"no header", "", time.Minute},
		{"shorter header", "5", time.Minute},
		{"longer header", "90", 90 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var hits, limited atomic.Int32
			limited.Store(1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				if limited.Load() == 1 {
					if tc.retryAfter != "" {
						w.Header().Set("Retry-After", tc.retryAfter)
					}
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				_, _ = w.Write([]byte(`{"category":"draw","moves":[]}`))
			}))
			defer srv.Close()
			clock := NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			s, err := NewService(ServiceOptions{BaseURL: srv.URL, Clock: clock})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Tablebase(context.Background(), "8/8/8/8/8/8/8/K1k5 w - - 0 1")
			var ae *APIError
			if !errors.As(err, &ae) || !errors.Is(err, ErrRateLimited) || ae.RetryAfter != tc.want {
				t.Fatalf("first ask: %v, want a 429 locking out for %s", err, tc.want)
			}
			limited.Store(0)
			clock.Advance(tc.want - time.Second)
			if _, err := s.Tablebase(context.Background(), "8/8/8/8/8/8/8/K1k5 w - - 0 1"); !errors.Is(err, ErrRateLimited) || hits.Load() != 1 {
				t.Fatalf("during the lockout: %v after %d hits, want refused without asking", err, hits.Load())
			}
			clock.Advance(time.Second)
			if _, err := s.Tablebase(context.Background(), "8/8/8/8/8/8/8/K1k5 w - - 0 1"); err != nil || hits.Load() != 2 {
				t.Fatalf("after the lockout: %v after %d hits", err, hits.Load())
			}
		})
	}
}

// TestExplorerTimeout: a host that does not answer costs the caller its
// own deadline, no more; the handler is released by the test.
func TestExplorerTimeout(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s, err := NewService(ServiceOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Explorer(ctx, ExplorerQuery{DB: ExplorerLichess, Speeds: []string{"blitz"}})
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the context's cancellation", err)
	}
}

// TestExplorerQuery checks the parameters sent for each database.
func TestExplorerQuery(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.URL.Path + "?" + r.URL.RawQuery
		_, _ = w.Write([]byte(`{"white":0,"draws":0,"black":0,"moves":[]}`))
	}))
	defer srv.Close()
	s, err := NewService(ServiceOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    ExplorerQuery
		want string
	}{
		{ExplorerQuery{FEN: "x", Play: []string{"e2e4", "e7e5"}}, "/masters?fen=x&play=e2e4%2Ce7e5&topGames=0"},
		{ExplorerQuery{DB: ExplorerLichess, FEN: "x", Speeds: []string{"blitz", "rapid"}, Ratings: []int{1600, 1800}},
			"/lichess?fen=x&ratings=1600%2C1800&recentGames=0&speeds=blitz%2Crapid&topGames=0"},
	}
	for _, tc := range tests {
		if _, err := s.Explorer(context.Background(), tc.q); err != nil {
			t.Fatal(err)
		}
		if g := <-got; g != tc.want {
			t.Errorf("sent %s, want %s", g, tc.want)
		}
	}
	if _, err := s.Explorer(context.Background(), ExplorerQuery{Variant: "atomic"}); err == nil {
		t.Error("masters asked for atomic games")
	}
	if _, err := s.Explorer(context.Background(), ExplorerQuery{DB: "player"}); err == nil {
		t.Error("an unknown database was accepted")
	}
}

// FuzzExplorerJSON and FuzzTablebaseJSON: any answer decodes or fails
// cleanly, and what decodes re-encodes.
func FuzzExplorerJSON(f *testing.F) {
	f.Add([]byte(`{"white":1,"draws":2,"black":3,"moves":[{"uci":"e2e4","san":"e4","averageRating":1800,"white":1,"draws":0,"black":0}]}`))
	f.Add([]byte(`{"moves":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ex Explorer
		if json.Unmarshal(data, &ex) != nil {
			return
		}
		for _, m := range ex.Moves {
			_ = m.Games()
		}
		if _, err := json.Marshal(ex); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzTablebaseJSON(f *testing.F) {
	f.Add([]byte(`{"category":"win","dtz":1,"dtm":17,"moves":[{"uci":"h7h8q","category":"loss","dtz":-2,"dtm":-16,"zeroing":true}]}`))
	f.Add([]byte(`{"category":"unknown","moves":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var tb Tablebase
		if json.Unmarshal(data, &tb) != nil {
			return
		}
		if _, err := json.Marshal(tb); err != nil {
			t.Fatal(err)
		}
	})
}
