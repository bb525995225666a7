package demo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/sandbox"
)

// operatorConfig is the daemon configuration of the operator-rule tests:
// the easy engine, no chat but the commands, nobody aborted.
func operatorConfig() *config.Config {
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	cfg.Game.AbortAfter = 0
	cfg.Game.Greeting, cfg.Game.Goodbye = "", ""
	cfg.Game.Shutdown = "leave"
	return cfg
}

// TestOperatorChallengeRules: against the daemon over loopback HTTP,
// correspondence games leave the real-time slots free and have their own
// limit; the rating window around the bot's own rating (1500), the
// minimum increment per speed and the slot reserved for humans decide
// challenges with Lichess's decline reasons.
func TestOperatorChallengeRules(t *testing.T) {
	cfg := operatorConfig()
	cfg.Challenge.MaxGames = 2
	cfg.Challenge.MaxCorrespondenceGames = 1
	cfg.Challenge.ReservedHumanSlots = 1
	cfg.Challenge.Queue = false
	cfg.Challenge.RatingWindowBelow, cfg.Challenge.RatingWindowAbove = 200, 300
	cfg.Challenge.MinIncrementPerSpeed = map[string]int{"blitz": 2}
	got := map[string]string{}
	var mu sync.Mutex
	res := runScript(t, Options{Config: cfg}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		ask := func(what string, h *human, p lichess.ChallengeParams) {
			answer, _, err := h.challenge(ctx, p, nil)
			assert.NoError(t, err, what)
			mu.Lock()
			got[what] = answer
			mu.Unlock()
		}
		blitz := func(inc int) lichess.ChallengeParams {
			return lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 180, Increment: inc}}
		}
		corr := lichess.ChallengeParams{Days: 3}
		low, high := hs.addPlayer(t, s, "Low", 1299, false), hs.addPlayer(t, s, "High", 1801, false)
		edge := hs.addPlayer(t, s, "Edge", 1300, false)
		ask("below the window", low, blitz(2))
		ask("above the window", high, blitz(2))
		ask("blitz without increment", edge, blitz(0))
		// Slots: one correspondence game, then a real-time game, leave one
		// real-time slot, which only a human may take.
		ask("correspondence", hs.addPlayer(t, s, "Corr", 1500, false), corr)
		ask("second correspondence", hs.addPlayer(t, s, "Corr2", 1500, false), corr)
		ask("real-time beside correspondence", edge, blitz(2))
		bot := hs.addPlayer(t, s, "Robo", 1500, true)
		ask("bot wanting the reserved slot", bot, blitz(2))
		ask("human taking the reserved slot", hs.addPlayer(t, s, "Last", 1500, false), blitz(2))
		ask("bot at capacity", bot, blitz(2))
	})
	assert.Equal(t, map[string]string{
		"below the window":                "generic",
		"above the window":                "generic",
		"blitz without increment":         "timecontrol",
		"correspondence":                  "accepted",
		"second correspondence":           "later",
		"real-time beside correspondence": "accepted",
		"bot wanting the reserved slot":   "later",
		"human taking the reserved slot":  "accepted",
		"bot at capacity":                 "later",
	}, got)
	assert.Len(t, res.Sandbox.Games(), 3)
}

