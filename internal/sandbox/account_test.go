package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// TestTokenTest checks POST /api/token/test.
func TestTokenTest(t *testing.T) {
	e := newEnv(t, Config{})
	code, b := e.do("", "POST", "/api/token/test", nil, "Content-Type", "text/plain")
	if code != 200 || strings.TrimSpace(string(b)) != "{}" {
		t.Fatalf("empty: %d %s", code, b)
	}
	req := strings.NewReader(tokBot1 + "," + tokAlice + ",unknown")
	resp, err := e.client.Post(e.url+"/api/token/test", "text/plain", req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]*struct{ UserID, Scopes string }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got[tokBot1].UserID != "bot1" || !strings.Contains(got[tokBot1].Scopes, "bot:play") ||
		got[tokAlice].Scopes != "board:play,challenge:read,challenge:write,tournament:write,engine:read,engine:write" || got["unknown"] != nil {
		t.Fatalf("%+v", got)
	}
}

// TestAccountAndUsers checks /api/account, /api/user and /api/bot/online.
func TestAccountAndUsers(t *testing.T) {
	e := newEnv(t, Config{})
	code, me := e.get(tokBot1, "/api/account")
	if code != 200 || me["id"] != "bot1" || me["title"] != "BOT" || me["url"] != e.url+"/@/bot1" {
		t.Fatalf("%d %v", code, me)
	}
	code, u := e.get("", "/api/user/BOB")
	if code != 200 || u["username"] != "bob" || u["title"] != "GM" {
		t.Fatalf("%d %v", code, u)
	}
	if code, _ := e.get("", "/api/user/nobody"); code != 404 {
		t.Fatalf("unknown user: %d", code)
	}
	if code, m := e.get("", "/api/account"); code != 401 || m["error"] != "Missing authorization header" {
		t.Fatalf("anonymous account: %d %v", code, m)
	}
	if code, _ := e.get(tokBot1, "/api/nothing/here"); code != 404 {
		t.Fatalf("unknown path: %d", code)
	}

	// Online bots are those with an open event stream.
	code, b := e.do("", "GET", "/api/bot/online", nil)
	if code != 200 || strings.TrimSpace(string(b)) != "" {
		t.Fatalf("nobody online: %d %q", code, b)
	}
	e.open(tokBot2, "/api/stream/event")
	e.open(tokAlice, "/api/stream/event")
	eventually(t, "online", func() bool { return e.srv.Online("bot2") && e.srv.Online("alice") })
	code, b = e.do("", "GET", "/api/bot/online?nb=10", nil)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if code != 200 || len(lines) != 1 || decode(t, []byte(lines[0]))["id"] != "bot2" {
		t.Fatalf("online: %d %s", code, b)
	}
}

// TestBotUpgrade checks POST /api/bot/account/upgrade.
func TestBotUpgrade(t *testing.T) {
	// Tokens made for the upgrade: bot:play (which it needs) beside the
	// Board API's board:play, as on Lichess's token page.
	both := []string{"bot:play", "board:play", "challenge:read", "challenge:write"}
	e := newEnv(t, Config{Accounts: []Account{
		{Name: "bot1", Token: tokBot1, Bot: true, Rating: 2000},
		{Name: "Alice", Token: tokAlice, Rating: 1600, Scopes: both},
		{Name: "bob", Token: tokBob, Title: "GM", Scopes: both},
	}})
	e.wantError(tokBot1, "/api/bot/account/upgrade", 400, "This account is already a bot account.")
	e.startGame(nil) // alice has played
	e.wantError(tokAlice, "/api/bot/account/upgrade", 400, "This account has played games and cannot be upgraded to a bot account.")
	e.mustOK(tokBob, "/api/bot/account/upgrade", nil)
	if _, me := e.get(tokBob, "/api/account"); me["title"] != "BOT" {
		t.Fatalf("upgraded: %v", me)
	}
	// Now bob must use the BOT API.
	id := e.challenge(tokBob, "alice", url.Values{"days": {"1"}, "color": {"white"}})
	e.mustOK(tokAlice, "/api/challenge/"+id+"/accept", nil)
	e.wantError(tokBob, "/api/board/game/"+id+"/move/e2e4", 400, "This endpoint cannot be used with a Bot account.")
	e.mustOK(tokBob, "/api/bot/game/"+id+"/move/e2e4", nil)
}

