package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Test accounts and their tokens.
const (
	tokBot1  = "tok-bot1-SECRET"
	tokBot2  = "tok-bot2-SECRET"
	tokAlice = "tok-alice-SECRET"
	tokBob   = "tok-bob-SECRET"
)

// waitTimeout bounds every wait in the tests.
const waitTimeout = 3 * time.Second

// testEnv is a sandbox served on loopback with a recording client.
type testEnv struct {
	t      *testing.T
	srv    *Server
	url    string
	client *http.Client
}

// newEnv starts a sandbox with bot1, bot2 (bots), alice and bob (humans).
// Every response the test receives is validated against the spec at cleanup.
func newEnv(t *testing.T, cfg Config) *testEnv {
	t.Helper()
	rec := &recorder{base: &http.Transport{}}
	t.Cleanup(func() { validateExchanges(t, rec.exchanges()) })
	if cfg.Accounts == nil {
		cfg.Accounts = []Account{
			{Name: "bot1", Token: tokBot1, Bot: true, Rating: 2000},
			{Name: "bot2", Token: tokBot2, Bot: true},
			{Name: "Alice", Token: tokAlice, Rating: 1600},
			{Name: "bob", Token: tokBob, Title: "GM"},
		}
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = 100 * time.Millisecond
	}
	srv := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	u, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Close()
		rec.base.(*http.Transport).CloseIdleConnections()
	})
	return &testEnv{t: t, srv: srv, url: u, client: &http.Client{Transport: rec}}
}

// do sends a request and returns the status and body.
func (e *testEnv) do(token, method, path string, form url.Values, header ...string) (int, []byte) {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, e.url+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s %s: read: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// doJSON POSTs a JSON body and returns the status and body.
func (e *testEnv) doJSON(token, path, body string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.url+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("POST %s: read: %v", path, err)
	}
	return resp.StatusCode, b
}

// post sends a POST and decodes the JSON answer.
func (e *testEnv) post(token, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	code, b := e.do(token, "POST", path, form)
	return code, decode(e.t, b)
}

// get sends a GET and decodes the JSON answer.
func (e *testEnv) get(token, path string) (int, map[string]any) {
	e.t.Helper()
	code, b := e.do(token, "GET", path, nil)
	return code, decode(e.t, b)
}

// mustOK posts and fails unless the answer is {"ok":true}.
func (e *testEnv) mustOK(token, path string, form url.Values) {
	e.t.Helper()
	code, m := e.post(token, path, form)
	if code != 200 || m["ok"] != true {
		e.t.Fatalf("POST %s: %d %v", path, code, m)
	}
}

// wantError posts and checks the status and error text.
func (e *testEnv) wantError(token, path string, status int, msg string) {
	e.t.Helper()
	code, m := e.post(token, path, nil)
	if code != status || m["error"] != msg {
		e.t.Fatalf("POST %s: got %d %v, want %d {error: %q}", path, code, m, status, msg)
	}
}

// decode parses a JSON object.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return m
}

// stream is an open ndjson stream read in the background.
type stream struct {
	t          *testing.T
	lines      chan string
	done       chan struct{}
	keepAlives atomic.Int64
	alive      chan struct{} // a keep-alive line came (holds one)
	raw        atomic.Int64  // every line, keep-alives included
	status     int
	cancel     context.CancelFunc
}

// open opens an ndjson stream; it is closed at cleanup.
func (e *testEnv) open(token, path string) *stream {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", e.url+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.readStream(req, cancel)
}

// readStream sends req and reads its ndjson answer in the background.
func (e *testEnv) readStream(req *http.Request, cancel context.CancelFunc) *stream {
	e.t.Helper()
	path := req.URL.Path
	resp, err := e.client.Do(req)
	if err != nil {
		cancel()
		e.t.Fatalf("open %s: %v", path, err)
	}
	s := &stream{t: e.t, lines: make(chan string, 1024), done: make(chan struct{}), alive: make(chan struct{}, 1),
		status: resp.StatusCode, cancel: cancel}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			s.raw.Add(1)
			if strings.TrimSpace(sc.Text()) == "" {
				s.keepAlives.Add(1)
				select {
				case s.alive <- struct{}{}:
				default:
				}
				continue
			}
			s.lines <- sc.Text()
		}
	}()
	e.t.Cleanup(func() {
		cancel()
		<-s.done
	})
	return s
}

