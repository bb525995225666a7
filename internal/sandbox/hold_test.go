package sandbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// heldAnswer is the outcome of a request sent in the background.
type heldAnswer struct {
	status int
	body   string
	err    error
}

// send sends a form request in the background and delivers its outcome;
// ctx ending is the client giving up.
func (e *testEnv) send(ctx context.Context, token, method, path string, form url.Values) <-chan heldAnswer {
	out := make(chan heldAnswer, 1)
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, e.url+path, body)
	if err != nil {
		out <- heldAnswer{err: err}
		return out
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	go func() {
		resp, err := e.client.Do(req)
		if err != nil {
			out <- heldAnswer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		out <- heldAnswer{status: resp.StatusCode, body: string(b), err: err}
	}()
	return out
}

// answered reports whether an answer came already (without waiting); the
// callers fail the test when it did.
func answered(ch <-chan heldAnswer) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// wait waits for the outcome of a background request.
func wait(t *testing.T, ch <-chan heldAnswer) heldAnswer {
	t.Helper()
	select {
	case a := <-ch:
		return a
	case <-time.After(waitTimeout):
		t.Fatalf("no outcome within %v", waitTimeout)
	}
	return heldAnswer{}
}

// records collects the request records of Config.OnRequest.
func records() (Config, <-chan RequestRecord) {
	ch := make(chan RequestRecord, 256)
	return Config{OnRequest: func(r RequestRecord) { ch <- r }}, ch
}

// nextRecord returns the next record matching want.
func nextRecord(t *testing.T, ch <-chan RequestRecord, want func(RequestRecord) bool) RequestRecord {
	t.Helper()
	for {
		select {
		case r := <-ch:
			if want(r) {
				return r
			}
		case <-time.After(waitTimeout):
			t.Fatal("no such request record")
		}
	}
}

// chatHold is a game (alice against bot1) whose chat requests are held.
type chatHold struct {
	e    *testEnv
	id   string
	path string  // the game's chat path
	gs   *stream // bot1's game stream, past its gameFull
	recs <-chan RequestRecord
	hold FaultID
}

// holdChat starts a game with request records and holds the requests of
// method (every method when "") to its chat.
func holdChat(t *testing.T, method string) chatHold {
	t.Helper()
	cfg, recs := records()
	e := newEnv(t, cfg)
	id, gs, _ := e.botGame(nil)
	path := "/api/bot/game/" + id + "/chat"
	return chatHold{e: e, id: id, path: path, gs: gs, recs: recs, hold: e.srv.Faults().Hold(path, method)}
}

// TestFaultHoldAppliesThenAnswers: a held chat POST is applied at once
// (its line reaches the game stream and the chat read back), its answer
// comes only at the release, and the server answers at once again after.
func TestFaultHoldAppliesThenAnswers(t *testing.T) {
	h := holdChat(t, "post")

	post := h.e.send(context.Background(), tokBot1, "POST", h.path, url.Values{"room": {"player"}, "text": {"good game"}})
	if l := h.gs.nextType("chatLine"); l["text"] != "good game" {
		t.Fatalf("chat line on the stream: %v", l)
	}
	// the read back is not caught (method POST only) and sees the line
	code, b := h.e.do(tokBot1, "GET", h.path, nil)
	if code != 200 || !strings.Contains(string(b), "good game") {
		t.Fatalf("chat read during the hold: %d %s", code, b)
	}
	if answered(post) {
		t.Fatal("the held POST was answered before the release")
	}
	if n := h.e.srv.Faults().Fired(FaultHold); n != 1 {
		t.Fatalf("hold fired %d times, want 1", n)
	}
	h.e.srv.Faults().Release(h.hold)
	if a := wait(t, post); a.err != nil || a.status != 200 || !strings.Contains(a.body, `"ok":true`) {
		t.Fatalf("released answer: %+v", a)
	}
	r := nextRecord(t, h.recs, func(r RequestRecord) bool { return r.Method == "POST" && r.Path == h.path })
	if !r.Held || r.Abandoned || r.Status != 200 {
		t.Fatalf("record of the held POST: %+v", r)
	}
	// released: answered at once, and the line was written once
	h.e.mustOK(tokBot1, h.path, url.Values{"room": {"player"}, "text": {"thanks"}})
	if got := h.e.srv.Chat(h.id); len(got) != 2 || got[0].Text != "good game" || got[1].Text != "thanks" {
		t.Fatalf("chat %+v", got)
	}
	if len(h.e.srv.Faults().Active()) != 0 {
		t.Fatalf("released hold still armed: %v", h.e.srv.Faults().Active())
	}
}

// TestFaultHoldAbandoned: a client that gives up on a held answer is
// recorded as Abandoned (with the status it did not get), which is the
// event a test releases the stall on; the request was applied.
func TestFaultHoldAbandoned(t *testing.T) {
	h := holdChat(t, "")

	ctx, giveUp := context.WithCancel(context.Background())
	post := h.e.send(ctx, tokBot1, "POST", h.path, url.Values{"room": {"player"}, "text": {"hello"}})
	h.gs.nextType("chatLine") // applied
	read := h.e.send(context.Background(), tokBot1, "GET", h.path, nil)
	giveUp()
	if a := wait(t, post); !errors.Is(a.err, context.Canceled) {
		t.Fatalf("the client gave up, yet: %+v", a)
	}
	r := nextRecord(t, h.recs, func(r RequestRecord) bool { return r.Path == h.path })
	if r.Method != "POST" || !r.Held || !r.Abandoned || r.Status != 200 {
		t.Fatalf("record of the abandoned POST: %+v", r)
	}
	if answered(read) {
		t.Fatal("the held read was answered before the release")
	}
	h.e.srv.Faults().Release(h.hold)
	if a := wait(t, read); a.err != nil || a.status != 200 || !strings.Contains(a.body, "hello") {
		t.Fatalf("read released: %+v", a)
	}
	if got := h.e.srv.Chat(h.id); len(got) != 1 || got[0].Text != "hello" {
		t.Fatalf("chat %+v: the abandoned POST was applied once", got)
	}
}

// TestFaultHoldAtGameEnd: a hold armed for the game's end answers every
// request at once until a game ends, then holds them (the request that
// ended the game included no more: it was caught before), until released.
func TestFaultHoldAtGameEnd(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.startGame(nil)
	hold := e.srv.Faults().HoldAtGameEnd("/api/", "")
	e.play(id, "e2e4", "e7e5")
	if code, _ := e.get(tokBot1, "/api/account"); code != 200 {
		t.Fatalf("before the end: %d", code)
	}
	e.mustOK(tokAlice, "/api/board/game/"+id+"/resign", nil)
	chat := e.send(context.Background(), tokBot1, "POST", "/api/bot/game/"+id+"/chat", url.Values{"room": {"player"}, "text": {"gg"}})
	account := e.send(context.Background(), tokBot1, "GET", "/api/account", nil)
	eventually(t, "both requests caught", func() bool { return e.srv.Faults().Fired(FaultHold) == 2 })
	eventually(t, "the held chat line applied", func() bool { return len(e.srv.Chat(id)) == 1 })
	if answered(chat) || answered(account) {
		t.Fatal("answered during the stall")
	}
	e.srv.Faults().Release(hold)
	if a := wait(t, chat); a.status != 200 {
		t.Fatalf("chat after the stall: %+v", a)
	}
	if a := wait(t, account); a.status != 200 {
		t.Fatalf("account after the stall: %+v", a)
	}
	if got := e.srv.Chat(id); len(got) != 1 {
		t.Fatalf("chat %+v", got)
	}
}

// TestFaultHoldDelayAndStream: a hold from a spec ends by itself after its
// delay; a held stream gets its first lines at the release and is served
// live from then on.
func TestFaultHoldDelayAndStream(t *testing.T) {
	e := newEnv(t, Config{})
	if _, err := e.srv.Faults().AddSpec("hold:path=/api/account,delay=50ms"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if code, _ := e.get(tokBot1, "/api/account"); code != 200 {
		t.Fatalf("after the delay: %d", code)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("answered after %v, before the stall's 50ms", d)
	}
	if len(e.srv.Faults().Active()) != 0 {
		t.Fatalf("hold still armed after its delay: %v", e.srv.Faults().Active())
	}

	id := e.startGame(nil)
	hold := e.srv.Faults().Hold("/api/bot/game/stream/", "")
	opened := make(chan *stream, 1)
	go func() { opened <- e.open(tokBot1, "/api/bot/game/stream/"+id) }()
	eventually(t, "the stream request caught", func() bool { return e.srv.Faults().Fired(FaultHold) == 2 })
	e.play(id, "e2e4")
	select {
	case <-opened:
		t.Fatal("held stream opened before the release")
	default:
	}
	e.srv.Faults().Release(hold)
	var s *stream
	select {
	case s = <-opened:
	case <-time.After(waitTimeout):
		t.Fatal("stream not opened after the release")
	}
	if full := s.next(); full["type"] != "gameFull" {
		t.Fatalf("first line %v", full)
	}
	e.play(id, "", "e7e5")
	// gameFull holds e2e4 or a gameState follows with it (whether the
	// handler subscribed before the move); then e7e5 comes live
	for st := s.nextType("gameState"); st["moves"] != "e2e4 e7e5"; st = s.nextType("gameState") {
		if st["moves"] != "e2e4" {
			t.Fatalf("live after the release: %v", st)
		}
	}
}
