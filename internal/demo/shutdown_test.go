package demo

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// stopClock records when the daemon's shutdown started.
type stopClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *stopClock) hook(string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = time.Now()
}

// since is the time since the shutdown started; it fails the test if the
// shutdown never started.
func (c *stopClock) since(t *testing.T) time.Duration {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	require.False(t, c.at.IsZero(), "the shutdown started")
	return time.Since(c.at)
}

// promptStop bounds a shutdown that must not wait for the games: the time
// from its start to the checks after Run returned. It is far above what a
// loaded machine needs under the race detector (stopping the games, the
// streams and the store; each test logs the time it took) and far below
// what waiting would take (the tests' 1-minute shutdown_timeout and
// contexts, their 3-minute games), so it still tells the two apart.
const promptStop = 20 * time.Second

// shutdownConfig is a daemon configuration for the shutdown tests.
func shutdownConfig(mode string, timeout time.Duration) *config.Config {
	cfg := easyConfig() // only the shutdown aborts
	cfg.Game.Shutdown = mode
	cfg.Game.ShutdownTimeout = timeout
	return cfg
}

// moveSignal turns the sandbox's OnMove hook into a wake-up: a test waits
// for a condition on the games by checking it again after each accepted
// move, not by polling.
type moveSignal struct{ ch chan struct{} }

func newMoveSignal() *moveSignal { return &moveSignal{ch: make(chan struct{}, 1)} }

// onMove is the sandbox's Config.OnMove. The send never blocks: a pending
// wake-up already covers this move (wait checks after taking it).
func (m *moveSignal) onMove(string, int) {
	select {
	case m.ch <- struct{}{}:
	default:
	}
}

// wait blocks until cond holds for the sandbox's games (checked now and
// after each move) or ctx ends; it reports whether cond held.
func (m *moveSignal) wait(ctx context.Context, s *sandbox.Server, cond func([]sandbox.GameSnapshot) bool) bool {
	for {
		if cond(s.Games()) {
			return true
		}
		select {
		case <-m.ch:
		case <-ctx.Done():
			return false
		}
	}
}

// stopWhen closes stop as soon as cond holds for the sandbox's games.
func stopWhen(ctx context.Context, s *sandbox.Server, m *moveSignal, stop chan struct{}, cond func([]sandbox.GameSnapshot) bool) {
	go func() {
		if m.wait(ctx, s, cond) {
			close(stop)
		}
	}()
}

// movesPlayed reports a running game with at least n moves.
func movesPlayed(n int) func([]sandbox.GameSnapshot) bool {
	return func(games []sandbox.GameSnapshot) bool {
		for _, g := range games {
			if !g.Over() && len(g.Moves) >= n {
				return true
			}
		}
		return false
	}
}

// sparringHolds reports a running game in which both sides have moved and
// the sparring partner, holding after its first move, is to move.
func sparringHolds(games []sandbox.GameSnapshot) bool {
	for _, g := range games {
		whiteToMove := len(g.Moves)%2 == 0
		if !g.Over() && len(g.Moves) >= 2 && whiteToMove == (g.White == SparringName) {
			return true
		}
	}
	return false
}