// TestAccountPlaying checks the ongoing games list, most urgent first.
func TestAccountPlaying(t *testing.T) {
	e := newEnv(t, Config{})
	a := e.startGame(nil)
	e.play(a, "e2e4") // bot1 to move in a
	b := e.startGame(url.Values{"days": {"3"}, "color": {"white"}})
	code, m := e.get(tokBot1, "/api/account/playing?nb=5")
	if code != 200 || m["nbMyTurn"] != 1.0 {
		t.Fatalf("%d %v", code, m)
	}
	np := m["nowPlaying"].([]any)
	if len(np) != 2 || np[0].(map[string]any)["gameId"] != a || np[1].(map[string]any)["gameId"] != b {
		t.Fatalf("order: %v", np)
	}
	if first := np[0].(map[string]any); first["isMyTurn"] != true || first["lastMove"] != "e2e4" || first["color"] != "black" {
		t.Fatalf("entry %v", first)
	}
	_, m = e.get(tokBot1, "/api/account/playing?nb=1")
	if len(m["nowPlaying"].([]any)) != 1 {
		t.Fatalf("nb=1: %v", m)
	}
}

// TestAddAccount checks accounts added at run time.
func TestAddAccount(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.AddAccount(Account{Name: "Carol", Token: "tok-carol"})
	code, me := e.get("tok-carol", "/api/account")
	if code != 200 || me["id"] != "carol" || me["perfs"].(map[string]any)["blitz"].(map[string]any)["rating"] != 1500.0 {
		t.Fatalf("%d %v", code, me)
	}
	e.srv.AddAccount(Account{Name: "Carol", Token: "tok-carol-2"})
	if code, _ := e.get("tok-carol", "/api/account"); code != 401 {
		t.Fatalf("old token still valid: %d", code)
	}
}

// Regression (issue 18): request bodies are bounded; past the bound the
// answer names the limit instead of reading on.
func TestRequestBodiesBounded(t *testing.T) {
	e := newEnv(t, Config{})
	big := strings.Repeat("x", MaxRequestBody+1)
	id := e.startGame(nil)
	for _, path := range []string{"/api/bot/game/" + id + "/chat", "/api/challenge/bot2"} {
		code, b := e.do(tokBot1, "POST", path, url.Values{"text": {big}, "room": {"player"}})
		if code != 400 || !strings.Contains(string(b), "limit of 1 MiB") {
			t.Errorf("%s: %d %.200s, want 400 naming the limit", path, code, b)
		}
	}
}

// TestUsersStatus checks GET /api/users/status: known ids in the order
// asked, unknown ones left out, online and playing only when true, the
// game id with withGameIds and the game's metas with withGameMetas.
func TestUsersStatus(t *testing.T) {
	e := newEnv(t, Config{})
	e.open(tokBot1, "/api/stream/event")
	eventually(t, "online", func() bool { return e.srv.Online("bot1") })
	id := e.startGame(url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "color": {"white"}})
	list := func(query string) []map[string]any {
		t.Helper()
		code, b := e.do("", "GET", "/api/users/status?"+query, nil)
		var out []map[string]any
		if err := json.Unmarshal(b, &out); code != 200 || err != nil {
			t.Fatalf("%s: %d %s", query, code, b)
		}
		return out
	}
	got := list("ids=bob,BOT1,nobody,alice")
	want := []map[string]any{
		{"id": "bob", "name": "bob", "title": "GM"},
		{"id": "bot1", "name": "bot1", "title": "BOT", "online": true, "playing": true},
		{"id": "alice", "name": "Alice", "playing": true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("status:\n got %v\nwant %v", got, want)
	}
	got = list("ids=alice,bob&withGameIds=true&withSignal=true")
	if got[0]["playingId"] != id || got[0]["playing"] != true || got[1]["playingId"] != nil {
		t.Fatalf("withGameIds: %v", got)
	}
	// withGameMetas answers an object in playing (the spec's schema has a
	// boolean there; Lichess sends the object), so it bypasses the
	// recorder.
	resp, err := http.Get(e.url + "/api/users/status?ids=alice&withGameMetas=true&withGameIds=true")
	if err != nil {
		t.Fatal(err)
	}
	var metas []map[string]any
	err = json.NewDecoder(resp.Body).Decode(&metas)
	resp.Body.Close()
	if err != nil || len(metas) != 1 || !reflect.DeepEqual(metas[0]["playing"], map[string]any{"id": id, "clock": "3+2", "variant": "standard"}) ||
		metas[0]["playingId"] != nil {
		t.Fatalf("withGameMetas: %v %v", metas, err)
	}
	if code, m := e.get("", "/api/users/status"); code != 400 || !reflect.DeepEqual(m["ids"], []any{"This field is required"}) {
		t.Fatalf("no ids: %d %v", code, m)
	}
}

// Regression (issue 18): a sandbox restarted with the same seed handed out
// the same game ids, so a client's finished game was overwritten.
func TestIDsNeverReusedAcrossRestarts(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		e := newEnv(t, Config{Seed: 7})
		id := e.startGame(nil)
		if seen[id] {
			t.Fatalf("restart %d reused game id %s", i, id)
		}
		seen[id] = true
	}
}
