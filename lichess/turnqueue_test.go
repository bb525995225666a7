package lichess

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func TestUrgentPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/api/bot/game/abcdefgh/move/e2e4":     true,
		"/api/board/game/abcdefgh/move/e7e8q":  true,
		"/api/bot/game/abcdefgh/abort":         true,
		"/api/bot/game/abcdefgh/resign":        true,
		"/api/bot/game/abcdefgh/draw/yes":      true,
		"/api/bot/game/abcdefgh/claim-victory": true,
		"/api/board/game/abcdefgh/claim-draw":  true,
		"/api/bot/game/stream/abcdefgh":        true,
		"/api/bot/game/abcdefgh/chat":          false,
		"/api/board/game/abcdefgh/chat":        false,
		"/api/bot/game/abcdefgh":               false,
		"/api/bot/game//move/e2e4":             false,
		"/api/stream/event":                    false,
		"/api/challenge/abcdefgh/accept":       false,
		"/game/export/abcdefgh":                false,
		"/api/account":                         false,
		"/api/bot/online":                      false,
	} {
		if got := urgentPath(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

// unblocker returns the function that closes ch, a channel fake handlers
// wait on; the test's cleanup calls it too (call unblocker after newFake,
// so that this runs before the fake server shuts down), so that a failing
// test does not hang on a blocked handler.
func unblocker(t *testing.T, ch chan struct{}) func() {
	var once sync.Once
	unblock := func() { once.Do(func() { close(ch) }) }
	t.Cleanup(unblock)
	return unblock
}

// transportOf returns the client's turn-keeping transport.
func transportOf(c *Client) *turnTransport { return c.hc.Transport.(*turnTransport) }

// waitQueued waits until the turn has the given numbers of waiters.
func waitQueued(t *testing.T, tt *turnTransport, urgent, regular int) {
	t.Helper()
	waitFor(t, func() bool { u, r := tt.q.waiting(); return u == urgent && r == regular })
}

// With the turn busy and ordinary requests waiting, a move is served next,
// and the ordinary requests then in their order: one at a time throughout.
func TestMoveJumpsTheQueue(t *testing.T) {
	checkGoroutines(t)
	block := make(chan struct{})
	var mu sync.Mutex
	var order []string
	inFlight, maxInFlight := 0, 0
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		order = append(order, r.Method+" "+r.URL.Path)
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		first := len(order) == 1
		mu.Unlock()
		if first {
			<-block
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		fakeAnswers(w, r)
	})
	unblock := unblocker(t, block)
	c, _ := newTestClient(t, f.URL)
	tt := transportOf(c)
	ctx := ctxT(t)
	errs := make(chan error, 6)
	go func() { _, err := c.ExportGame(ctx, "abcdefgh", ExportOptions{}); errs <- err }()
	waitFor(t, func() bool { return f.count() == 1 })
	go func() { errs <- c.Bot().Chat(ctx, "abcdefgh", RoomPlayer, "hello") }()
	waitQueued(t, tt, 0, 1)
	go func() { errs <- c.AcceptChallenge(ctx, "chal1234", "") }()
	waitQueued(t, tt, 0, 2)
	go func() { _, err := c.Account(ctx); errs <- err }()
	waitQueued(t, tt, 0, 3)
	go func() { errs <- c.Bot().Move(ctx, "abcdefgh", "e2e4", false) }()
	waitQueued(t, tt, 1, 3)
	go func() { errs <- c.Bot().Resign(ctx, "ijklmnop") }()
	waitQueued(t, tt, 2, 3)
	unblock()
	for range 6 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"GET /game/export/abcdefgh",
		"POST /api/bot/game/abcdefgh/move/e2e4",
		"POST /api/bot/game/ijklmnop/resign",
		"POST /api/bot/game/abcdefgh/chat",
		"POST /api/challenge/chal1234/accept",
		"GET /api/account",
	}
	if got := strings.Join(order, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("order:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if maxInFlight != 1 {
		t.Fatalf("%d requests in flight at once", maxInFlight)
	}
}

// However many urgent requests keep coming, a waiting ordinary request is
// served after at most maxUrgentRun of them.
func TestTurnQueueBoundsOvertaking(t *testing.T) {
	var q turnQueue
	ctx := ctxT(t)
	if err := q.acquire(ctx, false); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	enqueue := func(name string, urgent bool, u, r int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := q.acquire(ctx, urgent); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			q.release()
		}()
		waitFor(t, func() bool { gu, gr := q.waiting(); return gu == u && gr == r })
	}
	enqueue("r1", false, 0, 1)
	enqueue("r2", false, 0, 2)
	for i := range 10 {
		enqueue(fmt.Sprintf("u%d", i), true, i+1, 2)
	}
	q.release()
	wg.Wait()
	got := strings.Join(order, " ")
	if want := "u0 u1 u2 u3 r1 u4 u5 u6 u7 r2 u8 u9"; got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
	// Idle again: the next request gets the turn at once.
	if err := q.acquire(ctx, false); err != nil {
		t.Fatal(err)
	}
	q.release()
}