// botRequests counts the bot's successful requests whose path ends with suffix.
func botRequests(srv *sandbox.Server, suffix string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.User == strings.ToLower(BotName) && r.Status == 200 && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// TestShutdownFinish: on SIGINT with shutdown = "finish" the daemon
// declines new challenges ("later"), including one waiting in its queue,
// plays the running game to its end, posts its summary, and returns with
// the store up to date and no goroutine left.
func TestShutdownFinish(t *testing.T) {
	ctx := leakChecked(t, time.Minute)
	var hs humans
	defer hs.close()
	moves := newMoveSignal()
	cfg := shutdownConfig("finish", 20*time.Second)
	cfg.Challenge.MaxGames = 1 // a second challenge waits in the queue
	stop := make(chan struct{})
	stopping := make(chan struct{})
	hooks := daemon.Hooks{ShutdownStarted: func(mode string) { close(stopping) }}
	var queuedAnswer, lateAnswer string
	var earlySent atomic.Value // time.Time: when Early's challenge was created
	var wg sync.WaitGroup
	ready := func(s *sandbox.Server) {
		early, late := hs.addPlayer(t, s, "Early", 1500, false), hs.addPlayer(t, s, "Late", 1500, false)
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Sent while the bot plays its one game: it is queued, and
			// declined when the shutdown starts.
			moves.wait(ctx, s, movesPlayed(2))
			var err error
			queuedAnswer, _, err = early.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}},
				func() { earlySent.Store(time.Now()) })
			assert.NoError(t, err)
		}()
		stopWhen(ctx, s, moves, stop, func(games []sandbox.GameSnapshot) bool {
			// Once Early's challenge has had time to reach the queue.
			at, ok := earlySent.Load().(time.Time)
			return ok && time.Since(at) > 100*time.Millisecond && movesPlayed(6)(games)
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Sent during the shutdown, while the game goes on.
			select {
			case <-stopping:
			case <-ctx.Done():
				return
			}
			var err error
			lateAnswer, _, err = late.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}}, nil)
			assert.NoError(t, err)
		}()
	}
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, TC: "1+0", SparringResignAfter: 20, SparringMoveDelay: 60 * time.Millisecond,
		Summariser: sum, Dir: t.TempDir(), Logger: testLogger(t), Ready: ready, Stop: stop, Hooks: hooks,
		Sandbox: sandbox.Config{OnMove: moves.onMove}})
	require.NoError(t, err)
	wg.Wait()
	assert.Equal(t, "later", queuedAnswer, "the queued challenge is declined at shutdown")
	assert.Equal(t, "later", lateAnswer, "a challenge during the shutdown is declined")

	games := res.Sandbox.Games()
	require.Len(t, games, 1, "no game started after the stop")
	g := games[0]
	assert.True(t, g.Over(), "the running game was played to its end")
	// played to its end: the sparring partner resigns after 20 moves unless
	// the bot mates (or the position is drawn) first, which depends on the
	// machine's speed; what matters is that the shutdown did not end it
	// (flake seen on a busy machine: got "mate", want "resign")
	assert.Contains(t, []string{"resign", "mate", "draw", "stalemate"}, g.Status, "the game ended on the board, not by the shutdown")
	checkGames(t, res, sum)
	require.Contains(t, res.Summary, g.ID, "its summary was posted before the daemon returned")

	st := openStore(t, res)
	defer st.Close()
	rec, err := st.Game(ctx, g.ID)
	require.NoError(t, err)
	assert.True(t, rec.Finished(), "the store has the result")
	assert.Equal(t, g.Status, rec.Status)
	an, err := st.AnalysisOf(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, store.AnalysisPosted, an.State)
	active, err := st.ActiveGames(ctx)
	require.NoError(t, err)
	assert.Empty(t, active)
}

// TestShutdownFinishTimeout: "finish" gives up on a game still running at
// shutdown_timeout and leaves it, resumable, in the store.
func TestShutdownFinishTimeout(t *testing.T) {
	timeout := 600 * time.Millisecond
	res, took := stopMidGame(t, "finish", timeout, 100*time.Millisecond)
	assert.GreaterOrEqual(t, took, timeout, "waited for the game")
	t.Logf("the shutdown took %s (timeout %s)", took, timeout)
	assert.Less(t, took, timeout+promptStop, "then stopped")
	assertLeft(t, res)
}

// TestShutdownAbort: "abort" aborts the game that can still be aborted
// (the opponent has not moved) and records it, leaves the one that cannot
// (both sides moved) without resigning it, and returns at once.
func TestShutdownAbort(t *testing.T) {
	ctx := leakChecked(t, time.Minute)
	var hs humans
	defer hs.close()
	moves := newMoveSignal()
	stop := make(chan struct{})
	var clock stopClock
	hooks := daemon.Hooks{ShutdownStarted: clock.hook}
	idleGame := make(chan string, 1)
	ready := func(s *sandbox.Server) {
		idle := hs.addPlayer(t, s, "Idle", 1500, false)
		go func() {
			// Idle takes White and never moves: the game stays abortable.
			answer, id, err := idle.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 180},
				Color: lichess.White}, nil)
			if err == nil && answer == "accepted" {
				idleGame <- id
			}
			close(idleGame)
		}()
		stopWhen(ctx, s, moves, stop, func(games []sandbox.GameSnapshot) bool {
			return len(games) == 2 && movesPlayed(4)(games)
		})
	}
	res, err := Run(ctx, Options{Config: shutdownConfig("abort", time.Minute), TC: "3+0", SparringMoveDelay: 50 * time.Millisecond,
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: testLogger(t), Stop: stop, Hooks: hooks, Ready: ready,
		Sandbox: sandbox.Config{OnMove: moves.onMove}})
	require.NoError(t, err)
	took := clock.since(t)
	t.Logf("the shutdown took %s", took)
	assert.Less(t, took, promptStop, "abort does not wait for the games")
	idleID, ok := <-idleGame
	require.True(t, ok, "the idle human's challenge was accepted")

	st := openStore(t, res)
	defer st.Close()
	for _, g := range res.Sandbox.Games() {
		rec, err := st.Game(ctx, g.ID)
		require.NoError(t, err)
		if g.ID == idleID {
			assert.Equal(t, "aborted", g.Status, "the game nobody moved in is aborted")
			assert.True(t, rec.Finished(), "and recorded in the store")
			assert.Equal(t, "aborted", rec.Status)
			continue
		}
		assert.False(t, g.Over(), "the game with moves is left running, not resigned")
		assert.False(t, rec.Finished(), "and left resumable in the store")
	}
	assert.Zero(t, botRequests(res.Sandbox, "/resign"), "nothing resigned")
	assert.Equal(t, 1, botRequests(res.Sandbox, "/abort"), "one game aborted")
}

