package sandbox

import (
	"net/url"
	"testing"
	"time"
)

// pair starts a 1+0 game of a Lichess pairing (alice white, bot1 black).
func (e *testEnv) pair(source string) string {
	e.t.Helper()
	id, err := e.srv.Pair(Pairing{White: "alice", Black: "bot1", Source: source, Limit: time.Minute})
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

// TestFirstMoveExpiryBySource: as lila's RoundGame.expirable, only games of
// the lobby, pools, arenas and Swiss tournaments announce an expiration and
// end noStart; a challenge game has neither: an hour later both sides still
// make their first moves. The times are lila's (an arena's shorter, Chess960
// × 5 / 4).
func TestFirstMoveExpiryBySource(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 29, 5, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now})
	expiration := func(id string) map[string]any {
		gs := e.open(tokBot1, "/api/bot/game/stream/"+id)
		defer gs.close()
		exp, _ := gs.nextType("gameFull")["state"].(map[string]any)["expiration"].(map[string]any)
		return exp
	}
	for _, c := range []struct {
		source, variant string
		millis          float64 // bullet 1+0
	}{
		{SourceLobby, "standard", 20000}, {SourcePool, "standard", 20000}, {SourceSwiss, "standard", 20000},
		{SourceArena, "standard", 16000}, {SourceLobby, "chess960", 25000}, {SourceArena, "chess960", 20000},
	} {
		id, err := e.srv.Pair(Pairing{White: "alice", Black: "bot1", Source: c.source, Variant: c.variant, Limit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if exp := expiration(id); exp == nil || exp["millisToMove"] != c.millis {
			t.Errorf("%s %s: expiration %v, want millisToMove %v", c.source, c.variant, exp, c.millis)
		}
		if g := e.snapshot(id); g.Source != c.source {
			t.Errorf("%s: snapshot source %q", c.source, g.Source)
		}
	}
	for _, form := range []url.Values{
		{"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"}},
		{"clock.limit": {"60"}, "clock.increment": {"0"}, "color": {"white"}, "variant": {"chess960"}},
	} {
		id := e.startGame(form)
		if exp := expiration(id); exp != nil {
			t.Errorf("challenge game %v: expiration %v, want none", form, exp)
		}
		clk.add(time.Hour)
		if g := e.snapshot(id); g.Over() || g.Source != SourceFriend {
			t.Fatalf("challenge game ended without a first move: %+v", g)
		}
		g := e.snapshot(id)
		first := map[bool][]string{false: {"e2e4", "e7e5"}, true: {"a2a3", "a7a6"}}[g.Variant == "chess960"]
		e.play(id, first...)
		if g := e.snapshot(id); g.Over() || g.WhiteTime != time.Minute {
			t.Fatalf("after both first moves an hour late: %+v", g)
		}
	}
	if _, err := e.srv.Pair(Pairing{White: "alice", Black: "bot1", Source: SourceFriend, Limit: time.Minute}); err == nil {
		t.Error("Pair with source friend: want an error (challenge games come from the challenge API)")
	}
}

// TestCorrespondenceNeverClaimable: lila's Game.forceResignable needs a
// clock, so a correspondence game whose opponent is long gone brings no
// opponentGone line and cannot be claimed (won or drawn).
func TestCorrespondenceNeverClaimable(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 29, 5, 0, 0, 0, time.UTC)}
	e := newEnv(t, Config{Now: clk.now, GoneAfter: 100 * time.Millisecond, ClaimWinAfter: 300 * time.Millisecond})
	id, bot, _ := e.botGame(url.Values{"days": {"3"}, "color": {"white"}})
	e.play(id, "e2e4", "e7e5", "g1f3")
	bot.nextType("gameState")
	bot.nextType("gameState")
	bot.nextType("gameState")
	clk.add(time.Hour) // alice never opened a stream: gone for an hour
	e.wantError(tokBot1, "/api/bot/game/"+id+"/claim-victory", 400, "You cannot claim this game: your opponent is not gone.")
	e.wantError(tokBot1, "/api/bot/game/"+id+"/claim-draw", 400, "You cannot claim this game: your opponent is not gone.")
	e.play(id, "", "b8c6")
	if line := bot.next(); line["type"] != "gameState" {
		t.Fatalf("after an hour of absence in correspondence the bot heard %v, want only its own move's gameState", line)
	}
	if g := e.snapshot(id); g.Over() {
		t.Fatalf("claimed: %+v", g)
	}
}

// TestEveryLichessVariantChallenge: a challenge in any variant Lichess
// offers is created and delivered to the bot (variant key and name, the
// variant as its perf); the sandbox cannot play the ones without its rules,
// so accepting one is refused, and the decline with "variant" reaches the
// challenger's stream with Lichess's text.
func TestEveryLichessVariantChallenge(t *testing.T) {
	e := newEnv(t, Config{})
	botEvents := e.open(tokBot1, "/api/stream/event")
	aliceEvents := e.open(tokAlice, "/api/stream/event")
	for _, key := range []string{"crazyhouse", "antichess", "atomic", "horde", "kingOfTheHill", "racingKings", "threeCheck"} {
		id := e.challenge(tokAlice, "bot1", url.Values{"clock.limit": {"180"}, "clock.increment": {"2"}, "variant": {key}})
		ch := botEvents.nextType("challenge")["challenge"].(map[string]any)
		v := ch["variant"].(map[string]any)
		if ch["id"] != id || v["key"] != key || v["name"] != lichessVariants[key].Name || ch["perf"].(map[string]any)["name"] != v["name"] {
			t.Fatalf("%s: the bot was sent %v", key, ch)
		}
		e.wantError(tokBot1, "/api/challenge/"+id+"/accept", 400,
			"The sandbox has no rules for "+lichessVariants[key].Name+": it plays standard chess, from a position and Chess960 (decline the challenge)")
		e.mustOK(tokBot1, "/api/challenge/"+id+"/decline", url.Values{"reason": {"variant"}})
		for {
			ev := aliceEvents.next()
			if ev["type"] != "challengeDeclined" {
				continue
			}
			d := ev["challenge"].(map[string]any)
			if d["id"] != id || d["declineReasonKey"] != "variant" || d["declineReason"] != "I'm not willing to play this variant right now." {
				t.Fatalf("%s: the challenger saw %v", key, d)
			}
			break
		}
	}
}
