package lichess_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// TestE2EArenaJoinAndRefusals joins, shows and withdraws over HTTP, and
// checks lila's refusals reach the caller as ErrBadRequest with lila's
// reason: a BOT in an arena without conditions.bots, a wrong entry code,
// an unknown id.
func TestE2EArenaJoinAndRefusals(t *testing.T) {
	e := newE2EWith(t, sandbox.Config{ArenaTick: time.Hour}) // no pairing during the test
	open, err := e.srv.CreateArena(sandbox.ArenaSpec{Name: "Bot Arena", Limit: time.Minute, StartIn: time.Hour,
		Duration: 30 * time.Minute, BotsAllowed: true})
	e.must(err)
	humans, err := e.srv.CreateArena(sandbox.ArenaSpec{Limit: time.Minute, Duration: time.Hour, StartIn: time.Hour})
	e.must(err)
	private, err := e.srv.CreateArena(sandbox.ArenaSpec{Limit: time.Minute, Duration: time.Hour, StartIn: time.Hour,
		BotsAllowed: true, Password: "sesame"})
	e.must(err)

	e.must(e.bot.JoinArena(e.ctx, open, lichess.ArenaJoin{PairMeAsap: true}))
	a, err := e.bot.Arena(e.ctx, open, 0)
	e.must(err)
	if a.State() != lichess.ArenaCreated || !a.BotsAllowed || a.NbPlayers != 1 || a.Me == nil || a.Me.Withdraw ||
		a.FullName != "Bot Arena" || a.Clock.Limit != 60 || a.Minutes != 30 || a.Variant != "standard" || a.StartsAt.IsZero() {
		t.Fatalf("arena after join: %+v", a)
	}
	if a.Standing == nil || len(a.Standing.Players) != 1 || a.Standing.Players[0].Name != "bot1" {
		t.Fatalf("standing: %+v", a.Standing)
	}
	e.must(e.bot.WithdrawArena(e.ctx, open))
	if a, err = e.bot.Arena(e.ctx, open, 0); err != nil || a.NbPlayers != 0 {
		t.Fatalf("after withdrawing before the start: %+v, %v", a, err)
	}

	refusals := []struct {
		id, password, want string
	}{
		{humans, "", "Tournament restrictions"},
		{private, "wrong", "Wrong entry code"},
		{"nosuch12", "", "This tournament no longer exists"},
	}
	for _, r := range refusals {
		err := e.bot.JoinArena(e.ctx, r.id, lichess.ArenaJoin{Password: r.password})
		e.noToken(err)
		if !errors.Is(err, lichess.ErrBadRequest) || !strings.Contains(err.Error(), r.want) {
			t.Errorf("join %s: %v, want a 400 saying %q", r.id, err, r.want)
		}
	}
	e.must(e.bot.JoinArena(e.ctx, private, lichess.ArenaJoin{Password: "sesame"}))
	e.must(e.alice.JoinArena(e.ctx, humans, lichess.ArenaJoin{}))
	if _, err := e.bot.Arena(e.ctx, "nosuch12", 0); !errors.Is(err, lichess.ErrNotFound) {
		t.Errorf("show an unknown arena: %v, want ErrNotFound", err)
	}
	var listed []string
	for a, err := range e.bot.ArenasCreatedBy(e.ctx, "lichess", 10, lichess.ArenaCreated) {
		e.must(err)
		listed = append(listed, a.ID)
		if a.State() != lichess.ArenaCreated || a.FinishesAt.Before(a.StartsAt.Time) {
			t.Errorf("listed arena: %+v", a)
		}
	}
	if len(listed) != 3 {
		t.Errorf("arenas created by lichess: %v, want 3", listed)
	}
}

// FuzzArenaJSON decodes arbitrary arena documents: the flexible date and
// variant fields must never panic, and a decoded date is the one sent.
func FuzzArenaJSON(f *testing.F) {
	f.Add([]byte(`{"id":"x","startsAt":1700000000000,"variant":{"key":"standard"}}`))
	f.Add([]byte(`{"id":"x","startsAt":"2026-12-01T22:00:00Z","variant":"chess960","status":20}`))
	f.Add([]byte(`{"id":"x","startsAt":"soon","variant":3}`))
	f.Add([]byte(`{"id":"x","startsAt":null,"standing":{"page":1,"players":[{"name":"a","sheet":{"scores":"42"}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var a lichess.Arena
		if err := json.Unmarshal(b, &a); err != nil {
			return
		}
		_ = a.State()
		var back struct {
			StartsAt json.RawMessage `json:"startsAt"`
		}
		if json.Unmarshal(b, &back) == nil && len(back.StartsAt) > 0 && back.StartsAt[0] != '"' && string(back.StartsAt) != "null" {
			var ms int64
			if json.Unmarshal(back.StartsAt, &ms) == nil && a.StartsAt.UnixMilli() != ms {
				t.Fatalf("startsAt %s decoded as %v", back.StartsAt, a.StartsAt)
			}
		}
	})
}