// A request whose context ends while it waits leaves the queue without the
// turn, and the turn goes on to the others.
func TestTurnQueueCancel(t *testing.T) {
	var q turnQueue
	if err := q.acquire(ctxT(t), false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- q.acquire(ctx, true) }()
	waitFor(t, func() bool { u, _ := q.waiting(); return u == 1 })
	next := make(chan error)
	go func() { next <- q.acquire(ctxT(t), false) }()
	waitFor(t, func() bool { _, r := q.waiting(); return r == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if u, r := q.waiting(); u != 0 || r != 1 {
		t.Fatalf("waiting %d urgent, %d regular", u, r)
	}
	q.release()
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	q.release()
}

// Grants racing with cancellations never lose the turn or give it twice.
func TestTurnQueueCancelRace(t *testing.T) {
	var q turnQueue
	var holders, maxHolders int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%7)*50*time.Microsecond)
			defer cancel()
			if q.acquire(ctx, i%3 == 0) != nil {
				return
			}
			mu.Lock()
			holders++
			maxHolders = max(maxHolders, holders)
			mu.Unlock()
			time.Sleep(20 * time.Microsecond)
			mu.Lock()
			holders--
			mu.Unlock()
			q.release()
		}()
	}
	wg.Wait()
	if maxHolders != 1 {
		t.Fatalf("%d holders at once", maxHolders)
	}
	if err := q.acquire(ctxT(t), false); err != nil {
		t.Fatal(err) // the turn was lost
	}
	q.release()
}

// A 429 met by the request in flight locks out the move waiting behind it:
// the move is not sent until the lockout ends.
func TestLockoutHoldsQueuedMove(t *testing.T) {
	checkGoroutines(t)
	block := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "GET" {
			<-block
			writeJSON(w, 429, `{"error":"Too many requests"}`)
			return
		}
		okHandler(w, r)
	})
	unblock := unblocker(t, block)
	clk := NewManualClock(t0)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk })
	ctx := ctxT(t)
	exported := make(chan error, 1)
	go func() { _, err := c.Account(ctx); exported <- err }()
	waitFor(t, func() bool { return f.count() == 1 })
	moved := make(chan error, 1)
	go func() { moved <- c.Bot().Move(ctx, "abcdefgh", "e2e4", false) }()
	waitQueued(t, transportOf(c), 1, 0)
	unblock()
	if err := <-exported; !errors.Is(err, ErrRateLimited) {
		t.Fatalf("account: %v", err)
	}
	sentAfterLockout(t, f, clk, 60*time.Second, moved) // the move waits out the lockout
}

// BenchmarkMoveBehindQueue measures how long a move takes when it is
// sent while a chat line is in flight and seven more wait for the turn,
// against a server that spends 1 ms on each chat line: about one chat
// line's time (the one in flight), not eight (move-ms; chats-ms is how
// long the eight chat lines took in all).
//
//	go test ./lichess -run '^$' -bench MoveBehindQueue -benchtime 20x
func BenchmarkMoveBehindQueue(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat") {
			time.Sleep(time.Millisecond)
		}
		okHandler(w, r)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, Token: testToken, Logger: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := b.Context()
	tt := transportOf(c)
	var moveTime, chatTime time.Duration
	for b.Loop() {
		var wg sync.WaitGroup
		start := time.Now()
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.Bot().Chat(ctx, "abcdefgh", RoomPlayer, fmt.Sprint("line ", i)); err != nil {
					b.Error(err)
				}
			}()
		}
		for _, r := tt.q.waiting(); r < 7; _, r = tt.q.waiting() {
			runtime.Gosched()
		}
		t := time.Now()
		if err := c.Bot().Move(ctx, "abcdefgh", "e2e4", false); err != nil {
			b.Fatal(err)
		}
		moveTime += time.Since(t)
		wg.Wait()
		chatTime += time.Since(start)
	}
	b.ReportMetric(float64(moveTime.Microseconds())/1000/float64(b.N), "move-ms")
	b.ReportMetric(float64(chatTime.Microseconds())/1000/float64(b.N), "chats-ms")
}
