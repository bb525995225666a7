package demo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// operatorConfig is the daemon configuration of the operator-rule tests:
// the easy engine, no chat but the commands, nobody aborted.
func operatorConfig() *config.Config {
	cfg := easyConfig()
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

// playPawns has h, White in game id, push its pawns a2a3, b2b3, … for n
// moves, each after the bot's reply to the previous one (start is the ply
// the game is at); offer says which of h's moves offer a draw.
func playPawns(ctx context.Context, w *gameWatch, h *human, id string, start, n int, offer func(i int) bool) error {
	for i := 0; i < n; i++ {
		if _, err := w.plies(start + 2*i); err != nil {
			return err
		}
		file := string(rune('a' + i))
		if err := h.client.Board().Move(ctx, id, file+"2"+file+"3", offer != nil && offer(i)); err != nil {
			return err
		}
	}
	return nil
}

// botAnswers lists the bot's answers to draw offers in game id, in order:
// "yes" or "no".
func botAnswers(s *sandbox.Server, id string) []string {
	var out []string
	prefix := "/api/bot/game/" + id + "/draw/"
	for _, r := range s.Requests() {
		if r.User == strings.ToLower(BotName) && r.Status == 200 && strings.HasPrefix(r.Path, prefix) {
			out = append(out, strings.TrimPrefix(r.Path, prefix))
		}
	}
	return out
}

// TestOperatorVariantRefusal: against the daemon over loopback HTTP, a
// Chess960 challenge that the rules give to an engine that cannot play it
// (Maia plays standard chess only) is declined with Lichess's "variant"
// reason, and the same challenge from a player the rules give to medium is
// accepted and played from a Chess960 start position.
func TestOperatorVariantRefusal(t *testing.T) {
	cfg := operatorConfig()
	cfg.Engines.Default = "medium"
	cfg.Game.CorrespondenceMoveTime = 40 * time.Millisecond
	cfg.Challenge.Variants = []string{"standard", "chess960"}
	cfg.Rules = []config.Rule{{Variants: []string{"chess960"}, MinRating: 2000, Engine: "maia-1500"}}
	var strong, casual, gameID string
	res := runScript(t, Options{Config: cfg}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		var err error
		p := lichess.ChallengeParams{Days: 1, Color: lichess.White, Variant: "chess960"}
		strong, _, err = hs.addPlayer(t, s, "Strong", 2100, false).challenge(ctx, p, nil)
		assert.NoError(t, err)
		h := hs.addPlayer(t, s, "Casual", 1500, false)
		if casual, gameID, err = h.challenge(ctx, p, nil); !assert.NoError(t, err) || casual != "accepted" {
			return
		}
		w, err := watchGame(t, ctx, h, gameID)
		if !assert.NoError(t, err) {
			return
		}
		defer w.stream.Close()
		if !assert.NoError(t, playPawns(ctx, w, h, gameID, 0, 3, nil)) {
			return
		}
		_, err = w.plies(6)
		assert.NoError(t, err)
		assert.NoError(t, h.client.Board().Resign(ctx, gameID))
		w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && !st.Status.Ongoing() })
	})
	assert.Equal(t, "variant", strong, "Maia cannot play Chess960")
	require.Equal(t, "accepted", casual, "medium plays Chess960")
	g, ok := res.Sandbox.Game(gameID)
	require.True(t, ok)
	_, is960 := board.Chess960Number(g.InitialFEN)
	assert.True(t, is960, "the game starts from a Chess960 position: %q", g.InitialFEN)
	assert.Len(t, g.Moves, 6, "the bot answered each move: %v", g.Moves)
	assert.Equal(t, "resign", g.Status)
	assert.Len(t, res.Sandbox.Games(), 1, "the declined challenge made no game")
}

