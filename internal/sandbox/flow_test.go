package sandbox

import (
	"net/url"
	"strings"
	"testing"
)

// TestIssueFlow is the flow of issue 2 over loopback HTTP: the bot opens the
// event stream; alice challenges bot1 (1+0, white); the bot sees and accepts
// the challenge; both see gameStart; the bot's game stream starts with
// gameFull; alice plays e2e4 through the Board API; the bot sees it and
// answers e7e5.
func TestIssueFlow(t *testing.T) {
	e := newEnv(t, Config{})
	botEvents := e.open(tokBot1, "/api/stream/event")
	aliceEvents := e.open(tokAlice, "/api/stream/event")
	eventually(t, "bot online", func() bool { return e.srv.Online("bot1") && e.srv.Online("alice") })

	code, ch := e.post(tokAlice, "/api/challenge/bot1", url.Values{
		"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"},
	})
	if code != 200 {
		t.Fatalf("create: %d %v", code, ch)
	}
	id := ch["id"].(string)
	if len(id) != 8 || ch["status"] != "created" || ch["direction"] != "out" || ch["finalColor"] != "white" {
		t.Fatalf("challenge: %v", ch)
	}
	tc := ch["timeControl"].(map[string]any)
	if tc["type"] != "clock" || tc["limit"] != 60.0 || tc["increment"] != 0.0 || tc["show"] != "1+0" || ch["speed"] != "bullet" {
		t.Fatalf("time control: %v speed %v", tc, ch["speed"])
	}

	ev := botEvents.nextType("challenge")
	got := ev["challenge"].(map[string]any)
	if got["id"] != id || got["direction"] != "in" || got["challenger"].(map[string]any)["id"] != "alice" {
		t.Fatalf("bot challenge event: %v", ev)
	}
	e.mustOK(tokBot1, "/api/challenge/"+id+"/accept", nil)

	for who, s := range map[string]*stream{"bot1": botEvents, "alice": aliceEvents} {
		gs := s.nextType("gameStart")["game"].(map[string]any)
		wantColor := map[string]string{"bot1": "black", "alice": "white"}[who]
		if gs["gameId"] != id || gs["color"] != wantColor || gs["isMyTurn"] != (who == "alice") {
			t.Fatalf("%s gameStart: %v", who, gs)
		}
	}

	botGame := e.open(tokBot1, "/api/bot/game/stream/"+id)
	full := botGame.next()
	if full["type"] != "gameFull" || full["id"] != id || full["initialFen"] != "startpos" {
		t.Fatalf("first line: %v", full)
	}
	if full["white"].(map[string]any)["id"] != "alice" || full["black"].(map[string]any)["title"] != "BOT" {
		t.Fatalf("players: %v %v", full["white"], full["black"])
	}
	st := full["state"].(map[string]any)
	if st["moves"] != "" || st["wtime"] != 60000.0 || st["btime"] != 60000.0 || st["status"] != "started" {
		t.Fatalf("initial state: %v", st)
	}
	aliceGame := e.open(tokAlice, "/api/board/game/stream/"+id)
	if aliceGame.next()["type"] != "gameFull" {
		t.Fatal("alice's game stream must start with gameFull")
	}

	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/e2e4", nil)
	st = botGame.nextType("gameState")
	if st["moves"] != "e2e4" {
		t.Fatalf("bot sees %v", st)
	}
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/move/e7e5", nil)
	aliceGame.nextType("gameState") // e2e4
	st = aliceGame.nextType("gameState")
	if st["moves"] != "e2e4 e7e5" {
		t.Fatalf("alice sees %v", st)
	}
	snap := e.snapshot(id)
	if strings.Join(snap.Moves, " ") != "e2e4 e7e5" || strings.Join(snap.SAN, " ") != "e4 e5" || snap.Status != "started" {
		t.Fatalf("snapshot: %+v", snap)
	}

	// The playing list and the replay on reconnect both know the game.
	code, playing := e.get(tokBot1, "/api/account/playing")
	if code != 200 || len(playing["nowPlaying"].([]any)) != 1 {
		t.Fatalf("playing: %d %v", code, playing)
	}
	again := e.open(tokBot1, "/api/stream/event")
	if gs := again.nextType("gameStart"); gs["game"].(map[string]any)["gameId"] != id {
		t.Fatalf("replay: %v", gs)
	}
	botEvents.waitEnd() // one event stream per token: the old one is closed
}

// TestTokensNeverRecorded checks that request records and snapshots never
// hold a token.
func TestTokensNeverRecorded(t *testing.T) {
	e := newEnv(t, Config{})
	e.startGame(nil)
	e.do("bad-token-SECRET", "GET", "/api/account", nil)
	for _, r := range e.srv.Requests() {
		if strings.Contains(r.Path+r.User+r.Method, "SECRET") {
			t.Fatalf("token in request record %+v", r)
		}
	}
	if len(e.srv.Requests()) < 3 {
		t.Fatalf("requests not recorded: %v", e.srv.Requests())
	}
	last := e.srv.Requests()[len(e.srv.Requests())-1]
	if last.Status != 401 || last.User != "" || last.Path != "/api/account" {
		t.Fatalf("last record %+v", last)
	}
}
