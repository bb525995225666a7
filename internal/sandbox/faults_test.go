package sandbox

import (
	"io"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestParseFault checks the --fault syntax.
func TestParseFault(t *testing.T) {
	tests := []struct {
		spec string
		want Fault
		err  string
	}{
		{"drop", Fault{Kind: FaultDrop}, ""},
		{"drop:path=/api/bot/game/stream/,after=2,times=1", Fault{Kind: FaultDrop, Path: "/api/bot/game/stream/", After: 2, Times: 1}, ""},
		{"drop:prob=0.25", Fault{Kind: FaultDrop, Prob: 0.25}, ""},
		{"stall:path=/api/stream/event", Fault{Kind: FaultStall, Path: "/api/stream/event"}, ""},
		{"429:times=2,body=true,seconds=90,key=bot.vsBot.day,retry-after=30s", Fault{Kind: FaultRateLimit, Times: 2,
			RateLimitBody: true, RateLimitSeconds: 90, RateLimitKey: "bot.vsBot.day", RetryAfter: 30 * time.Second}, ""},
		{"5xx:status=503", Fault{Kind: FaultServerError, Status: 503}, ""},
		{"5xx:path=/api/bot/game/x/chat,method=post,status=502", Fault{Kind: FaultServerError, Path: "/api/bot/game/x/chat", Method: "POST", Status: 502}, ""},
		{"5xx:method=FETCH", Fault{}, "method"},
		{"latency:delay=250ms", Fault{Kind: FaultLatency, Delay: 250 * time.Millisecond}, ""},
		{"hold:at-end=true,delay=45s", Fault{Kind: FaultHold, AtGameEnd: true, Delay: 45 * time.Second}, ""},
		{"hold:path=/api/bot/game/,method=POST,times=2,delay=1s", Fault{Kind: FaultHold, Path: "/api/bot/game/", Method: "POST", Times: 2, Delay: time.Second}, ""},
		{"hold", Fault{}, "hold needs delay > 0"},
		{"hold:at-end=sometimes,delay=1s", Fault{}, "bad value"},
		{"initial-fen:fen=4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", Fault{Kind: FaultInitialFEN, FEN: "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"}, ""},
		{"initial-fen", Fault{}, "needs a fen"},
		{"5xx:fen=x", Fault{}, "fen goes with initial-fen"},
		{"5xx:at-end=true", Fault{}, "at-end applies to hold only"},
		{"MALFORMED:after=1", Fault{Kind: FaultMalformed, After: 1}, ""},
		{"boom", Fault{}, "unknown kind"},
		{"drop:after", Fault{}, "not key=value"},
		{"drop:when=now", Fault{}, "unknown key"},
		{"drop:prob=2", Fault{}, "prob 2"},
		{"drop:times=-1", Fault{}, "times -1"},
		{"5xx:status=404", Fault{}, "status 404"},
		{"latency", Fault{}, "delay > 0"},
		{"latency:delay=soon", Fault{}, "bad value"},
		{"429:body=maybe", Fault{}, "bad value"},
	}
	for _, tt := range tests {
		got, err := ParseFault(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %+v, %v", tt.spec, got, err)
			continue
		}
		back, err := ParseFault(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("%q: String round trip %q -> %+v, %v", tt.spec, got.String(), back, err)
		}
	}
}

// FuzzParseFault checks that any spec parses or fails cleanly, and that
// parsed faults round-trip through String.
func FuzzParseFault(f *testing.F) {
	for _, s := range []string{"drop", "stall:after=3", "429:body=true,seconds=5", "5xx:status=502,prob=0.5",
		"latency:delay=1s", "malformed:path=/api,times=2", "hold:at-end=true,delay=45s", "drop:path=a=b", ":", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		got, err := ParseFault(spec)
		if err != nil {
			return
		}
		if strings.ContainsAny(got.Path, ",") {
			return // a path with a comma cannot be written back
		}
		back, err := ParseFault(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("%q -> %q -> %+v, %v", spec, got.String(), back, err)
		}
	})
}

// TestFaultDropAfter drops a game stream after its first line, once.
func TestFaultDropAfter(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	e.srv.Faults().DropAfter("/api/bot/game/stream/", 1, 1)
	s := e.open(tokBot1, "/api/bot/game/stream/"+id)
	if s.next()["type"] != "gameFull" {
		t.Fatal("want gameFull first")
	}
	e.play(id, "e2e4")
	if rest := s.waitEnd(); len(rest) != 0 {
		t.Fatalf("lines after the drop: %v", rest)
	}
	// Disarmed after one drop: the reconnection gets gameFull and moves.
	s = e.open(tokBot1, "/api/bot/game/stream/"+id)
	if full := s.next(); full["state"].(map[string]any)["moves"] != "e2e4" {
		t.Fatalf("reconnect: %v", full)
	}
	e.play(id, "", "e7e5")
	if st := s.next(); st["moves"] != "e2e4 e7e5" {
		t.Fatalf("after reconnect: %v", st)
	}
	if n := e.srv.Faults().Fired(FaultDrop); n != 1 {
		t.Fatalf("fired %d", n)
	}
	// The fault only targets game streams.
	code, _ := e.get(tokBot1, "/api/account")
	if code != 200 {
		t.Fatalf("account: %d", code)
	}
}

