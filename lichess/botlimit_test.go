package lichess

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// botCapAnswers is a fake Lichess that answers a challenge as lila's
// BotLimit does (modules/bot/src/main/BotLimit.scala): 429 for our own cap
// when the path names "capme", 400 for the opponent's when it names
// "capped"; every other request gets the usual answer.
func botCapAnswers(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, "/api/challenge/capme"):
		writeJSON(w, 429, `{"error":"You played 100 games against other bots today, please wait before challenging another bot.","ratelimit":{"key":"bot.vsBot.day","seconds":3600}}`)
	case strings.HasSuffix(r.URL.Path, "/api/challenge/capped"):
		writeJSON(w, 400, `{"error":"Capped played 100 games against other bots today, please wait until 2026-01-02T05:04:05.000Z to challenge them.","ratelimit":{"key":"bot.vsBot.day","seconds":7200}}`)
	default:
		fakeAnswers(w, r)
	}
}

// TestBotGamesLimitLocksNothingElse: a 429 of the daily bot-vs-bot cap
// (key bot.vsBot.day) starts no lockout — a move, a chat line and the
// account read go out at once after it — but is recorded as
// BotGamesLimitedUntil and told to OnBotGamesLimit. Without the scoped
// handling every request would wait an hour.
func TestBotGamesLimitLocksNothingElse(t *testing.T) {
	checkGoroutines(t)
	f := newFake(t, botCapAnswers)
	clk := NewManualClock(t0)
	var told []time.Time
	c, logs := newTestClient(t, f.URL, func(o *Options) {
		o.Clock = clk
		o.OnBotGamesLimit = func(until time.Time) { told = append(told, until) }
		o.OnLockout = func(time.Time) { t.Error("a lockout was started") }
	})
	ctx := ctxT(t)
	_, err := c.CreateChallenge(ctx, "capme", ChallengeParams{Clock: &ChallengeClock{Limit: 60}})
	e, ok := BotGamesLimit(err)
	if !ok || e.Status != 429 || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("want a 429 of the bot-game cap, got %v", err)
	}
	want := t0.Add(time.Hour)
	if !e.LimitEnd.Equal(want) || !c.BotGamesLimitedUntil().Equal(want) || e.RetryAfter != 0 {
		t.Fatalf("limit end %v / %v, retry after %v; want %v and no lockout", e.LimitEnd, c.BotGamesLimitedUntil(), e.RetryAfter, want)
	}
	if len(told) != 1 || !told[0].Equal(want) {
		t.Fatalf("OnBotGamesLimit got %v", told)
	}
	if !c.LockedUntil().IsZero() {
		t.Fatalf("global lockout until %v", c.LockedUntil())
	}
	// The clock does not move: any of these waiting on a lockout would
	// block until the test's deadline.
	if err := c.Bot().Move(ctx, "abcdefgh", "e2e4", false); err != nil {
		t.Fatalf("move after the cap: %v", err)
	}
	if err := c.Bot().Chat(ctx, "abcdefgh", RoomPlayer, "hi"); err != nil {
		t.Fatalf("chat after the cap: %v", err)
	}
	if _, err := c.Account(ctx); err != nil {
		t.Fatalf("account after the cap: %v", err)
	}
	if !strings.Contains(logs.String(), "bot-vs-bot") {
		t.Error("the cap is not logged")
	}
}

// TestBotGamesLimitOfOpponent: a 400 with key bot.vsBot.day names the
// opponent's cap: LimitEnd is its end, our own cap and lockout untouched.
func TestBotGamesLimitOfOpponent(t *testing.T) {
	f := newFake(t, botCapAnswers)
	clk := NewManualClock(t0)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk })
	_, err := c.CreateChallenge(ctxT(t), "capped", ChallengeParams{Clock: &ChallengeClock{Limit: 60}})
	e, ok := BotGamesLimit(err)
	if !ok || e.Status != 400 || !errors.Is(err, ErrBadRequest) || !e.LimitEnd.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("want a 400 of the opponent's cap ending at +2h, got %v (%+v)", err, e)
	}
	if !c.BotGamesLimitedUntil().IsZero() || !c.LockedUntil().IsZero() {
		t.Fatalf("our limits moved: %v %v", c.BotGamesLimitedUntil(), c.LockedUntil())
	}
	if !strings.Contains(err.Error(), "until") {
		t.Errorf("error does not say until when: %v", err)
	}
}

// TestBotGamesLimitSeeded: a cap persisted before a restart is known.
func TestBotGamesLimitSeeded(t *testing.T) {
	f := newFake(t, fakeAnswers)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.BotGamesLimitedUntil = t0 })
	if !c.BotGamesLimitedUntil().Equal(t0) {
		t.Fatalf("seed lost: %v", c.BotGamesLimitedUntil())
	}
}
