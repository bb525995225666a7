package sandbox

import (
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestBotLimit follows lila's BotLimit (modules/bot/src/main/BotLimit.scala)
// with a cap of 2: bot-vs-bot games are counted for both bots when they
// start; a capped bot challenging a bot gets 429 with lila's Limited body,
// a bot challenging a capped one gets 400 naming it and the date, with the
// same ratelimit object; accepting is checked the same way; humans are
// never limited; the cap clears a day after the window's first game.
func TestBotLimit(t *testing.T) {
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	// lila's request limits on (ratelimit.go): the daily cap keeps its own answers.
	e := newEnv(t, Config{BotGamesPerDay: 2, RequestLimits: 1, Now: now, Accounts: []Account{
		{Name: "bot1", Token: tokBot1, Bot: true}, {Name: "bot2", Token: tokBot2, Bot: true},
		{Name: "Bot3", Token: "tok-bot3-SECRET", Bot: true}, {Name: "Alice", Token: tokAlice},
	}})
	clock := url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}}
	play := func(from, fromTok, toTok string) {
		t.Helper()
		id := e.challenge(fromTok, from, clock)
		e.mustOK(toTok, "/api/challenge/"+id+"/accept", nil)
	}
	play("bot2", tokBot1, tokBot2) // bot1: 1, bot2: 1
	pending := e.challenge("tok-bot3-SECRET", "bot1", clock)
	play("bot1", tokBot2, tokBot1) // bot1: 2, bot2: 2

	code, m := e.post(tokBot1, "/api/challenge/bot3", clock)
	rl, _ := m["ratelimit"].(map[string]any)
	secs, _ := rl["seconds"].(float64)
	if code != 429 || m["error"] != "You played 2 games against other bots today, please wait before challenging another bot." ||
		rl["key"] != "bot.vsBot.day" || secs < 86000 || secs > 86400 {
		t.Fatalf("capped bot challenging: %d %v", code, m)
	}
	code, m = e.post(tokBot1, "/api/challenge/"+pending+"/accept", nil)
	if rl, _ := m["ratelimit"].(map[string]any); code != 429 || rl["key"] != "bot.vsBot.day" {
		t.Fatalf("capped bot accepting: %d %v", code, m)
	}
	code, m = e.post("tok-bot3-SECRET", "/api/challenge/bot2", clock)
	msg, _ := m["error"].(string)
	if rl, _ := m["ratelimit"].(map[string]any); code != 400 || rl["key"] != "bot.vsBot.day" ||
		!strings.HasPrefix(msg, "bot2 played 2 games against other bots today, please wait until ") ||
		!strings.HasSuffix(msg, "Z to challenge them.") {
		t.Fatalf("challenging a capped bot: %d %v", code, m)
	}
	// Humans are not counted nor limited, either way.
	e.challenge(tokAlice, "bot1", clock)
	e.challenge(tokBot1, "Alice", clock)

	offset.Store(int64(botGamesWindow + time.Second))
	e.mustOK(tokBot1, "/api/challenge/"+pending+"/accept", nil)
	e.challenge(tokBot2, "bot1", clock)
}

// TestBotLimitOff: a negative cap never limits.
func TestBotLimitOff(t *testing.T) {
	e := newEnv(t, Config{BotGamesPerDay: -1})
	clock := url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}}
	for range 3 {
		id := e.challenge(tokBot1, "bot2", clock)
		e.mustOK(tokBot2, "/api/challenge/"+id+"/accept", nil)
	}
}
