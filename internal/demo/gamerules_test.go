package demo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// rulesBotToken is the bot's token in the rules tests: the bulk pairing
// names both players by their tokens.
const rulesBotToken = "lip_rules_bot_token"

// bulkPair pairs a new human account (white) against the bot in a 1+0 bulk
// with rules, as a tournament organiser does on Lichess (POST
// /api/bulk-pairing, the way rules reach a bot's game: lila refuses them
// in a challenge to a bot). It returns the human's client and the game id.
func bulkPair(t *testing.T, ctx context.Context, s *sandbox.Server, hs *humans, name, rules string) (*human, string, bool) {
	token := "lip_" + randomHex(12)
	s.AddAccount(sandbox.Account{Name: name, Token: token, Rating: 1500})
	c, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: lichess.Token(token), Logger: zerolog.Nop()})
	require.NoError(t, err)
	h := &human{name: name, client: c}
	hs.mu.Lock()
	hs.list = append(hs.list, h)
	hs.mu.Unlock()
	form := url.Values{"players": {token + ":" + rulesBotToken}, "clock.limit": {"60"}, "clock.increment": {"0"}, "rules": {rules}}
	req, err := http.NewRequestWithContext(ctx, "POST", s.URL()+"/api/bulk-pairing", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if !assert.NoError(t, err) {
		return h, "", false
	}
	defer resp.Body.Close()
	var bulk struct {
		Games []struct{ ID string } `json:"games"`
	}
	if !assert.Equal(t, 200, resp.StatusCode) || !assert.NoError(t, json.NewDecoder(resp.Body).Decode(&bulk)) ||
		!assert.Len(t, bulk.Games, 1) {
		return h, "", false
	}
	return h, bulk.Games[0].ID, true
}

// plies waits until game id has n plies or is over and reports whether it
// has exactly n.
func plies(t *testing.T, s *sandbox.Server, id string, n int) bool {
	var g sandbox.GameSnapshot
	assert.Eventually(t, func() bool {
		g, _ = s.Game(id)
		return len(g.Moves) >= n || g.Over()
	}, 30*time.Second, 10*time.Millisecond)
	return assert.Len(t, g.Moves, n, "game %+v", g)
}

// requested reports whether the bot sent a request whose path ends with
// suffix, and the status of the last one.
func requested(s *sandbox.Server, suffix string) (bool, int) {
	found, status := false, 0
	for _, r := range s.Requests() {
		if r.User == strings.ToLower(BotName) && strings.HasSuffix(r.Path, suffix) {
			found, status = true, r.Status
		}
	}
	return found, status
}

// TestDaemonInRuledGames (#31.4): the daemon plays bulk-paired games with
// each rule it can meet, not knowing them (Lichess names rules only in a
// challenge's JSON), and the sandbox holds it to them as lila does:
//   - noAbort: its abort of a silent opponent is refused (400); the game is
//     played once she moves;
//   - noEarlyDraw: it accepts every draw, but her offers in the first plies
//     are dropped: the game goes on;
//   - noClaimWin: she is away long past the claim delays; no opponentGone
//     comes, it claims nothing, and answers her late move.
//
// Each fails without the sandbox's rule (the abort, the draw, the claim
// end the game).
func TestDaemonInRuledGames(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		sbCfg  func(clk *manualNow) sandbox.Config
		script func(t *testing.T, ctx context.Context, s *sandbox.Server, clk *manualNow, api *lichess.PlayAPI, id string)
	}{
		{lichess.RuleNoAbort, nil, func(t *testing.T, ctx context.Context, s *sandbox.Server, _ *manualNow, api *lichess.PlayAPI, id string) {
			assert.Eventually(t, func() bool { ok, _ := requested(s, "/abort"); return ok }, 30*time.Second, 10*time.Millisecond)
			_, status := requested(s, "/abort")
			assert.Equal(t, 400, status, "the abort is refused")
			assert.NoError(t, api.Move(ctx, id, "e2e4", false))
			plies(t, s, id, 2)
		}},
		{lichess.RuleNoEarlyDraw, nil, func(t *testing.T, ctx context.Context, s *sandbox.Server, _ *manualNow, api *lichess.PlayAPI, id string) {
			assert.NoError(t, api.Move(ctx, id, "e2e4", true))
			if plies(t, s, id, 2) {
				assert.NoError(t, api.Draw(ctx, id, true))
				assert.NoError(t, api.Move(ctx, id, "g1f3", true))
				plies(t, s, id, 4)
			}
		}},
		{lichess.RuleNoClaimWin, func(clk *manualNow) sandbox.Config {
			return sandbox.Config{Now: clk.now, GoneAfter: time.Second, ClaimWinAfter: time.Second}
		}, func(t *testing.T, ctx context.Context, s *sandbox.Server, clk *manualNow, api *lichess.PlayAPI, id string) {
			// She never opens the game's stream: away from the start.
			if !assert.NoError(t, api.Move(ctx, id, "e2e4", false)) || !plies(t, s, id, 2) ||
				!assert.NoError(t, api.Move(ctx, id, "g1f3", false)) || !plies(t, s, id, 4) {
				return
			}
			clk.add(30 * time.Second) // past the claim delays, within her minute
			s.Game(id)                // the sandbox applies its deadlines: an opponentGone, were it claimable
			if assert.NoError(t, api.Move(ctx, id, "f1c4", false), "she moves 30 s later") {
				plies(t, s, id, 6)
			}
			ok, _ := requested(s, "/claim-victory")
			okDraw, _ := requested(s, "/claim-draw")
			assert.False(t, ok || okDraw, "the daemon claimed")
		}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			cfg := easyConfig()
			cfg.Game.AcceptDraw, cfg.Game.DrawMinPly = "always", 0
			cfg.Game.AbortAfter = 30 * time.Second
			// The abort alarm fires at once: the bot aborts as soon as it
			// has seen her owe the first move.
			fired := func(time.Duration) (<-chan time.Time, func()) {
				c := make(chan time.Time, 1)
				c <- time.Now()
				return c, func() {}
			}
			clk := &manualNow{t: time.Now()}
			opt := Options{Config: cfg, BotToken: rulesBotToken}
			if tc.rule == lichess.RuleNoAbort {
				opt.Hooks = daemon.Hooks{NewAlarm: fired}
			}
			if tc.sbCfg != nil {
				opt.Sandbox = tc.sbCfg(clk)
			}
			var id string
			res := runScript(t, opt, func(ctx context.Context, s *sandbox.Server, hs *humans) {
				h, gid, ok := bulkPair(t, ctx, s, hs, "Rita", tc.rule)
				if !ok {
					return
				}
				id = gid
				api := h.client.Board()
				tc.script(t, ctx, s, clk, api, id)
				g, _ := s.Game(id)
				assert.Equal(t, "started", g.Status, "the %s game goes on: %+v", tc.rule, g)
				assert.NoError(t, api.Resign(ctx, id)) // the daemon finishes games before it stops
			})
			g, _ := res.Sandbox.Game(id)
			assert.Equal(t, "resign", g.Status, "game %+v", g)
		})
	}
}
