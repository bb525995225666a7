package sandbox

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestChallengeExpiry checks the expiry of real-time challenges and that
// keepAliveStream keeps them alive until its connection closes.
func TestChallengeExpiry(t *testing.T) {
	e := newEnv(t, Config{ChallengeTTL: 150 * time.Millisecond})
	bot := e.open(tokBot1, "/api/stream/event")
	form := url.Values{"clock.limit": {"60"}, "clock.increment": {"1"}}
	id := e.challenge(tokAlice, "bot1", form)
	bot.nextType("challenge")
	c := bot.nextType("challengeCanceled")["challenge"].(map[string]any)
	if c["id"] != id || c["status"] != "canceled" {
		t.Fatalf("expiry: %v", c)
	}
	e.wantError(tokBot1, "/api/challenge/"+id+"/accept", 404, "Challenge not found")

	// Correspondence challenges do not expire.
	corr := e.challenge(tokAlice, "bot1", url.Values{"days": {"2"}})
	time.Sleep(250 * time.Millisecond)
	code, list := e.get(tokBot1, "/api/challenge")
	if code != 200 || len(list["in"].([]any)) != 1 || list["in"].([]any)[0].(map[string]any)["id"] != corr {
		t.Fatalf("list: %d %v", code, list)
	}
}

// TestKeepAliveStream checks keepAliveStream challenges.
func TestKeepAliveStream(t *testing.T) {
	e := newEnv(t, Config{ChallengeTTL: 100 * time.Millisecond})
	form := url.Values{"clock.limit": {"60"}, "clock.increment": {"1"}, "keepAliveStream": {"true"}}
	ka := e.openPost(tokAlice, "/api/challenge/bot1", form)
	first := ka.next()
	id := first["id"].(string)
	time.Sleep(250 * time.Millisecond)
	e.mustOK(tokBot1, "/api/challenge/"+id+"/accept", nil)
	if done := ka.next(); done["done"] != "accepted" {
		t.Fatalf("done: %v", done)
	}
	ka.waitEnd()

	// Closing the keep-alive connection withdraws the challenge.
	bot := e.open(tokBot1, "/api/stream/event")
	ka = e.openPost(tokAlice, "/api/challenge/bot1", form)
	id = ka.next()["id"].(string)
	bot.nextType("challenge")
	ka.close()
	if c := bot.nextType("challengeCanceled")["challenge"].(map[string]any); c["id"] != id {
		t.Fatalf("canceled %v", c)
	}
}

// TestChallengeDecline checks decline reasons and the challengeDeclined event.
func TestChallengeDecline(t *testing.T) {
	e := newEnv(t, Config{})
	alice := e.open(tokAlice, "/api/stream/event")
	tests := []struct{ reason, key, text string }{
		{"tooFast", "toofast", "This time control is too fast for me, please challenge again with a slower game."},
		{"noBot", "nobot", "I'm not accepting challenges from bots."},
		{"", "generic", "I'm not accepting challenges at the moment."},
		{"whatever", "generic", "I'm not accepting challenges at the moment."},
		{"later", "later", "This is not the right time for me, please ask again later."},
	}
	for _, tt := range tests {
		id := e.challenge(tokAlice, "bot1", url.Values{"clock.limit": {"180"}, "clock.increment": {"0"}})
		alice.nextType("challenge")
		form := url.Values{}
		if tt.reason != "" {
			form.Set("reason", tt.reason)
		}
		e.wantError(tokAlice, "/api/challenge/"+id+"/decline", 404, "Challenge not found") // not hers to decline
		e.mustOK(tokBot1, "/api/challenge/"+id+"/decline", form)
		c := alice.nextType("challengeDeclined")["challenge"].(map[string]any)
		if c["id"] != id || c["status"] != "declined" || c["declineReasonKey"] != tt.key || c["declineReason"] != tt.text {
			t.Fatalf("reason %q: %v", tt.reason, c)
		}
	}
}

