package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// bulk posts a bulk pairing as bob, the organiser, and returns the status
// and answer (checked against the contract).
func (e *testEnv) bulk(form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.post(tokBob, "/api/bulk-pairing", form)
}

// bulkRefused posts a bulk pairing bypassing the contract recorder: lila
// answers a bad token with {"tokens":…} and a player paired twice with
// {"duplicateUsers":…} (controllers.BulkPairing.create), not the spec's
// Error schema.
func (e *testEnv) bulkRefused(form url.Values) (int, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.url+"/api/bulk-pairing", strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tokBob)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, decode(e.t, b)
}

// bulkGame pairs alice (white) against bot1 in a 1+0 bulk with rules and
// returns the game id.
func (e *testEnv) bulkGame(rules string) string {
	e.t.Helper()
	form := url.Values{"players": {tokAlice + ":" + tokBot1}, "clock.limit": {"60"}, "clock.increment": {"0"}}
	if rules != "" {
		form.Set("rules", rules)
	}
	code, m := e.bulk(form)
	if code != 200 {
		e.t.Fatalf("bulk pairing: %d %v", code, m)
	}
	return m["games"].([]any)[0].(map[string]any)["id"].(string)
}

// TestChallengeRules: a challenge's rules are read as lila's
// SetupForm.api.rules (comma-separated GameRules, a set), written in its
// JSON as lila's challenge JsonView does, and refused in a challenge to a
// bot (controllers.Challenge.apiCreate).
func TestChallengeRules(t *testing.T) {
	e := newEnv(t, Config{})
	alice := e.open(tokAlice, "/api/stream/event")
	code, m := e.post(tokBot1, "/api/challenge/alice", url.Values{"clock.limit": {"60"}, "clock.increment": {"0"},
		"rules": {"noEarlyDraw, noAbort,noAbort"}})
	if code != 200 || !reflect.DeepEqual(m["rules"], []any{"noAbort", "noEarlyDraw"}) {
		t.Fatalf("a bot's challenge with rules to a human: %d %v", code, m)
	}
	ev := alice.nextType("challenge")
	if got := ev["challenge"].(map[string]any)["rules"]; !reflect.DeepEqual(got, []any{"noAbort", "noEarlyDraw"}) {
		t.Fatalf("the challenge event's rules: %v", got)
	}
	if _, ok := e.challengeMap(tokBob, "bot1")["rules"]; ok {
		t.Fatal("a challenge without rules must have no rules field")
	}
	for _, tt := range []struct {
		token, to, rules string
		want             string // the error text, "" for a field error on rules
	}{
		{tokAlice, "bot1", "noAbort", "Rules not applicable for bots"},
		{tokBot2, "bot1", "noClaimWin", "Rules not applicable for bots"},
		{tokBot1, "alice", "noAbort,noTakeback", ""},
	} {
		code, m := e.post(tt.token, "/api/challenge/"+tt.to, url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}, "rules": {tt.rules}})
		switch {
		case code != 400:
			t.Errorf("%s with rules %q: %d %v, want 400", tt.to, tt.rules, code, m)
		case tt.want != "" && m["error"] != tt.want:
			t.Errorf("%s with rules %q: %v, want %q", tt.to, tt.rules, m, tt.want)
		case tt.want == "" && m["rules"] == nil:
			t.Errorf("%s with rules %q: %v, want a field error on rules", tt.to, tt.rules, m)
		}
	}
}

// challengeMap creates a 1+0 challenge and returns its JSON.
func (e *testEnv) challengeMap(token, to string) map[string]any {
	e.t.Helper()
	code, m := e.post(token, "/api/challenge/"+to, url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}})
	if code != 200 {
		e.t.Fatalf("challenge %s: %d %v", to, code, m)
	}
	return m
}

