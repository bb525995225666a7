package lichess

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// conn scripts one stream connection: lines to send (flushed one by one),
// then either close (hang=false) or keep the connection open silently.
type conn struct {
	status int
	lines  []string
	hang   bool
}

// scripted serves the i-th connection from conns (the last one repeats).
func scripted(conns ...conn) (http.HandlerFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(conns) {
			i = len(conns) - 1
		}
		cn := conns[i]
		if cn.status != 0 && cn.status != 200 {
			writeJSON(w, cn.status, `{"error":"scripted failure"}`)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(200)
		for _, l := range cn.lines {
			io.WriteString(w, l+"\n")
			w.(http.Flusher).Flush()
		}
		if cn.hang {
			<-r.Context().Done()
		}
	}, &n
}

const (
	fullStarted = `{"type":"gameFull","id":"abcdefgh","white":{"id":"bot1","name":"Bot1"},"black":{"id":"alice","name":"Alice"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4","wtime":60000,"btime":60000,"winc":0,"binc":0,"status":"started"}}`
	fullMoved   = `{"type":"gameFull","id":"abcdefgh","white":{"id":"bot1","name":"Bot1"},"black":{"id":"alice","name":"Alice"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 e7e5","wtime":60000,"btime":60000,"winc":0,"binc":0,"status":"started"}}`
	stateMoved  = `{"type":"gameState","moves":"e2e4 e7e5","wtime":59000,"btime":60000,"winc":0,"binc":0,"status":"started"}`
	stateMate   = `{"type":"gameState","moves":"f2f3 e7e5 g2g4 d8h4","wtime":59000,"btime":60000,"winc":0,"binc":0,"status":"mate","winner":"black"}`
	fullOver    = `{"type":"gameFull","id":"abcdefgh","state":{"type":"gameState","moves":"e2e4","status":"resign","winner":"white"}}`
)

// collect reads a stream to its end and returns the event types.
func collect[E interface{ EventType() string }](t *testing.T, s *Stream[E]) []string {
	t.Helper()
	var types []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				return types
			}
			types = append(types, ev.EventType())
		case <-timeout:
			t.Fatalf("stream did not end; got %v", types)
		}
	}
}

func TestEventStreamSkipsNoise(t *testing.T) {
	checkGoroutines(t)
	h, _ := scripted(conn{lines: []string{
		"", "",
		`{"type":"challenge","challenge":{"id":"c1","challenger":{"id":"alice","name":"Alice"},"variant":{"key":"standard"},"timeControl":{"type":"clock","limit":60,"increment":0}}}`,
		`this is not json`,
		`{"type":"gameStart","game":{"gameId":"abcdefgh","fullId":"abcdefgh1234","status":{"id":20,"name":"started"}}}`,
		`{"no":"type"}`,
		`{"type":"challenge","challenge":` + strings.Repeat(" ", 3000) + `{}}`,
		"",
		`{"type":"somethingNew"}`,
		`{"type":"gameFinish","game":{"gameId":"abcdefgh","fullId":"abcdefgh1234","status":{"id":30,"name":"mate"}}}`,
	}, hang: true})
	f := newFake(t, h)
	c, logs := newTestClient(t, f.URL, func(o *Options) { o.MaxLineBytes = 1024 })
	s, err := c.StreamEvents(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	for len(got) < 4 {
		got = append(got, <-s.Events())
	}
	s.Close()
	if s.Err() != nil {
		t.Fatalf("Err after Close = %v", s.Err())
	}
	if ce, ok := got[0].(*ChallengeEvent); !ok || ce.Challenge.ID != "c1" || ce.Challenge.TimeControl.Limit != 60 {
		t.Fatalf("event 0: %#v", got[0])
	}
	if gs, ok := got[1].(*GameStartEvent); !ok || gs.Game.GameID != "abcdefgh" || gs.Game.Status != StatusStarted {
		t.Fatalf("event 1: %#v", got[1])
	}
	if u, ok := got[2].(*UnknownEvent); !ok || u.Type != "somethingNew" {
		t.Fatalf("event 2: %#v", got[2])
	}
	if gf, ok := got[3].(*GameFinishEvent); !ok || gf.Game.Status != StatusMate {
		t.Fatalf("event 3: %#v", got[3])
	}
	st := s.Stats()
	if st.Malformed != 2 || st.TooLong != 1 || st.Reconnects != 0 || st.Events != 4 {
		t.Fatalf("stats %+v", st)
	}
	if !strings.Contains(logs.String(), "skipping malformed line") || !strings.Contains(logs.String(), "over-long") {
		t.Errorf("skipped lines not logged:\n%s", logs.String())
	}
	if _, ok := <-s.Events(); ok {
		t.Fatal("Events not closed after Close")
	}
}

func TestGameStreamReconnectsAfterDrop(t *testing.T) {
	checkGoroutines(t)
	h, n := scripted(
		conn{lines: []string{fullStarted, "", `{"type":"chatLine","room":"player","username":"alice","text":"hi"}`}}, // dropped
		conn{status: 502}, // a failed reconnection attempt
		conn{lines: []string{fullMoved, `{"type":"opponentGone","gone":true,"claimWinInSeconds":10}`, stateMate, stateMoved}, hang: true},
	)
	f := newFake(t, h)
	c, logs := newTestClient(t, f.URL)
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	var evs []GameEvent
	for ev := range s.Events() {
		evs = append(evs, ev)
	}
	var types []string
	for _, ev := range evs {
		types = append(types, ev.EventType())
	}
	want := "gameFull,chatLine,reconnected,gameFull,opponentGone,gameState"
	if strings.Join(types, ",") != want {
		t.Fatalf("events %v, want %s", types, want)
	}
	rc := evs[2].(*Reconnected)
	if rc.Attempt != 1 || !errors.Is(rc.Cause, ErrStreamClosed) {
		t.Fatalf("reconnected %+v", rc)
	}
	if evs[3].(*GameFull).State.Ply() != 2 {
		t.Fatal("second gameFull is not the fresh one")
	}
	if s.Err() != nil {
		t.Fatalf("game over should end the stream cleanly, got %v", s.Err())
	}
	if n.Load() != 3 || s.Stats().Reconnects != 1 {
		t.Fatalf("%d connections, stats %+v", n.Load(), s.Stats())
	}
	if !strings.Contains(logs.String(), "reconnecting") {
		t.Error("reconnect not logged")
	}
}

func TestGameStreamWatchdog(t *testing.T) {
	checkGoroutines(t)
	h, n := scripted(
		conn{lines: []string{fullStarted, ""}, hang: true}, // then silence
		conn{lines: []string{fullOver}, hang: true},
	)
	f := newFake(t, h)
	clk := NewManualClock(t0)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk; o.StreamTimeout = 20 * time.Second })
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-s.Events(); ev.EventType() != "gameFull" {
		t.Fatalf("first event %v", ev.EventType())
	}
	// The watchdog arms one timer per wait for a line: for the gameFull
	// line, the keep-alive line and the silence after it (a timer it
	// stops waiting on stays pending on the manual clock). Three pending
	// timers: the keep-alive line has been read.
	waitPending(t, clk, 3)
	// Just under the timeout nothing happens: no timer fires (a fired
	// timer leaves the pending list within Advance).
	clk.Advance(19 * time.Second)
	if p := clk.Pending(); p != 3 || n.Load() != 1 {
		t.Fatalf("before the timeout: %d timers fired, %d connections", 3-p, n.Load())
	}
	clk.Advance(2 * time.Second)
	rest := collect(t, s)
	if strings.Join(rest, ",") != "reconnected,gameFull" {
		t.Fatalf("events after the stall: %v", rest)
	}
	if n.Load() != 2 || s.Err() != nil {
		t.Fatalf("%d connections, err %v", n.Load(), s.Err())
	}
}