// TestOperatorAbortsSilentOpponent: the bot aborts a real-time game whose
// opponent never makes a first move, after abort_after (the alarm is
// injected: the test fires it, no waiting), and does not abort a game once
// the opponent has moved, even when the alarm would fire late.
func TestOperatorAbortsSilentOpponent(t *testing.T) {
	cfg := operatorConfig()
	cfg.Game.AbortAfter = 30 * time.Second
	type alarm struct {
		d       time.Duration
		fire    chan time.Time
		stopped chan struct{}
	}
	alarms := make(chan alarm, 8)
	newAlarm := func(d time.Duration) (<-chan time.Time, func()) {
		a := alarm{d: d, fire: make(chan time.Time, 1), stopped: make(chan struct{})}
		alarms <- a
		var once sync.Once
		return a.fire, func() { once.Do(func() { close(a.stopped) }) }
	}
	var silent, moved lichess.GameState
	var armed []time.Duration
	res := runScript(t, Options{Config: cfg, Hooks: daemon.Hooks{NewAlarm: newAlarm}}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		blitz := lichess.ChallengeParams{Color: lichess.White, Clock: &lichess.ChallengeClock{Limit: 180, Increment: 2}}
		next := func() (alarm, bool) {
			select {
			case a := <-alarms:
				armed = append(armed, a.d)
				return a, true
			case <-ctx.Done():
				t.Error("no abort alarm armed")
				return alarm{}, false
			}
		}
		// The silent opponent owes the first move: the alarm fires, the
		// bot aborts.
		h := hs.addPlayer(t, s, "Silent", 1500, false)
		_, w, ok := acceptedGame(t, ctx, h, blitz)
		if !ok {
			return
		}
		defer w.stream.Close()
		a, ok := next()
		if !ok {
			return
		}
		a.fire <- time.Now()
		w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && !st.Status.Ongoing() })
		silent = *w.last

		// This one moves: the alarm is cancelled, and firing it changes
		// nothing; the game goes on until the opponent resigns.
		h = hs.addPlayer(t, s, "Mover", 1500, false)
		id, w2, ok := acceptedGame(t, ctx, h, blitz)
		if !ok {
			return
		}
		defer w2.stream.Close()
		if a, ok = next(); !ok {
			return
		}
		if _, err := w2.plies(0); !assert.NoError(t, err) || !assert.NoError(t, h.client.Board().Move(ctx, id, "e2e4", false)) {
			return
		}
		select {
		case <-a.stopped:
		case <-ctx.Done():
			t.Error("the alarm was not cancelled after the opponent's first move")
			return
		}
		a.fire <- time.Now()
		if _, err := w2.plies(2); !assert.NoError(t, err) || !assert.NoError(t, h.client.Board().Resign(ctx, id)) {
			return
		}
		w2.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && !st.Status.Ongoing() })
		moved = *w2.last
	})
	assert.Equal(t, []time.Duration{30 * time.Second, 30 * time.Second}, armed, "abort_after armed once per game")
	assert.Equal(t, lichess.StatusAborted, silent.Status, "the silent opponent's game")
	assert.Empty(t, silent.Moves)
	assert.Equal(t, lichess.StatusResign, moved.Status, "the game where the opponent moved is not aborted")
	aborts := 0
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && strings.HasSuffix(r.Path, "/abort") {
			aborts++
		}
	}
	assert.Equal(t, 1, aborts, "one abort request, for the silent opponent's game")
}

