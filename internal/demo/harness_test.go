package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

// The shared set-up of the end-to-end tests: the daemon's configuration,
// the summarisers and the checks every run must pass; the tests' contexts,
// goroutine check and logger; the run's store; the test-driven accounts
// (humans and bots a test adds to the running sandbox, their challenges to
// the bot and the games they watch), and runScript, the daemon run they
// drive.

// countingSummariser returns a fixed summary and counts its calls per game.
type countingSummariser struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingSummariser) Summarise(_ context.Context, r postgame.Request) (postgame.Summary, error) {
	g := r.Game
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls == nil {
		c.calls = map[string]int{}
	}
	c.calls[g.ID]++
	return postgame.Summary{JSON: `{}`, Lines: []string{"Summary of " + g.ID + " (" + g.Status + ")"}}, nil
}

// fastConfig is the daemon configuration of most end-to-end tests: the
// medium engine, a short move overhead, summaries in the player room.
func fastConfig() *config.Config {
	cfg := config.Default()
	cfg.Engines.Default = "medium"
	cfg.Game.MoveOverhead = 50 * time.Millisecond
	cfg.Summary.Rooms = []string{"player"}
	return cfg
}

// easyConfig is fastConfig with the easy engine, aborting no game
// (abort_after 0).
func easyConfig() *config.Config {
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	cfg.Game.AbortAfter = 0
	return cfg
}

// checkGames asserts what every demo run must hold: each game over, no move
// refused as illegal, the bot never out of time, one summary per game.
func checkGames(t *testing.T, res *Result, sum *countingSummariser) {
	t.Helper()
	require.NotEmpty(t, res.Summary)
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok, id)
		assert.NotEqual(t, "started", g.Status, "game %s is over", id)
		if g.Status == "outoftime" {
			loser := g.White
			if g.Winner == "white" {
				loser = g.Black
			}
			assert.NotEqual(t, BotName, loser, "game %s: the bot lost on time", id)
		}
		n := 0
		for _, l := range res.Sandbox.Chat(id) {
			if l.User == BotName && strings.HasPrefix(l.Text, "Summary of "+id) {
				n++
			}
		}
		assert.Equal(t, 1, n, "game %s summarised exactly once in the chat", id)
		if sum != nil {
			assert.Equal(t, 1, sum.calls[id], "game %s analysed once", id)
		}
	}
	// A refused move is allowed only as the resend of a move that had
	// already been played (after a lost answer the runner sends the same
	// reserved move again and Lichess says "not your turn"); any other
	// refusal would be an illegal move.
	for _, r := range res.Sandbox.Requests() {
		if !strings.Contains(r.Path, "/move/") || r.User != strings.ToLower(BotName) || r.Status != 400 {
			continue
		}
		parts := strings.Split(strings.TrimPrefix(r.Path, "/api/bot/game/"), "/")
		require.Len(t, parts, 3, r.Path)
		g, ok := res.Sandbox.Game(parts[0])
		require.True(t, ok, r.Path)
		botWhite := g.White == BotName
		played := false
		for i, m := range g.Moves {
			if m == parts[2] && (i%2 == 0) == botWhite {
				played = true
			}
		}
		assert.True(t, played, "refused move %s was never played: an illegal move", r.Path)
	}
}

// summaryPool is the analysis pool of the tests with the real post-game
// analysis: one Stockfish 15.1 (the native build, else Debian's), one
// thread. It skips the test when Stockfish is not installed.
func summaryPool(t *testing.T) analysis.PoolConfig {
	t.Helper()
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip("Stockfish not installed (make setup installs it)")
	}
	return analysis.PoolConfig{Command: []string{enginepath.Stockfish15}, Workers: 1, Threads: 1, HashMB: 16}
}

// realSummariser sets cfg's summary to a small node budget and returns the
// real post-game summariser on summaryPool, closed when the test ends.
func realSummariser(t *testing.T, cfg *config.Config) *postgame.Summariser {
	t.Helper()
	cfg.Summary.Nodes = 20000
	sum := postgame.New(summaryPool(t), int64(cfg.Summary.Nodes), BotName)
	t.Cleanup(func() { _ = sum.Close() })
	return sum
}

