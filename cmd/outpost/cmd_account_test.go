package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const accountTestToken = "lip_AccountCmdSecret_77aa"

// fakeAccountServer serves the token test, the account and the upgrade,
// recording the paths it was asked for.
func fakeAccountServer(t *testing.T, scopes string, title string, games int) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+accountTestToken && r.URL.Path != "/api/token/test" {
			http.Error(w, `{"error":"No such token"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/token/test":
			body, _ := io.ReadAll(r.Body)
			ans := map[string]any{string(body): map[string]any{"userId": "newbot", "scopes": scopes, "expires": nil}}
			json.NewEncoder(w).Encode(ans)
		case "/api/account":
			json.NewEncoder(w).Encode(map[string]any{"id": "newbot", "username": "NewBot", "title": title, "createdAt": 1700000000000,
				"count": map[string]int{"all": games}, "perfs": map[string]any{"blitz": map[string]int{"games": 3, "rating": 1600, "rd": 80, "prog": 0}}})
		case "/api/bot/account/upgrade":
			io.WriteString(w, `{"ok":true}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), paths...) }
}

func runAccountCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	code, out, errOut := runCLI(t, "", append([]string{"--log-level", "debug"}, args...)...)
	if strings.Contains(out+errOut, accountTestToken) {
		t.Fatalf("the token was printed")
	}
	return code, out, errOut
}

func TestAccountShow(t *testing.T) {
	t.Setenv("LICHESS_TOKEN", accountTestToken)
	t.Setenv("OUTPOST_CONFIG", "")
	srv, paths := fakeAccountServer(t, "bot:play,challenge:read", "BOT", 0)
	code, out, errOut := runAccountCLI(t, "account", "--url", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"NewBot", "BOT (BOT API)", "blitz 1600", "bot:play, challenge:read"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := strings.Join(paths(), ","); got != "POST /api/token/test,GET /api/account" {
		t.Errorf("requests %s", got)
	}

	// A token without bot:play still shows the account, with a warning.
	srv2, _ := fakeAccountServer(t, "board:play", "", 5)
	code, out, _ = runAccountCLI(t, "account", "--url", srv2.URL)
	if code != 0 || !strings.Contains(out, "human (Board API)") || !strings.Contains(out, `not "bot:play"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestAccountUpgrade(t *testing.T) {
	t.Setenv("LICHESS_TOKEN", accountTestToken)
	t.Setenv("OUTPOST_CONFIG", "")

	srv, paths := fakeAccountServer(t, "bot:play", "", 0)
	code, _, errOut := runAccountCLI(t, "account", "upgrade", "--url", srv.URL)
	if code != 2 || !strings.Contains(errOut, "--yes-i-understand") || !strings.Contains(errOut, "cannot be undone") {
		t.Fatalf("without the flag: exit %d, %s", code, errOut)
	}
	if len(paths()) != 0 {
		t.Fatalf("requests sent without the flag: %v", paths())
	}

	code, out, errOut := runAccountCLI(t, "account", "upgrade", "--yes-i-understand", "--url", srv.URL)
	if code != 0 || !strings.Contains(out, "NewBot is now a BOT account") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if p := paths(); p[len(p)-1] != "POST /api/bot/account/upgrade" {
		t.Fatalf("requests %v", p)
	}

	// An account that has played is refused before asking Lichess.
	srv2, paths2 := fakeAccountServer(t, "bot:play", "", 12)
	code, _, errOut = runAccountCLI(t, "account", "upgrade", "--yes-i-understand", "--url", srv2.URL)
	if code != 1 || !strings.Contains(errOut, "played 12 games") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, p := range paths2() {
		if strings.Contains(p, "upgrade") {
			t.Fatal("upgrade sent for an account with games")
		}
	}

	// Already a bot: nothing to do.
	srv3, paths3 := fakeAccountServer(t, "bot:play", "BOT", 0)
	code, out, _ = runAccountCLI(t, "account", "upgrade", "--yes-i-understand", "--url", srv3.URL)
	if code != 0 || !strings.Contains(out, "already a BOT") || strings.Contains(strings.Join(paths3(), ","), "upgrade") {
		t.Fatalf("exit %d: %s", code, out)
	}

	// Without bot:play the upgrade cannot work: say so.
	srv4, _ := fakeAccountServer(t, "board:play", "", 0)
	code, _, errOut = runAccountCLI(t, "account", "upgrade", "--yes-i-understand", "--url", srv4.URL)
	if code != 1 || !strings.Contains(errOut, "bot:play") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestAccountNoToken(t *testing.T) {
	t.Setenv("LICHESS_TOKEN", "")
	t.Setenv("OUTPOST_CONFIG", "")
	code, _, errOut := runAccountCLI(t, "account", "--url", "http://127.0.0.1:1")
	if code != 1 || !strings.Contains(errOut, "LICHESS_TOKEN") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
