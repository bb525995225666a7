package demo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// TestDaemonDeclinesUnplayableVariantAsVariant: a human challenges the
// daemon in every Lichess variant it cannot play; the sandbox delivers each
// challenge and the challenger's event stream shows the decline reason
// "variant" (it said "standard" before, and the sandbox refused to create
// the challenges at all).
func TestDaemonDeclinesUnplayableVariantAsVariant(t *testing.T) {
	cfg := fastConfig()
	answers := map[string]string{}
	runScript(t, Options{Config: cfg}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		h := hs.addPlayer(t, s, "Vera", 1500, false)
		for _, v := range []string{"crazyhouse", "atomic", "antichess", "horde", "kingOfTheHill", "racingKings", "threeCheck"} {
			answer, _, err := h.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 180, Increment: 2}, Variant: v}, nil)
			if !assert.NoError(t, err, v) {
				return
			}
			answers[v] = answer
		}
	})
	for _, v := range []string{"crazyhouse", "atomic", "antichess", "horde", "kingOfTheHill", "racingKings", "threeCheck"} {
		assert.Equal(t, "variant", answers[v], "decline reason of a %s challenge", v)
	}
}

// manualNow is an injectable sandbox clock that tests move forward.
type manualNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualNow) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *manualNow) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestDaemonNeverClaimsCorrespondence: in a correspondence game the human
// leaves after the fourth ply and stays away for an hour (the sandbox's
// clock), past the claim delays; then she moves. The daemon has claimed
// nothing (lila's forceResignable needs a clock, so no opponentGone is
// sent) and answers her move. Before the fix it won the game by a claim.
func TestDaemonNeverClaimsCorrespondence(t *testing.T) {
	cfg := fastConfig()
	cfg.Game.CorrespondenceMoveTime = 200 * time.Millisecond
	clk := &manualNow{t: time.Now()}
	var id string
	res := runScript(t, Options{Config: cfg, Sandbox: sandbox.Config{Now: clk.now, GoneAfter: time.Second, ClaimWinAfter: time.Second}},
		func(ctx context.Context, s *sandbox.Server, hs *humans) {
			h := hs.addPlayer(t, s, "Cora", 1500, false)
			answer, gid, err := h.challenge(ctx, lichess.ChallengeParams{Days: 1, Color: lichess.White}, nil)
			if !assert.NoError(t, err) || !assert.Equal(t, "accepted", answer) {
				return
			}
			id = gid
			api := h.client.Board()
			// Cora never opens the game's stream: she is away from the start,
			// back only on her moves; she reads the bot's replies (plies).
			if !assert.NoError(t, api.Move(ctx, id, "e2e4", false)) || !plies(t, s, id, 2) ||
				!assert.NoError(t, api.Move(ctx, id, "g1f3", false)) || !plies(t, s, id, 4) {
				return
			}
			clk.add(time.Hour)
			s.Game(id) // the sandbox applies its deadlines an hour later: an opponentGone, were it claimable
			if !assert.NoError(t, api.Move(ctx, id, "f1c4", false), "Cora moves an hour later") || !plies(t, s, id, 6) {
				return
			}
			g, _ := s.Game(id)
			assert.Equal(t, "started", g.Status, "the correspondence game goes on: %+v", g)
			assert.NoError(t, api.Resign(ctx, id)) // ends the game: the daemon finishes games before it stops
		})
	for _, r := range res.Sandbox.Requests() {
		assert.False(t, strings.Contains(r.Path, "/claim-"), "the daemon claimed: %+v", r)
	}
}