// TestOperatorDrawOffersByEval: with accept_draw = "by_eval", the bot
// declines a draw offer before draw_min_ply even in a level position,
// accepts one from draw_min_ply on while its eval is within draw_eval_cp,
// and declines one when it is a queen up.
func TestOperatorDrawOffersByEval(t *testing.T) {
	cfg := operatorConfig()
	cfg.Engines.Default = "medium"
	cfg.Game.CorrespondenceMoveTime = 50 * time.Millisecond
	cfg.Game.AcceptDraw, cfg.Game.DrawEvalCP, cfg.Game.DrawMinPly = runner.DrawByEval, 100, 4
	const (
		level = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
		ahead = "3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1" // the bot (Black) is a queen up
	)
	ids := map[string]string{}
	final := map[string]lichess.Status{}
	res := runScript(t, Options{Config: cfg}, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		for _, pos := range []struct{ name, fen string }{{"level", level}, {"ahead", ahead}} {
			h := hs.addPlayer(t, s, "Drawish"+pos.name, 1500, false)
			id, w, ok := acceptedGame(t, ctx, h, lichess.ChallengeParams{Days: 1, Color: lichess.White, FEN: pos.fen})
			ids[pos.name] = id
			if !ok {
				return
			}
			// Offers with the second move (ply 3, before draw_min_ply) and
			// the third (ply 5).
			err := playPawns(ctx, w, h, id, 0, 3, func(i int) bool { return i > 0 })
			if assert.NoError(t, err) {
				w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool {
					return st != nil && (!st.Status.Ongoing() || len(st.MoveList()) == 6)
				})
				if w.last.Status.Ongoing() {
					assert.NoError(t, h.client.Board().Resign(ctx, id))
					w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && !st.Status.Ongoing() })
				}
				final[pos.name] = w.last.Status
			}
			w.stream.Close()
		}
	})
	assert.Equal(t, []string{"no", "yes"}, botAnswers(res.Sandbox, ids["level"]),
		"level: declined before draw_min_ply, accepted after")
	assert.Equal(t, lichess.StatusDraw, final["level"])
	assert.Equal(t, []string{"no", "no"}, botAnswers(res.Sandbox, ids["ahead"]), "a queen up: declined")
	assert.Equal(t, lichess.StatusResign, final["ahead"])
}

// TestCorrespondenceLeavesMatchmakerFree: while a correspondence game of
// the bot is in progress (its opponent thinking for days), the matchmaker
// still challenges bots and plays a real-time game.
func TestCorrespondenceLeavesMatchmakerFree(t *testing.T) {
	cfg := matchConfig()
	cfg.Matchmaking.DeclineMemory = time.Millisecond // "later" until the correspondence game runs
	var (
		mu       sync.Mutex
		srv      *sandbox.Server
		declined int
	)
	corrOngoing := func() (sandbox.GameSnapshot, bool) {
		for _, g := range srv.Games() {
			if g.DaysPerTurn > 0 && !g.Over() && (g.White == BotName || g.Black == BotName) {
				return g, true
			}
		}
		return sandbox.GameSnapshot{}, false
	}
	buddy := SparringBot{Name: "Buddy", Rating: 1500, ResignAfter: 3, Answer: func(c lichess.Challenge) lichess.DeclineReason {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := corrOngoing(); !ok {
			declined++
			return lichess.DeclineLater
		}
		return ""
	}}
	opt := Options{Config: cfg, Games: 1, Bots: []SparringBot{buddy}, Ready: func(s *sandbox.Server) {
		mu.Lock()
		srv = s
		mu.Unlock()
	}}
	res := runScript(t, opt, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		answer, _, err := hs.addPlayer(t, s, "Pen", 1500, false).challenge(ctx,
			lichess.ChallengeParams{Days: 3, Color: lichess.White}, nil)
		assert.NoError(t, err)
		assert.Equal(t, "accepted", answer)
	})
	require.Len(t, res.Summary, 1)
	mu.Lock()
	corr, ok := corrOngoing()
	mu.Unlock()
	require.True(t, ok, "the correspondence game is still in progress")
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.Equal(t, "bullet", g.Speed)
		assert.Contains(t, []string{g.White, g.Black}, "Buddy")
		assert.True(t, g.Over())
		assert.True(t, g.CreatedAt.After(corr.CreatedAt), "the real-time game began beside the correspondence game")
	}
	times := challengeTimes(res.Sandbox, "buddy")
	require.NotEmpty(t, times)
	assert.True(t, times[len(times)-1].After(corr.CreatedAt), "the matchmaker challenged while the correspondence game ran")
	t.Logf("challenges declined before the correspondence game began: %d", declined)
}