// TestBulkPairing: lila's POST /api/bulk-pairing starts every game at once
// with source "api", no first-move deadline and the bulk's rules, and
// refuses the whole bulk for a bad token or a player paired twice.
func TestBulkPairing(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now})
	bot := e.open(tokBot1, "/api/stream/event")
	code, m := e.bulk(url.Values{"players": {tokAlice + ":" + tokBot1 + "," + tokBot2 + ":" + tokBob},
		"clock.limit": {"180"}, "clock.increment": {"2"}, "rules": {"noClaimWin,noAbort"}})
	if code != 200 || len(m["games"].([]any)) != 2 || m["pairedAt"] != nil || m["startClocksAt"] != nil ||
		!reflect.DeepEqual(m["rules"], []any{"noAbort", "noClaimWin"}) ||
		!reflect.DeepEqual(m["clock"], map[string]any{"limit": 180.0, "increment": 2.0}) {
		t.Fatalf("bulk: %d %v", code, m)
	}
	first := m["games"].([]any)[0].(map[string]any)
	if first["white"] != "alice" || first["black"] != "bot1" {
		t.Fatalf("first game: %v", first)
	}
	id := first["id"].(string)
	if g := bot.nextType("gameStart")["game"].(map[string]any); g["gameId"] != id || g["source"] != SourceAPI {
		t.Fatalf("gameStart: %v", g)
	}
	clk.add(time.Hour) // not expirable: no noStart
	if g := e.snapshot(id); g.Status != "started" || g.Source != SourceAPI {
		t.Fatalf("an hour later: %+v", g)
	}
	for _, tt := range []struct {
		name string
		form url.Values
		key  string // the answer's key
	}{
		{"bad token", url.Values{"players": {tokAlice + ":nope"}, "clock.limit": {"60"}, "clock.increment": {"0"}}, "tokens"},
		{"twice", url.Values{"players": {tokAlice + ":" + tokBot1 + "," + tokAlice + ":" + tokBot2}, "clock.limit": {"60"}, "clock.increment": {"0"}}, "duplicateUsers"},
		{"no clock", url.Values{"players": {tokAlice + ":" + tokBot1}}, "global"},
		{"bad rule", url.Values{"players": {tokAlice + ":" + tokBot1}, "days": {"3"}, "rules": {"noFun"}}, "rules"},
	} {
		code, m := e.bulkRefused(tt.form)
		if code != 400 || m[tt.key] == nil {
			t.Errorf("%s: %d %v, want 400 with %q", tt.name, code, m, tt.key)
		}
	}
	if got := len(e.srv.Games()); got != 2 {
		t.Errorf("refused bulks created games: %d games", got)
	}
}

// TestNoAbortRule: under noAbort a game's first two plies can be neither
// aborted nor resigned (lila BotPlayer.abort and resign, Game.abortableByUser
// and resignable), then it is resigned as any game.
func TestNoAbortRule(t *testing.T) {
	e := newEnv(t, Config{})
	id := e.bulkGame("noAbort")
	e.wantError(tokBot1, "/api/bot/game/"+id+"/abort", 400, "This game can no longer be aborted")
	e.wantError(tokAlice, "/api/board/game/"+id+"/resign", 400, "This game cannot be resigned")
	e.play(id, "e2e4")
	e.wantError(tokBot1, "/api/bot/game/"+id+"/resign", 400, "This game cannot be resigned")
	if _, m := e.post(tokAlice, "/api/challenge/"+id+"/cancel", nil); m["ok"] == true {
		t.Fatal("cancel aborted a noAbort game")
	}
	e.play(id, "", "e7e5")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/resign", nil)
	if g := e.snapshot(id); g.Status != "resign" || g.Winner != "white" {
		t.Fatalf("resign after the first moves: %+v", g)
	}
	// Without the rule the same game is aborted.
	id = e.bulkGame("")
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/abort", nil)
	if g := e.snapshot(id); g.Status != "aborted" {
		t.Fatalf("abort without the rule: %+v", g)
	}
}

// distinctPlies returns n legal moves from the start that never repeat a
// position nor end the game, so that a game reaches ply n.
func distinctPlies(t *testing.T, n int) []string {
	t.Helper()
	b := board.New()
	seen := map[uint64]bool{b.Hash(): true}
	var out []string
	for len(out) < n {
		found := false
		for _, m := range b.LegalMoves() {
			b.Make(m)
			if !seen[b.Hash()] && b.HasLegalMoves() && b.Pieces(board.White, board.Queen)|b.Pieces(board.Black, board.Queen) != 0 {
				seen[b.Hash()] = true
				out = append(out, m.String())
				found = true
				break
			}
			b.Unmake()
		}
		if !found {
			t.Fatalf("no fresh move after %v", out)
		}
	}
	return out
}

