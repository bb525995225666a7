package sandbox

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestArenaLifecycle runs an arena on an injected clock over HTTP: two
// BOT accounts join (a human who does not ask pairMeAsap is not paired),
// the arena starts and pairs the bots in a game of source arena carrying
// the tournament id, BOT berserk does not exist, the arena's first-move
// deadline (16 s in bullet, not the 20 s of other games) ends the game as
// noStart, the player who did not move loses and is withdrawn, the arena
// ends at its time with the withdrawn back in the standing, and the
// results stream lila's score.
func TestArenaLifecycle(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
	ended := make(chan string, 1)
	e := newEnv(t, Config{Now: clk.now, ArenaTick: 5 * time.Millisecond, OnArenaEnd: func(id string) { ended <- id }})
	id, err := e.srv.CreateArena(ArenaSpec{Name: "Bullet Bots", Limit: time.Minute, StartIn: time.Minute,
		Duration: 10 * time.Minute, BotsAllowed: true, Team: "bot-league"})
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := e.open(tokBot1, "/api/stream/event"), e.open(tokBot2, "/api/stream/event")
	defer s1.close()
	defer s2.close()
	for _, tok := range []string{tokBot1, tokBot2} {
		e.mustOK(tok, "/api/tournament/"+id+"/join", url.Values{"pairMeAsap": {"true"}})
	}
	e.mustOK(tokAlice, "/api/tournament/"+id+"/join", nil)
	e.mustOK(tokBob, "/api/tournament/"+id+"/join", nil)
	e.mustOK(tokBob, "/api/tournament/"+id+"/withdraw", nil) // before the start: removed
	if _, body := e.get(tokBot1, "/api/tournament/"+id); body["nbPlayers"] != float64(3) || body["secondsToStart"] != float64(60) {
		t.Fatalf("before the start: %v", body)
	}
	clk.add(time.Minute)
	start := s1.nextType("gameStart")["game"].(map[string]any)
	s2.nextType("gameStart")
	if start["source"] != "arena" || start["tournamentId"] != id {
		t.Fatalf("gameStart: %v", start)
	}
	gid := start["gameId"].(string)
	gs := e.open(tokBot1, "/api/bot/game/stream/"+gid)
	if full := gs.next(); full["tournamentId"] != id {
		t.Fatalf("gameFull: %v", full)
	}
	gs.close()
	if status, _ := e.do(tokBot1, "POST", "/api/bot/game/"+gid+"/berserk", nil); status != 404 {
		t.Errorf("BOT berserk: %d, want 404 (the BOT API has none)", status)
	}

	clk.add(15 * time.Second)
	if g := e.snapshot(gid); g.Status != "started" {
		t.Fatalf("15 s without a first move: %s, want started", g.Status)
	}
	clk.add(2 * time.Second)
	e.do(tokBot2, "GET", "/api/tournament/"+id, nil) // any request ticks the game
	g := e.snapshot(gid)
	if g.Status != "noStart" {
		t.Fatalf("17 s without White's first move in an arena: %s, want noStart", g.Status)
	}
	info, err := e.srv.InspectArena(id)
	if err != nil {
		t.Fatal(err)
	}
	loser := strings.ToLower(g.White)
	for _, p := range info.Standing {
		switch strings.ToLower(p.Name) {
		case loser:
			if !p.Withdrawn || p.Score != 0 {
				t.Errorf("the non-mover: %+v, want withdrawn with 0", p)
			}
		case strings.ToLower(g.Black):
			if p.Score != 2 || p.Sheet != "2" {
				t.Errorf("the opponent: %+v, want 2 points", p)
			}
		}
	}

	clk.add(10 * time.Minute)
	if got := <-ended; got != id {
		t.Fatalf("ended %s", got)
	}
	if info, _ = e.srv.InspectArena(id); info.Status != arenaFinished || info.Standing[0].Withdrawn || info.Standing[1].Withdrawn {
		t.Fatalf("after the end: %+v", info)
	}
	status, body := e.do(tokAlice, "GET", "/api/tournament/"+id+"/results?sheet=true", nil, "Accept", "application/x-ndjson")
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if status != 200 || len(lines) != 3 || !strings.Contains(lines[0], `"score":2`) || !strings.Contains(lines[0], `"scores":"2"`) {
		t.Fatalf("results: %d %s", status, body)
	}
	e.wantError(tokBot1, "/api/tournament/"+id+"/join", 400, "This tournament no longer exists")
	for _, path := range []string{"/api/tournament/" + id + "/games", "/api/user/lichess/tournament/created?status=30",
		"/api/team/bot-league/arena"} {
		status, body := e.do(tokAlice, "GET", path, nil, "Accept", "application/x-ndjson")
		if status != 200 || !strings.Contains(string(body), gid) && !strings.Contains(string(body), id) {
			t.Errorf("%s: %d %s", path, status, body)
		}
	}
}
