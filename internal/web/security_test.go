package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/internal/testkit"
)

func TestSecurityHeaders(t *testing.T) {
	e := newTestEnv(t, nil)
	resp, err := http.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	if resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "same-origin" {
		t.Error("missing security headers")
	}
}

func TestHostCheckWithoutToken(t *testing.T) {
	e := newTestEnv(t, nil)
	checkHosts(t, e.ts.URL+"/", map[string]int{"127.0.0.1:8090": 200, "localhost:8090": 200, "[::1]:8090": 200, "evil.example": http.StatusMisdirectedRequest, "192.168.1.4:8090": http.StatusMisdirectedRequest})
}

// checkHosts requests url with each Host header and checks the status
// the console answers.
func checkHosts(t *testing.T, url string, want map[string]int) {
	t.Helper()
	for host, code := range want {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, code)
		}
	}
}

func TestAccessToken(t *testing.T) {
	const tok = "s3cret-console-token"
	e := newTestEnv(t, func(o *Options) { o.AccessToken = tok })
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(path string, mod func(*http.Request)) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+path, nil)
		req.Host = "console.example:8090" // any host is fine with a token
		if mod != nil {
			mod(req)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if r := do("/", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d", r.StatusCode)
	}
	if r := do("/", func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") }); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", r.StatusCode)
	}
	if r := do("/runs", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }); r.StatusCode != 200 {
		t.Errorf("bearer: %d", r.StatusCode)
	}
	if r := do("/static/app.css", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("assets without token: %d", r.StatusCode)
	}
	r := do("/explorer?fen=x&access_token="+tok, nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/explorer?fen=x" {
		t.Fatalf("query token: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == accessCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", cookie)
	}
	if r := do("/", func(r *http.Request) { r.AddCookie(cookie) }); r.StatusCode != 200 {
		t.Errorf("cookie: %d", r.StatusCode)
	}
	if r := do("/?access_token=nope", nil); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong query token: %d", r.StatusCode)
	}
}

func TestListenRequiresTokenOffLoopback(t *testing.T) {
	st := seedStore(t)
	s, err := New(Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	err = s.ListenAndServe(context.Background(), "0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "access token") {
		t.Errorf("err = %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Error("no store accepted")
	}
}

func TestServeShutsDown(t *testing.T) {
	defer testkit.NoLeaks(t, goleak.IgnoreCurrent(), goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"))
	st := seedStore(t)
	addr, cancel, done := serveLoopback(t, Options{Store: st, LivePoll: 10 * time.Millisecond})
	// An open event stream must not keep the server from stopping.
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/events/live")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not stop")
	}
}

func TestLoopbackNames(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8090": true, "[::1]:1": true, "localhost:8090": true, "0.0.0.0:8090": false, ":8090": false, "10.0.0.1:80": false, "nonsense": false} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}

// TestAllowedHost: against DNS rebinding, the loopback console answers
// only to the loopback names with its own port, or its configured address.
func TestAllowedHost(t *testing.T) {
	s, err := New(Options{Store: seedStore(t), Addr: "console.lan:8090", PlainHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	port := "8090"
	s.port.Store(&port)
	for host, want := range map[string]bool{
		"127.0.0.1:8090": true, "localhost:8090": true, "LOCALHOST:8090": true, "[::1]:8090": true,
		"console.lan:8090": true,
		"127.0.0.1:8091":   false, "localhost": false, "console.lan:9999": false,
		"a.localhost:8090": false, "evil.example:8090": false, "127.0.0.1.nip.io:8090": false, "": false,
	} {
		if got := s.allowedHost(host); got != want {
			t.Errorf("allowedHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// serveLoopback serves a console of o on a loopback port: its address,
// the cancel that stops it and the channel of Serve's result.
func serveLoopback(t *testing.T, o Options) (addr string, cancel func(), done <-chan error) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	return ln.Addr().String(), cancel, served
}

// TestServeChecksItsPort: once serving, a loopback Host with another port
// (a rebinding page on another local port) is refused.
func TestServeChecksItsPort(t *testing.T) {
	addr, cancel, done := serveLoopback(t, Options{Store: seedStore(t)})
	defer func() { cancel(); <-done }()
	_, port, _ := net.SplitHostPort(addr)
	checkHosts(t, "http://"+addr+"/runs", map[string]int{"localhost:" + port: 200, "127.0.0.1:1": http.StatusMisdirectedRequest, "evil.example:" + port: http.StatusMisdirectedRequest})
}

// TestCrossOriginProtection: every state-changing route refuses a
// cross-origin request (net/http.CrossOriginProtection) and accepts the
// same request from the console's own origin.
func TestCrossOriginProtection(t *testing.T) {
	e := newTestEnv(t, nil)
	for _, path := range []string{"/knobs", "/api/ewr", "/game/x"} {
		for _, tc := range []struct {
			name string
			hdr  map[string]string
			ok   bool
		}{
			{"same origin", nil, true},
			{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
			{"same-site fetch", map[string]string{"Sec-Fetch-Site": "same-site"}, false},
			{"foreign origin", map[string]string{"Sec-Fetch-Site": "", "Origin": "http://evil.example"}, false},
			{"null origin", map[string]string{"Sec-Fetch-Site": "", "Origin": "null"}, false},
		} {
			resp, body := e.postForm(t, path, url.Values{}, tc.hdr)
			refused := resp.StatusCode == http.StatusForbidden && strings.Contains(body, "another origin")
			if refused == tc.ok {
				t.Errorf("POST %s %s: %d %q", path, tc.name, resp.StatusCode, body)
			}
		}
	}
}

// TestShortAccessTokenRefused: a guessable token is refused, naming the
// minimum length.
func TestShortAccessTokenRefused(t *testing.T) {
	_, err := New(Options{Store: seedStore(t), AccessToken: "abcde"})
	if err == nil || !strings.Contains(err.Error(), "5 characters") || !strings.Contains(err.Error(), "at least 16") {
		t.Fatalf("5-character token: %v", err)
	}
}

func TestReadAccessToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path, want, err string
	}{
		{"no file", "", "", ""},
		{"token trimmed", write("good", "  0123456789abcdef\n"), "0123456789abcdef", ""},
		{"missing", filepath.Join(dir, "none"), "", "access token: open"},
		{"empty", write("empty", "\n"), "", "is empty"},
		{"short", write("short", "abcde"), "", "the token has 5 characters: want at least 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadAccessToken(tc.path)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
			if got != tc.want {
				t.Errorf("token %q, want %q", got, tc.want)
			}
		})
	}
}