// testContext returns a context that ends after d, or when the test ends.
func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// checkLeaks checks, once the test and its cleanups registered after this
// call have run, that the test left no goroutine behind (the goroutines
// running at the call are ignored). Tests that wait on their games' clocks
// run in parallel and make no such check (see docs/testing.md).
func checkLeaks(t *testing.T) {
	t.Helper()
	running := goleak.IgnoreCurrent()
	t.Cleanup(func() { testkit.NoLeaks(t, running) })
}

// leakChecked is testContext for a test that checkLeaks: the context ends
// before the check.
func leakChecked(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	checkLeaks(t)
	return testContext(t, d)
}

// testLogger logs to the file named by OUTPOST_TEST_LOG (for debugging a
// failing end-to-end test), else nowhere.
func testLogger(t *testing.T) zerolog.Logger {
	path := os.Getenv("OUTPOST_TEST_LOG")
	if path == "" {
		return zerolog.Nop()
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return zerolog.New(f).Level(zerolog.DebugLevel).With().Timestamp().Logger()
}

// openStore opens a finished run's store; close it before the leak check.
func openStore(t *testing.T, res *Result) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(res.StoreDir, "outpost.db"))
	require.NoError(t, err)
	return st
}

// analysisOf returns the stored analysis of game id in a finished run's
// store.
func analysisOf(t *testing.T, res *Result, id string) store.Analysis {
	t.Helper()
	st := openStore(t, res)
	defer st.Close()
	an, err := st.AnalysisOf(context.Background(), id)
	require.NoError(t, err)
	return an
}

// assertPostedOnce asserts that each of lines stands exactly once among
// the bot's lines of game id's chat.
func assertPostedOnce(t *testing.T, res *Result, id string, lines []string) {
	t.Helper()
	chat := res.Sandbox.Chat(id)
	for _, line := range lines {
		n := 0
		for _, l := range chat {
			if l.User == BotName && l.Text == line {
				n++
			}
		}
		assert.Equal(t, 1, n, "line %q posted once", line)
	}
}

// human is a test-driven human account in the sandbox.
type human struct {
	name   string
	client *lichess.Client
}

// humans are the test-driven human accounts of a test; close them before
// checking for goroutine leaks.
type humans struct {
	mu   sync.Mutex
	list []*human
}

// close closes every human's client.
func (hs *humans) close() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	for _, h := range hs.list {
		h.client.Close()
	}
}

// addPlayer adds an account of a rating (a BOT account when bot) to a
// running sandbox, driven by the test.
func (hs *humans) addPlayer(t *testing.T, s *sandbox.Server, name string, rating int, bot bool) *human {
	t.Helper()
	token := "lip_" + randomHex(12)
	acc := sandbox.Account{Name: name, Token: token, Rating: rating, Bot: bot}
	if bot {
		acc.Title = "BOT"
	}
	s.AddAccount(acc)
	c, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: lichess.Token(token), Logger: zerolog.Nop()})
	require.NoError(t, err)
	h := &human{name: name, client: c}
	hs.mu.Lock()
	hs.list = append(hs.list, h)
	hs.mu.Unlock()
	return h
}

// runScript runs the daemon (no sparring partner) with opt while script
// drives the sandbox's accounts. Without opt.Games the daemon stops once
// script returns; with it, Run returns once that many games are over. It
// checks that the test leaves no goroutine behind (checkLeaks).
func runScript(t *testing.T, opt Options, script func(ctx context.Context, s *sandbox.Server, hs *humans)) *Result {
	t.Helper()
	return runScriptLogged(t, opt, nil, script)
}

// runScriptLogged is runScript with the run's log written to logTo (at
// info level) when it is not nil, for a script that follows the log.
func runScriptLogged(t *testing.T, opt Options, logTo io.Writer, script func(ctx context.Context, s *sandbox.Server, hs *humans)) *Result {
	t.Helper()
	ctx := leakChecked(t, 90*time.Second)
	var hs humans
	defer hs.close()
	stop := make(chan struct{})
	if opt.Games == 0 {
		opt.Stop = stop
	}
	var wg sync.WaitGroup
	inner := opt.Ready
	opt.Ready = func(s *sandbox.Server) {
		if inner != nil {
			inner(s)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(stop)
			script(ctx, s, &hs)
		}()
	}
	opt.NoSparring, opt.Dir, opt.Logger = true, t.TempDir(), testLogger(t)
	if logTo != nil {
		opt.Logger = zerolog.New(logTo).Level(zerolog.InfoLevel)
	}
	res, err := Run(ctx, opt)
	wg.Wait()
	require.NoError(t, err)
	return res
}