// startRecorder is a summariser that replays each finished game through
// the post-game analysis input (replayStored), as the real one does,
// and keeps the record it was given, the tags and the replay's error.
type startRecorder struct {
	mu    sync.Mutex
	games map[string]store.Game
	tags  map[string][]analysis.Tag
	errs  map[string]error
}

func (r *startRecorder) Summarise(_ context.Context, req postgame.Request) (postgame.Summary, error) {
	g := req.Game
	ag, err := replayStored(g)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.games == nil {
		r.games, r.tags, r.errs = map[string]store.Game{}, map[string][]analysis.Tag{}, map[string]error{}
	}
	r.games[g.ID], r.errs[g.ID] = g, err
	if err == nil {
		r.tags[g.ID] = ag.Tags
	}
	return postgame.Summary{JSON: `{}`, Lines: []string{"Summary of " + g.ID}}, nil
}

// TestChess960RestartKeepsStartPosition: the daemon restarts in the middle
// of a Chess960 game (after a restart gameStart carries the current
// position, not the start); the resumed game is summarised from its real
// start position, and the analysis and the stored PGN carry
// [Variant "Chess960"], [SetUp "1"] and [FEN].
func TestChess960RestartKeepsStartPosition(t *testing.T) {
	cfg := operatorConfig()
	cfg.Engines.Default = "medium"
	cfg.Game.CorrespondenceMoveTime = 40 * time.Millisecond
	cfg.Challenge.Variants = []string{"standard", "chess960"}
	restart := make(chan struct{})
	left := make(chan struct{}, 4) // a runner stopped before its game ended
	rec := &startRecorder{}
	var gameID string
	opt := Options{Config: cfg, Games: 1, Summariser: rec, Restart: restart, Hooks: daemon.Hooks{
		RunnerDone: func(_ runner.Outcome, err error) {
			if err != nil {
				left <- struct{}{}
			}
		}}}
	res := runScript(t, opt, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		h := hs.addPlayer(t, s, "Nina", 1500, false)
		id, w, ok := acceptedGame(t, ctx, h, lichess.ChallengeParams{Days: 1, Color: lichess.White, Variant: "chess960"})
		gameID = id
		if !ok {
			return
		}
		defer w.stream.Close()
		if !assert.NoError(t, playPawns(ctx, w, h, id, 0, 1, nil)) {
			return
		}
		if _, err := w.plies(2); !assert.NoError(t, err) {
			return
		}
		// Restart; the old runner is gone before the next move, so the
		// new daemon plays the rest.
		select {
		case restart <- struct{}{}:
		case <-ctx.Done():
			return
		}
		select {
		case <-left:
		case <-ctx.Done():
			return
		}
		if !assert.NoError(t, h.client.Board().Move(ctx, id, "b2b3", false)) {
			return
		}
		if _, err := w.plies(4); !assert.NoError(t, err) {
			return
		}
		assert.NoError(t, h.client.Board().Resign(ctx, id))
	})
	require.Contains(t, res.Summary, gameID)
	g, ok := res.Sandbox.Game(gameID)
	require.True(t, ok)
	_, is960 := board.Chess960Number(g.InitialFEN)
	require.True(t, is960, "a Chess960 start: %q", g.InitialFEN)
	assert.Len(t, g.Moves, 4)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	got := rec.games[gameID]
	assert.Equal(t, g.InitialFEN, got.InitialFEN, "the summary's game keeps its start position")
	assert.Equal(t, "chess960", got.Variant)
	require.NoError(t, rec.errs[gameID], "the analysis replays the game")
	tags := map[string]string{}
	for _, tg := range rec.tags[gameID] {
		tags[tg.Name] = tg.Value
	}
	assert.Equal(t, map[string]string{"Variant": "Chess960", "SetUp": "1", "FEN": g.InitialFEN}, tags)
	assert.Contains(t, got.PGN, `[Variant "Chess960"]`)
	assert.Contains(t, got.PGN, `[SetUp "1"]`)
	assert.Contains(t, got.PGN, `[FEN "`+g.InitialFEN+`"]`)
}