func TestStreamKeepAlivesFeedTheWatchdog(t *testing.T) {
	checkGoroutines(t)
	// Keep-alives every 30 ms for 750 ms with a 300 ms timeout: no
	// reconnection.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		io.WriteString(w, fullStarted+"\n")
		w.(http.Flusher).Flush()
		tick := time.NewTicker(30 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < 25; i++ {
			select {
			case <-tick.C:
				io.WriteString(w, "\n")
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
		io.WriteString(w, stateMate+"\n")
	})
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.StreamTimeout = 300 * time.Millisecond })
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(collect(t, s), ","); got != "gameFull,gameState" {
		t.Fatalf("events %s", got)
	}
	if f.count() != 1 {
		t.Fatalf("%d connections", f.count())
	}
}

func TestGameStreamEndsWhenAlreadyOver(t *testing.T) {
	h, n := scripted(conn{lines: []string{fullOver}, hang: true})
	f := newFake(t, h)
	c, _ := newTestClient(t, f.URL)
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, s); len(got) != 1 || s.Err() != nil || n.Load() != 1 {
		t.Fatalf("events %v err %v conns %d", got, s.Err(), n.Load())
	}
}

func TestGameStreamNotFound(t *testing.T) {
	h, _ := scripted(conn{status: 404})
	f := newFake(t, h)
	c, _ := newTestClient(t, f.URL)
	_, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if f.count() != 1 {
		t.Fatalf("404 retried: %d", f.count())
	}

	// A 404 on reconnection ends the stream with that error.
	h2, _ := scripted(conn{lines: []string{fullStarted}}, conn{status: 404})
	f.setHandler(h2)
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, s)
	if len(got) != 1 || !errors.Is(s.Err(), ErrNotFound) {
		t.Fatalf("events %v err %v", got, s.Err())
	}
}

func TestStreamFirstConnectRetriesServerErrors(t *testing.T) {
	h, n := scripted(conn{status: 503}, conn{status: 500}, conn{lines: []string{fullOver}})
	f := newFake(t, h)
	c, _ := newTestClient(t, f.URL)
	s, err := c.Bot().StreamGame(ctxT(t), "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	collect(t, s)
	if n.Load() != 3 {
		t.Fatalf("%d connections", n.Load())
	}
}

func TestStreamContextCancel(t *testing.T) {
	checkGoroutines(t)
	h, _ := scripted(conn{lines: []string{fullStarted}, hang: true})
	f := newFake(t, h)
	c, _ := newTestClient(t, f.URL)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := c.Bot().StreamGame(ctx, "abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	<-s.Events()
	cancel()
	collect(t, s)
	<-s.Done()
	if !errors.Is(s.Err(), context.Canceled) {
		t.Fatalf("err = %v", s.Err())
	}
}

func TestStreamUnauthorizedIsFatal(t *testing.T) {
	h, _ := scripted(conn{status: 401})
	f := newFake(t, h)
	c, _ := newTestClient(t, f.URL)
	_, err := c.StreamEvents(ctxT(t))
	noToken(t, err)
	if !errors.Is(err, ErrUnauthorized) || f.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, f.count())
	}
}