// close closes the stream and waits for the reader.
func (s *stream) close() {
	s.cancel()
	<-s.done
}

// nextLine returns the next non-empty line.
func (s *stream) nextLine() string {
	s.t.Helper()
	select {
	case l := <-s.lines:
		return l
	case <-s.done:
		select {
		case l := <-s.lines:
			return l
		default:
		}
		s.t.Fatalf("stream ended while waiting for a line")
	case <-time.After(waitTimeout):
		s.t.Fatalf("no line within %v", waitTimeout)
	}
	return ""
}

// next returns the next line as JSON.
func (s *stream) next() map[string]any {
	s.t.Helper()
	return decode(s.t, []byte(s.nextLine()))
}

// nextType skips to the next line of a type.
func (s *stream) nextType(typ string) map[string]any {
	s.t.Helper()
	for {
		m := s.next()
		if m["type"] == typ {
			return m
		}
	}
}

// waitEnd waits for the server to end the stream, and returns the lines
// still unread.
func (s *stream) waitEnd() []string {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(waitTimeout):
		s.t.Fatalf("stream did not end within %v", waitTimeout)
	}
	var rest []string
	for {
		select {
		case l := <-s.lines:
			rest = append(rest, l)
		default:
			return rest
		}
	}
}

// nextKeepAlive waits for a keep-alive line received after the call: the
// server still serves the stream. It fails the test if the stream ends
// first.
func (s *stream) nextKeepAlive() {
	s.t.Helper()
	select {
	case <-s.alive: // one from before the call
	default:
	}
	select {
	case <-s.alive:
	case <-s.done:
		s.t.Fatal("stream ended while waiting for a keep-alive")
	case <-time.After(waitTimeout):
		s.t.Fatalf("no keep-alive within %v", waitTimeout)
	}
}

// ended reports whether the stream has ended.
func (s *stream) ended() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// challenge has from challenge to with the form and returns its id.
func (e *testEnv) challenge(token, to string, form url.Values) string {
	e.t.Helper()
	code, m := e.post(token, "/api/challenge/"+to, form)
	if code != 200 {
		e.t.Fatalf("challenge %s: %d %v", to, code, m)
	}
	return m["id"].(string)
}

// startGame has alice challenge bot1 (alice white, 1+0 unless form says
// otherwise), bot1 accept, and returns the game id.
func (e *testEnv) startGame(form url.Values) string {
	e.t.Helper()
	if form == nil {
		form = url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"}}
	}
	id := e.challenge(tokAlice, "bot1", form)
	e.mustOK(tokBot1, "/api/challenge/"+id+"/accept", nil)
	return id
}

// botGame starts a game (see startGame), opens bot1's game stream and
// reads its first line, which must be the gameFull it returns.
func (e *testEnv) botGame(form url.Values) (id string, gs *stream, full map[string]any) {
	e.t.Helper()
	id = e.startGame(form)
	gs = e.open(tokBot1, "/api/bot/game/stream/"+id)
	return id, gs, gs.nextType("gameFull")
}

// play plays moves alternately: alice (Board API) moves first as white; an
// empty move skips that side.
func (e *testEnv) play(id string, moves ...string) {
	e.t.Helper()
	for i, m := range moves {
		if m == "" {
			continue // keeps the colors of the following moves
		}
		path := "/api/board/game/" + id + "/move/" + m
		tok := tokAlice
		if i%2 == 1 {
			path, tok = "/api/bot/game/"+id+"/move/"+m, tokBot1
		}
		e.mustOK(tok, path, nil)
	}
}

// snapshot returns a game's snapshot or fails.
func (e *testEnv) snapshot(id string) GameSnapshot {
	e.t.Helper()
	g, ok := e.srv.Game(id)
	if !ok {
		e.t.Fatalf("no game %s", id)
	}
	return g
}

// eventually polls cond until it holds or fails after waitTimeout.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// openPost opens an ndjson stream answered to a form POST.
func (e *testEnv) openPost(token, path string, form url.Values) *stream {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", e.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	return e.readStream(req, cancel)
}

// benchClient posts without recording (for benchmarks).
type benchClient struct{ c *http.Client }

// newBenchClient returns a plain keep-alive client.
func newBenchClient() *benchClient { return &benchClient{c: &http.Client{}} }

// post sends an empty authenticated POST and returns the status.
func (bc *benchClient) post(u, token string) int {
	req, _ := http.NewRequest("POST", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := bc.c.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