// TestChallengeCancel checks that the challenger can cancel and the other
// side hears of it.
func TestChallengeCancel(t *testing.T) {
	e := newEnv(t, Config{})
	bot := e.open(tokBot1, "/api/stream/event")
	id := e.challenge(tokAlice, "bot1", url.Values{"days": {"1"}})
	bot.nextType("challenge")
	e.wantError(tokBot1, "/api/challenge/"+id+"/cancel", 404, "Challenge not found")
	e.mustOK(tokAlice, "/api/challenge/"+id+"/cancel", nil)
	if c := bot.nextType("challengeCanceled")["challenge"].(map[string]any); c["id"] != id {
		t.Fatalf("%v", c)
	}
}

// TestChallengeValidation checks the creation form's errors.
func TestChallengeValidation(t *testing.T) {
	e := newEnv(t, Config{})
	tests := []struct {
		name string
		to   string
		form url.Values
	}{
		{"bad limit", "bot1", url.Values{"clock.limit": {"61"}, "clock.increment": {"0"}}},
		{"bad increment", "bot1", url.Values{"clock.limit": {"60"}, "clock.increment": {"99"}}},
		{"bad days", "bot1", url.Values{"days": {"4"}}},
		{"bad color", "bot1", url.Values{"days": {"1"}, "color": {"green"}}},
		{"bad variant", "bot1", url.Values{"days": {"1"}, "variant": {"atomic"}}},
		{"bad fen", "bot1", url.Values{"days": {"1"}, "fen": {"not a fen"}}},
		{"ultrabullet bot", "bot1", url.Values{"clock.limit": {"15"}, "clock.increment": {"0"}}},
		{"self", "alice", url.Values{"days": {"1"}}},
		{"no such user", "nobody", url.Values{"days": {"1"}}},
	}
	for _, tt := range tests {
		code, m := e.post(tokAlice, "/api/challenge/"+tt.to, tt.form)
		if code != 400 || m["error"] == nil {
			t.Errorf("%s: %d %v", tt.name, code, m)
		}
	}
	// Regression (issue 18): an illegal fromPosition FEN is refused naming
	// the problem, before any engine sees it.
	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1": "castling right 'K': no white rook on h1",
		"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1":  "the side not to move (black) is in check",
		"4k3/8/8/8/8/8/8/4K3 b - e3 0 1":   "no white pawn on e4",
	} {
		code, m := e.post(tokAlice, "/api/challenge/bot1", url.Values{"days": {"1"}, "fen": {fen}})
		if msg, _ := m["error"].(string); code != 400 || !strings.Contains(msg, want) {
			t.Errorf("fen %s: %d %v, want 400 naming %q", fen, code, m, want)
		}
	}
	// Humans may play UltraBullet.
	if code, m := e.post(tokAlice, "/api/challenge/bob", url.Values{"clock.limit": {"15"}, "clock.increment": {"0"}}); code != 200 || m["speed"] != "ultraBullet" {
		t.Fatalf("ultraBullet between humans: %d %v", code, m)
	}
}

// TestEventStreamReplay checks the replay of challenges and games on
// connect, and one event stream per token.
func TestEventStreamReplay(t *testing.T) {
	e := newEnv(t, Config{})
	game := e.startGame(nil)
	ch := e.challenge(tokAlice, "bot1", url.Values{"days": {"1"}})
	first := e.open(tokBot1, "/api/stream/event")
	if c := first.nextType("challenge")["challenge"].(map[string]any); c["id"] != ch {
		t.Fatalf("replayed challenge %v", c)
	}
	if g := first.nextType("gameStart")["game"].(map[string]any); g["gameId"] != game {
		t.Fatalf("replayed game %v", g)
	}
	second := e.open(tokBot1, "/api/stream/event")
	second.nextType("gameStart")
	first.waitEnd()
	if second.ended() {
		t.Fatal("the new stream must stay open")
	}
	// Other tokens are unaffected.
	alice := e.open(tokAlice, "/api/stream/event")
	alice.nextType("gameStart")
	time.Sleep(150 * time.Millisecond)
	if second.ended() || alice.ended() {
		t.Fatal("streams of other tokens closed")
	}
	if second.keepAlives.Load() == 0 {
		t.Fatal("no keep-alive line within 150ms at a 100ms interval")
	}
}