// TestOperatorInGameRules: in games against the daemon, !eval is answered
// to spectators only (the opponent is politely refused), one takeback per
// game is granted to a human and the next declined, and the bot offers a
// draw in a position where nobody can mate.
func TestOperatorInGameRules(t *testing.T) {
	cfg := operatorConfig()
	cfg.Game.TakebacksPerGame = 1
	cfg.Game.OfferDraw, cfg.Game.OfferDrawMoves, cfg.Game.DrawMinPly = true, 100, 0
	var (
		playerReply, spectatorReply string
		afterTakeback, afterDecline string
		drawOffered                 bool
		drawStatus                  string
	)
	runScript(t, Options{Config: cfg}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		h := hs.addPlayer(t, s, "Hugo", 1500, false)
		id, w, ok := acceptedGame(t, ctx, h, lichess.ChallengeParams{Days: 1, Color: lichess.White})
		if !ok {
			return
		}
		defer w.stream.Close()
		api := h.client.Board()
		step := func(err error) bool { return assert.NoError(t, err) }
		_, err := w.plies(0)
		if !step(err) || !step(api.Move(ctx, id, "e2e4", false)) {
			return
		}
		if _, err = w.plies(2); !step(err) || !step(api.Chat(ctx, id, lichess.RoomPlayer, "!eval")) {
			return
		}
		if playerReply, err = w.reply("player"); !step(err) || !step(api.Chat(ctx, id, lichess.RoomSpectator, "!eval")) {
			return
		}
		if spectatorReply, err = w.reply("spectator"); !step(err) || !step(api.Move(ctx, id, "d2d4", false)) {
			return
		}
		// Hugo, to move, proposes: his d2d4 and the bot's reply go back.
		if _, err = w.plies(4); !step(err) || !step(api.Takeback(ctx, id, true)) {
			return
		}
		if afterTakeback, err = w.plies(2); !step(err) || !step(api.Move(ctx, id, "g1f3", false)) {
			return
		}
		if _, err = w.plies(4); !step(err) || !step(api.Takeback(ctx, id, true)) {
			return
		}
		proposed := false
		w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool {
			proposed = proposed || (st != nil && st.WTakeback)
			return st != nil && proposed && !st.WTakeback
		})
		afterDecline = w.last.Moves
		step(api.Resign(ctx, id))

		// A position where nobody can mate: the bot offers a draw with its
		// move. (Another opponent: Hugo's game may still hold its slot.)
		h = hs.addPlayer(t, s, "Hazel", 1500, false)
		api = h.client.Board()
		id, w2, ok := acceptedGame(t, ctx, h, lichess.ChallengeParams{Days: 1, Color: lichess.White,
			FEN: "8/8/4k3/8/2n5/8/4K3/5B2 w - - 0 1"})
		if !ok {
			return
		}
		defer w2.stream.Close()
		if _, err = w2.plies(0); !step(err) || !step(api.Move(ctx, id, "e2f2", false)) {
			return
		}
		if _, err = w2.plies(2); !step(err) {
			return
		}
		drawOffered = w2.last.BDraw
		step(api.Draw(ctx, id, true))
		w2.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && !st.Status.Ongoing() })
		drawStatus = string(w2.last.Status)
	})
	assert.Equal(t, "Sorry, I don't share my evaluation with my opponent. Spectators can ask in the spectator chat.", playerReply)
	assert.True(t, strings.HasPrefix(spectatorReply, "My evaluation: ") || spectatorReply == "No evaluation yet.",
		"spectators get the evaluation: %q", spectatorReply)
	assert.Len(t, strings.Fields(afterTakeback), 2, "the first takeback was granted: %q", afterTakeback)
	assert.Len(t, strings.Fields(afterDecline), 4, "the second was declined: %q", afterDecline)
	assert.True(t, drawOffered, "the bot offered a draw with no mating material on the board")
	assert.Equal(t, "draw", drawStatus)
}

// TestOperatorMatchmakerLists: the matchmaker challenges no bot of its
// block list nor of the challenge block list (include_challenge_block_list),
// and with an allow list only the bots on it.
func TestOperatorMatchmakerLists(t *testing.T) {
	checkLeaks(t)
	for _, tt := range []struct {
		name      string
		set       func(*config.Config)
		challenge []string // bots that may be challenged
	}{
		{"block lists", func(c *config.Config) {
			c.Matchmaking.BlockList = []string{"sparky"}
			c.Matchmaking.IncludeChallengeBlockList = true // matchConfig sets the section without the defaults
			c.Challenge.BlockList = []string{"Grumpy"}
		}, []string{"Buddy"}},
		{"allow list", func(c *config.Config) { c.Matchmaking.AllowList = []string{"GRUMPY"} }, []string{"Grumpy"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t, time.Minute)
			a := &answers{}
			cfg := matchConfig()
			tt.set(cfg)
			res, err := Run(ctx, Options{Config: cfg, Games: 2, NoSparring: true, Dir: t.TempDir(), Logger: testLogger(t),
				Bots:  []SparringBot{a.bot("Sparky", 1500, ""), a.bot("Grumpy", 1500, ""), a.bot("Buddy", 1500, "")},
				Ready: func(s *sandbox.Server) { a.srv = s }})
			require.NoError(t, err)
			for _, name := range []string{"Sparky", "Grumpy", "Buddy"} {
				allowed := false
				for _, c := range tt.challenge {
					allowed = allowed || c == name
				}
				if allowed {
					assert.GreaterOrEqual(t, a.count(name), 2, "%s played both games", name)
				} else {
					assert.Zero(t, a.count(name), "%s is never challenged", name)
					assert.Empty(t, challengeTimes(res.Sandbox, strings.ToLower(name)))
				}
			}
		})
	}
}
