package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestScopesAsLila: each token's scopes, not its account's kind, decide
// what it may call, with lila's answers (OAuthServer.auth,
// LilaController.handleScopedFail): 403 {"error":"Missing scope: A || B"}
// for a token without an accepted scope, 401 "No such token" and "Missing
// authorization header", and the X-OAuth-Scopes / X-Accepted-OAuth-Scopes
// headers on every answer of a scoped route. Before, every token had its
// kind's scopes and the scope was checked on the external-engine routes only.
func TestScopesAsLila(t *testing.T) {
	const (
		tokNone   = "tok-none-SECRET"
		tokPreBot = "tok-prebot-SECRET"
	)
	e := newEnv(t, Config{Accounts: []Account{
		{Name: "bot1", Token: tokBot1, Bot: true},
		{Name: "Alice", Token: tokAlice},
		{Name: "nobody", Token: tokNone, Scopes: []string{}},
		{Name: "carol", Token: tokPreBot, Scopes: []string{"bot:play"}},
	}})
	id := e.startGame(nil) // alice (white) against bot1
	stream := "challenge:read,bot:play,board:play,web:mobile"
	tests := []struct {
		name, token, method, path string
		status                    int
		msg                       string // the "error" field; "" for none checked
		have, accepted            string // the scope headers; "-" for absent
	}{
		{"no scope, event stream", tokNone, "GET", "/api/stream/event", 403,
			"Missing scope: challenge:read || bot:play || board:play || web:mobile", "", stream},
		{"no scope, account", tokNone, "GET", "/api/account", 200, "", "", ""},
		{"no scope, challenge", tokNone, "POST", "/api/challenge/bot1", 403,
			"Missing scope: challenge:write || bot:play || board:play || web:mobile", "", "challenge:write,bot:play,board:play,web:mobile"},
		{"no scope, engines", tokNone, "GET", "/api/external-engine", 403, "Missing scope: engine:read", "", "engine:read"},
		{"board token on the BOT API", tokAlice, "POST", "/api/bot/game/" + id + "/move/e2e4", 403, "Missing scope: bot:play",
			"board:play,challenge:read,challenge:write,tournament:write,engine:read,engine:write", "bot:play"},
		{"bot token on the Board API", tokBot1, "POST", "/api/board/game/" + id + "/move/e2e4", 403, "Missing scope: board:play",
			"bot:play,challenge:read,challenge:write,tournament:write,engine:read,engine:write", "board:play"},
		{"bot:play, not a BOT", tokPreBot, "POST", "/api/bot/game/" + id + "/move/e2e4", 400,
			"This endpoint can only be used with a Bot account.", "bot:play", "bot:play"},
		{"bot:play opens the event stream", tokPreBot, "GET", "/api/stream/event", 200, "", "bot:play", stream},
		{"bad token", "nope", "GET", "/api/stream/event", 401, "No such token", "", stream},
		{"no token", "", "GET", "/api/stream/event", 401, "Missing authorization header", "", stream},
		{"public route", "", "GET", "/api/user/alice", 200, "", "-", "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, e.url+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.msg != "" {
				var v struct{ Error string }
				if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.Error != tt.msg {
					t.Fatalf("error %q (%v), want %q", v.Error, err, tt.msg)
				}
			}
			for h, want := range map[string]string{"X-OAuth-Scopes": tt.have, "X-Accepted-OAuth-Scopes": tt.accepted} {
				got := resp.Header.Values(h)
				ok := len(got) > 0
				switch {
				case want == "-" && ok:
					t.Errorf("%s: %q on a public route", h, got)
				case want != "-" && (!ok || strings.Join(got, "") != want):
					t.Errorf("%s: %q, want %q", h, got, want)
				}
			}
		})
	}
}

// TestEveryRouteHasScopes keeps routeScopes in step with the route table:
// every entry names a served route, and every route that needs a token is
// either listed or under the BOT or Board API (whose scope its prefix gives).
func TestEveryRouteHasScopes(t *testing.T) {
	s := New(Config{})
	served := map[string]bool{}
	for _, r := range s.routeTable() {
		key := r.method + " " + r.pattern
		served[key] = true
		if r.auth == authNone || r.auth == authOptional {
			continue
		}
		if _, listed := routeScopes[key]; !listed && acceptedScopes(r) == nil {
			t.Errorf("%s needs a token but accepts no scope list: add it to routeScopes (lila's Scoped(...))", key)
		}
	}
	for key, list := range routeScopes {
		if !served[key] {
			t.Errorf("routeScopes lists %s, which is not served", key)
		}
		for _, sc := range list {
			if _, err := ParseScopes(sc); err != nil {
				t.Errorf("%s: %v", key, err)
			}
		}
	}
}

// FuzzParseScopes: any input is parsed into known, distinct scopes or
// refused with an error; a parsed list prints back to itself.
func FuzzParseScopes(f *testing.F) {
	for _, s := range []string{"", "bot:play", "bot:play,challenge:read", " board:play , engine:read", "bot:play,,x", "bot:play,bot:play", "web:mod"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseScopes(in)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, s := range got {
			if seen[s] {
				t.Fatalf("%q: %q twice", in, s)
			}
			seen[s] = true
		}
		again, err := ParseScopes(strings.Join(got, ","))
		if err != nil || strings.Join(again, ",") != strings.Join(got, ",") {
			t.Fatalf("%q: %v does not parse back (%v, %v)", in, got, again, err)
		}
	})
}

// TestParseScopes names what is wrong.
func TestParseScopes(t *testing.T) {
	for in, want := range map[string]string{
		"bot:fly":             `unknown scope "bot:fly"`,
		"bot:play,,x":         "an empty scope",
		"bot:play,bot:play":   `scope "bot:play" given twice`,
		"board:play,Bot:Play": `unknown scope "Bot:Play"`,
	} {
		if _, err := ParseScopes(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if got, err := ParseScopes(" bot:play , challenge:read "); err != nil || strings.Join(got, ",") != "bot:play,challenge:read" {
		t.Errorf("spaces: %v %v", got, err)
	}
}