// TestShutdownLeave: "leave" stops at once; the game goes on without the
// daemon and stays resumable in the store.
func TestShutdownLeave(t *testing.T) {
	res, took := stopMidGame(t, "leave", time.Minute, 50*time.Millisecond)
	t.Logf("the shutdown took %s", took)
	assert.Less(t, took, promptStop, "leave stops at once")
	assertLeft(t, res)
	assert.Zero(t, botRequests(res.Sandbox, "/resign")+botRequests(res.Sandbox, "/abort"))
}

// stopMidGame runs the daemon with shutdown mode and timeout against the
// sparring partner (3+0, waiting delay before its move) and stops it once
// both sides have moved and the game can go no further: the partner holds
// after its first move (SparringHoldAfter), so nothing can end the game on
// the board while the daemon finishes or leaves it. (Stopping after four
// moves with the partner still playing let two random movers reach a
// quick mate inside the 600 ms "finish" wait: "the game was left running"
// failed in CI.) It returns the run and how long ago the shutdown started.
func stopMidGame(t *testing.T, mode string, timeout, delay time.Duration) (*Result, time.Duration) {
	t.Helper()
	ctx := leakChecked(t, time.Minute)
	moves := newMoveSignal()
	stop := make(chan struct{})
	var clock stopClock
	res, err := Run(ctx, Options{Config: shutdownConfig(mode, timeout), TC: "3+0", SparringMoveDelay: delay, SparringHoldAfter: 1,
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: testLogger(t), Stop: stop,
		Hooks: daemon.Hooks{ShutdownStarted: clock.hook}, Sandbox: sandbox.Config{OnMove: moves.onMove},
		Ready: func(s *sandbox.Server) { stopWhen(ctx, s, moves, stop, sparringHolds) }})
	require.NoError(t, err)
	for _, g := range res.Sandbox.Games() {
		assert.Contains(t, []int{2, 3}, len(g.Moves), "the partner held after its first move: %v", g.Moves)
	}
	return res, clock.since(t)
}

// assertLeft checks that the run's one game is still being played on the
// server and is active, so resumable, in the store.
func assertLeft(t *testing.T, res *Result) {
	t.Helper()
	games := res.Sandbox.Games()
	require.Len(t, games, 1)
	assert.False(t, games[0].Over(), "the game was left running")
	st := openStore(t, res)
	defer st.Close()
	active, err := st.ActiveGames(context.Background())
	require.NoError(t, err)
	require.Len(t, active, 1, "left for the next start")
	assert.Equal(t, games[0].ID, active[0].ID)
}

// TestEventStreamLostForGood: when the event stream ends for good (the
// token was revoked) the daemon shuts down by itself — the matchmaker and
// the games included — and Run returns the stream's error.
func TestEventStreamLostForGood(t *testing.T) {
	ctx := leakChecked(t, time.Minute)
	moves := newMoveSignal()
	cfg := shutdownConfig("leave", time.Minute)
	cfg.Matchmaking = config.MatchmakingConfig{Enabled: true, Interval: 100 * time.Millisecond, TimeControls: []string{"1+0"},
		Variant: "standard", DeclineMemory: time.Hour}
	var revokedAt atomic.Value
	ready := func(s *sandbox.Server) {
		go func() {
			moves.wait(ctx, s, movesPlayed(4))
			// A new token for the bot's account, then the stream drops.
			s.AddAccount(sandbox.Account{Name: BotName, Token: "lip_" + randomHex(12), Bot: true, Rating: 1500})
			_, err := s.Faults().AddSpec("drop:path=/api/stream/event,times=1")
			assert.NoError(t, err)
			revokedAt.Store(time.Now())
		}()
	}
	// Keep-alive lines every 200 ms: the drop fault acts on the next line.
	_, err := Run(ctx, Options{Config: cfg, TC: "3+0", SparringMoveDelay: 50 * time.Millisecond,
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: testLogger(t), Ready: ready,
		Sandbox: sandbox.Config{KeepAlive: 200 * time.Millisecond, OnMove: moves.onMove}})
	require.Error(t, err)
	assert.ErrorContains(t, err, "event stream ended")
	assert.ErrorIs(t, err, lichess.ErrUnauthorized)
	at, ok := revokedAt.Load().(time.Time)
	require.True(t, ok)
	took := time.Since(at)
	t.Logf("the daemon stopped %s after the drop was armed", took)
	assert.Less(t, took, promptStop, "the daemon stopped by itself")
}