// TestFaultDropRandom drops streams at random, reproducibly for a seed.
func TestFaultDropRandom(t *testing.T) {
	drops := func(seed int64) []bool {
		e := newEnv(t, Config{Seed: seed, KeepAlive: time.Minute})
		e.startGame(nil)
		e.srv.Faults().DropRandom("/api/stream/event", 0.5)
		var out []bool
		for range 12 {
			s := e.open(tokBot1, "/api/stream/event")
			rest := s.waitEndOrLine()
			out = append(out, rest)
			s.close()
		}
		return out
	}
	a, b := drops(7), drops(7)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different drops: %v %v", a, b)
	}
	n := 0
	for _, d := range a {
		if d {
			n++
		}
	}
	if n == 0 || n == len(a) {
		t.Fatalf("p=0.5 dropped %d of %d", n, len(a))
	}
}

// waitEndOrLine reports whether the stream ended before giving a line.
func (s *stream) waitEndOrLine() bool {
	select {
	case <-s.lines:
		return false
	case <-s.done:
		select {
		case <-s.lines:
			return false
		default:
			return true
		}
	case <-time.After(waitTimeout):
		s.t.Fatal("neither a line nor the end")
	}
	return false
}

// TestFaultStall stalls the event stream: no lines, no keep-alive.
func TestFaultStall(t *testing.T) {
	e := newEnv(t, Config{KeepAlive: 30 * time.Millisecond})
	e.srv.Faults().Stall("/api/stream/event", 1, 1)
	s := e.open(tokBot1, "/api/stream/event")
	e.challenge(tokAlice, "bot1", url.Values{"days": {"1"}})
	s.nextType("challenge")
	before := s.raw.Load()
	e.challenge(tokAlice, "bot1", url.Values{"days": {"2"}})
	time.Sleep(200 * time.Millisecond)
	if got := s.raw.Load(); got != before || s.ended() {
		t.Fatalf("stalled stream sent %d lines (ended %v)", got-before, s.ended())
	}
	// A new connection is served normally (the fault fired once).
	s2 := e.open(tokBot1, "/api/stream/event")
	s2.nextType("challenge")
	s2.nextType("challenge")
	s2.nextKeepAlive() // the healthy stream has its keep-alive lines
}

// TestFaultMalformed injects a malformed line; the real lines still follow.
func TestFaultMalformed(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	e.srv.Faults().Malformed("/api/board/game/stream/", 1, 0)
	s := e.open(tokAlice, "/api/board/game/stream/"+id)
	if s.next()["type"] != "gameFull" {
		t.Fatal("gameFull first")
	}
	e.play(id, "e2e4")
	if l := s.nextLine(); l != malformedLine {
		t.Fatalf("want the malformed line, got %q", l)
	}
	if st := s.next(); st["moves"] != "e2e4" {
		t.Fatalf("real line lost: %v", st)
	}
}

// TestFaultRateLimit answers 429 with and without a ratelimit body.
func TestFaultRateLimit(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.Faults().RateLimit("/api/account", 1, 90, 30*time.Second)
	e.srv.Faults().RateLimit("/api/account", 1, 0, 0)
	code, b := e.do(tokBot1, "GET", "/api/account", nil, "Accept", "application/json")
	m := decode(t, b)
	rl, _ := m["ratelimit"].(map[string]any)
	if code != 429 || rl["seconds"] != 90.0 || rl["key"] != "api.sandbox" {
		t.Fatalf("first: %d %s", code, b)
	}
	code, b = e.do(tokBot1, "GET", "/api/account", nil)
	if m := decode(t, b); code != 429 || m["ratelimit"] != nil || m["error"] == nil {
		t.Fatalf("second: %d %s", code, b)
	}
	if code, _ = e.do(tokBot1, "GET", "/api/account", nil); code != 200 {
		t.Fatalf("third: %d", code)
	}
	recs := e.srv.Requests()
	if recs[0].Status != 429 || recs[2].Status != 200 {
		t.Fatalf("records %+v", recs)
	}
}

// TestFaultRetryAfterHeader checks the Retry-After header.
func TestFaultRetryAfterHeader(t *testing.T) {
	e := newEnv(t, Config{})
	if _, err := e.srv.Faults().AddSpec("429:times=1,retry-after=1500ms"); err != nil {
		t.Fatal(err)
	}
	resp, err := e.client.Get(e.url + "/api/bot/online")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Fatalf("%d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestFaultServerError answers 5xx for the next requests under a path.
func TestFaultServerError(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.srv.Faults().ServerError("/api/account", 503, 2)
	for i := range 2 {
		if code, m := e.get(tokBot1, "/api/account"); code != 503 || m["error"] == nil {
			t.Fatalf("#%d: %d %v", i, code, m)
		}
	}
	if code, _ := e.get(tokBot1, "/api/account"); code != 200 {
		t.Fatalf("after: %d", code)
	}
	e.srv.Faults().Remove(id) // already disarmed: no-op
	e.srv.Faults().ServerError("", 0, 0)
	if code, _ := e.get(tokBot1, "/api/user/bot1"); code != 500 {
		t.Fatalf("forever fault: %d", code)
	}
	if len(e.srv.Faults().Active()) != 1 {
		t.Fatalf("active %v", e.srv.Faults().Active())
	}
	e.srv.Faults().Clear()
	if code, _ := e.get(tokBot1, "/api/user/bot1"); code != 200 {
		t.Fatalf("after clear: %d", code)
	}
}

// TestFaultLatency delays requests under a path only.
func TestFaultLatency(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.Faults().Latency("/api/account", 150*time.Millisecond)
	start := time.Now()
	e.get(tokBot1, "/api/account")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("latency %v", d)
	}
	start = time.Now()
	e.get(tokBot1, "/api/user/bot1")
	if d := time.Since(start); d >= 150*time.Millisecond {
		t.Fatalf("untargeted path delayed %v", d)
	}
}