// challenge challenges the bot and returns the answer: the decline reason
// key ("later", …), or "accepted" with the game id. sent, if not nil, is
// called once the challenge exists.
func (h *human) challenge(ctx context.Context, p lichess.ChallengeParams, sent func()) (answer, id string, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	events, err := h.client.StreamEvents(ctx)
	if err != nil {
		return "", "", err
	}
	defer events.Close()
	c, err := h.client.CreateChallenge(ctx, strings.ToLower(BotName), p)
	if err != nil {
		return "", "", err
	}
	if sent != nil {
		sent()
	}
	for ev := range events.Events() {
		switch e := ev.(type) {
		case *lichess.ChallengeDeclinedEvent:
			if e.Challenge.ID == c.ID {
				return strings.ToLower(e.Challenge.DeclineReasonKey), c.ID, nil
			}
		case *lichess.GameStartEvent:
			if gameID(e.Game) == c.ID {
				return "accepted", c.ID, nil
			}
		}
	}
	return "", c.ID, fmt.Errorf("challenge %s: no answer: %w", c.ID, ctx.Err())
}

// gameWatch follows one game through a player's game stream.
type gameWatch struct {
	t      *testing.T
	stream *lichess.Stream[lichess.GameEvent]
	chat   []lichess.ChatLine
	last   *lichess.GameState
}

// watchGame opens h's stream of game id.
func watchGame(t *testing.T, ctx context.Context, h *human, id string) (*gameWatch, error) {
	s, err := h.client.Board().StreamGame(ctx, id)
	if err != nil {
		return nil, err
	}
	return &gameWatch{t: t, stream: s}, nil
}

// acceptedGame sends h's challenge p and, once the bot has accepted it,
// opens h's stream of the game (the caller closes it); ok is false, the
// failure asserted, otherwise.
func acceptedGame(t *testing.T, ctx context.Context, h *human, p lichess.ChallengeParams) (id string, w *gameWatch, ok bool) {
	t.Helper()
	answer, id, err := h.challenge(ctx, p, nil)
	if !assert.NoError(t, err) || !assert.Equal(t, "accepted", answer) {
		return id, nil, false
	}
	w, err = watchGame(t, ctx, h, id)
	return id, w, assert.NoError(t, err)
}

// until reads the stream until cond holds for a game state or a chat line
// of the bot; it reports false when the stream ended first.
func (w *gameWatch) until(cond func(st *lichess.GameState, chat *lichess.ChatLine) bool) bool {
	for ev := range w.stream.Events() {
		switch e := ev.(type) {
		case *lichess.GameFull:
			w.last = &e.State
			if cond(w.last, nil) {
				return true
			}
		case *lichess.GameState:
			w.last = e
			if cond(e, nil) {
				return true
			}
		case *lichess.ChatLine:
			if strings.EqualFold(e.Username, BotName) {
				w.chat = append(w.chat, *e)
				if cond(nil, e) {
					return true
				}
			}
		}
	}
	return false
}

// plies waits for a state of n moves and returns its moves.
func (w *gameWatch) plies(n int) (string, error) {
	if !w.until(func(st *lichess.GameState, _ *lichess.ChatLine) bool { return st != nil && len(st.MoveList()) == n }) {
		return "", fmt.Errorf("stream ended before %d moves (last %+v): %v", n, w.last, w.stream.Err())
	}
	return w.last.Moves, nil
}

// reply waits for the bot's next chat line in room.
func (w *gameWatch) reply(room string) (string, error) {
	var text string
	ok := w.until(func(_ *lichess.GameState, c *lichess.ChatLine) bool {
		if c != nil && c.Room == room {
			text = c.Text
			return true
		}
		return false
	})
	if !ok {
		return "", fmt.Errorf("stream ended before a reply in %s: %v", room, w.stream.Err())
	}
	return text, nil
}