// TestNoEarlyDrawRule: under noEarlyDraw no draw is offered, accepted or
// claimed before ply 60 (lila Game.rulePreventsDraw; BotPlayer.offerDraw,
// setDraw and claimDraw answer ok and change nothing); from ply 60 offers
// work again.
func TestNoEarlyDrawRule(t *testing.T) {
	e := newEnv(t, Config{})
	moves := distinctPlies(t, earlyDrawPlies)
	id := e.bulkGame("noEarlyDraw")
	e.play(id, moves[:2]...)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/"+moves[2]+"?offeringDraw=true", nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/draw/yes", nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/claim-draw", nil)
	if g := e.snapshot(id); g.WhiteDraw || g.BlackDraw || g.Status != "started" {
		t.Fatalf("a draw before ply 60 under noEarlyDraw: %+v", g)
	}
	e.play(id, append([]string{""}, moves[3:]...)...) // moves[3] is black's
	if g := e.snapshot(id); len(g.Moves) != earlyDrawPlies || g.Status != "started" {
		t.Fatalf("setup: %d plies, %s", len(g.Moves), g.Status)
	}
	e.mustOK(tokAlice, "/api/board/game/"+id+"/draw/yes", nil)
	e.mustOK(tokBot1, "/api/bot/game/"+id+"/draw/yes", nil)
	if g := e.snapshot(id); g.Status != "draw" {
		t.Fatalf("a draw agreed at ply 60: %+v", g)
	}
	// Without the rule the early offer stands.
	id = e.bulkGame("")
	e.play(id, moves[:2]...)
	e.mustOK(tokAlice, "/api/board/game/"+id+"/move/"+moves[2]+"?offeringDraw=true", nil)
	if g := e.snapshot(id); !g.WhiteDraw {
		t.Fatalf("an offer without the rule: %+v", g)
	}
}

// TestNoClaimWinRule: under noClaimWin the opponent's absence is never
// announced and neither claim ends the game (lila: the round's Tick needs
// Game.forceResignableNow; claimVictory answers ok without Pov.mightClaimWin,
// claimDraw 400 when RoundGame.forceDrawable refuses); the same bulk
// without the rule is won by the claim.
func TestNoClaimWinRule(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now, GoneAfter: time.Second, ClaimWinAfter: time.Second})
	for _, rules := range []string{"noClaimWin", ""} {
		id := e.bulkGame(rules)
		bot := e.open(tokBot1, "/api/bot/game/stream/"+id)
		bot.nextType("gameFull")
		e.play(id, "e2e4", "e7e5")
		bot.nextType("gameState")
		bot.nextType("gameState")
		clk.add(10 * time.Second) // alice, who never opened a stream, is long gone (her clock: 60 s)
		code, m := e.post(tokBot1, "/api/bot/game/"+id+"/claim-victory", nil)
		if rules == "" {
			if g := e.snapshot(id); code != 200 || g.Status != "timeout" || g.Winner != "black" {
				t.Fatalf("claim without the rule: %d %v %+v", code, m, g)
			}
			continue
		}
		if code != 200 || m["ok"] != true {
			t.Fatalf("claim-victory under noClaimWin: %d %v, want lila's ok", code, m)
		}
		e.wantError(tokBot1, "/api/bot/game/"+id+"/claim-draw", 400, "You cannot claim draw on this game")
		e.play(id, "g1f3")
		var st map[string]any
		if err := json.Unmarshal([]byte(bot.nextLine()), &st); err != nil || st["type"] != "gameState" {
			t.Fatalf("after the claims the bot's stream says %v (%v), want the move's gameState and no opponentGone", st, err)
		}
		if g := e.snapshot(id); g.Status != "started" {
			t.Fatalf("a claim ended a noClaimWin game: %+v", g)
		}
		bot.close()
	}
}
