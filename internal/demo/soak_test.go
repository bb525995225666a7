package demo

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
)

// soakGames is how many games the soak plays (OUTPOST_SOAK_GAMES overrides).
func soakGames() int {
	if n, err := strconv.Atoi(os.Getenv("OUTPOST_SOAK_GAMES")); err == nil && n > 0 {
		return n
	}
	if raceEnabled {
		return 6 // still past the restart in the third game; see race_on_test.go
	}
	return 20
}

// The soak's games: two sparring partners at once, each game 1+0, the
// partner resigning instead of its move soakResignAfter+1. Two random
// movers (easy against easy) play 170 plies on average, to a draw by the
// rules more often than not; under a loaded machine every ply is slower
// and such games ran into their clocks, so that 6 games took more than
// the 6 minutes the soak had (CI, at load 6-17). The resignation bounds a
// game at 80 plies, and the deadline is the clocks' bound, not a guess.
const (
	soakSparrers    = 2
	soakResignAfter = 40
	soakClock       = time.Minute // 1+0, each side
)

// soakDeadline bounds a soak of games games: at most sparrers games run at
// once and a game of clocks of clock each lasts at most 2·clock; a minute
// per round of games covers the starts, the summaries and the daemon's
// restart. The deadline only ends a soak that hangs: a slow machine plays
// slower games, never longer ones than their clocks allow.
func soakDeadline(games, sparrers int, clock time.Duration) time.Duration {
	rounds := (games + sparrers - 1) / sparrers
	return time.Duration(rounds) * (2*clock + time.Minute)
}

// TestSoakWithFaults plays fast games while the sandbox injects faults at
// random (stream drops and stalls, 429s, 5xx, latency, malformed lines),
// restarts the daemon once mid-game, and checks: no illegal move, no game
// lost on time by the bot, every finished game summarised exactly once, no
// bot request during a 429 lockout, no goroutine left behind.
func TestSoakWithFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test skipped in -short mode")
	}
	checkLeaks(t)
	games := soakGames()
	ctx := testContext(t, soakDeadline(games, soakSparrers, soakClock))
	cfg := config.Default()
	cfg.Engines.Default = "easy"
	cfg.Game.MoveOverhead = 100 * time.Millisecond
	cfg.Game.AbortAfter = 0
	cfg.Summary.Rooms = []string{"player"}
	cfg.Challenge.MaxGames = 2

	restart := make(chan struct{}, 1)
	var restarted atomic.Bool
	var mu sync.Mutex
	finished := 0
	hooks := daemon.Hooks{GameFinished: func(g store.Game) {
		mu.Lock()
		finished++
		mu.Unlock()
	}}
	var srv *sandbox.Server
	lockout := 1500 * time.Millisecond
	faults := []string{
		"drop:path=/api/bot/game/stream/,prob=0.03",
		"drop:path=/api/stream/event,prob=0.02",
		"stall:path=/api/bot/game/stream/,after=3,times=2",
		"stall:path=/api/stream/event,after=2,times=1",
		"malformed:prob=0.02",
		"5xx:status=502,prob=0.02",
		"429:prob=0.004,body=true,seconds=1",
		"429:prob=0.003",
		"latency:delay=3ms,prob=0.3",
	}
	var srvRef atomic.Pointer[sandbox.Server]
	ready := func(s *sandbox.Server) {
		srv = s
		srvRef.Store(s)
		for _, f := range faults {
			_, err := s.Faults().AddSpec(f)
			require.NoError(t, err, f)
		}
	}
	// Restart the daemon once, in the middle of the third game: at the
	// first move that makes a running game 10 plies long once two games
	// have finished (the sandbox calls onMove after each accepted move).
	onMove := func(id string, plies int) {
		mu.Lock()
		n := finished
		mu.Unlock()
		s := srvRef.Load()
		if n < 2 || plies < 10 || s == nil || restarted.Load() {
			return
		}
		if g, ok := s.Game(id); !ok || g.Status != "started" {
			return
		}
		if restarted.CompareAndSwap(false, true) {
			restart <- struct{}{} // buffered: the daemon's watcher takes it
		}
	}
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: games, TC: "1+0", Sparrers: soakSparrers, Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: soakResignAfter,
		Logger:              testLogger(t), Ready: ready, Restart: restart, Hooks: hooks,
		Sandbox: sandbox.Config{KeepAlive: 300 * time.Millisecond, OnMove: onMove},
		Client:  lichess.Options{StreamTimeout: 1500 * time.Millisecond, RateLimit: lockout, ReconnectMin: 50 * time.Millisecond, RetryWaitMin: 50 * time.Millisecond, RetryWaitMax: 500 * time.Millisecond}})
	require.NoError(t, err)
	checkGames(t, res, sum)
	assert.GreaterOrEqual(t, len(res.Summary), games)
	assert.True(t, restarted.Load(), "the daemon was restarted mid-game")
	for _, k := range []sandbox.FaultKind{sandbox.FaultDrop, sandbox.FaultStall, sandbox.FaultMalformed, sandbox.FaultServerError, sandbox.FaultLatency} {
		assert.Positive(t, srv.Faults().Fired(k), "fault %s fired", k)
	}
	checkLockouts(t, srv.Requests(), strings.ToLower(BotName), lockout)
}

// checkLockouts asserts that after every 429 the user sent no request for
// the lockout (or the ratelimit body's seconds, if longer), across the
// daemon's restart too: the lockout is persisted in the store and the
// restarted daemon's client is seeded with it (daemon.PersistLockouts).
func checkLockouts(t *testing.T, reqs []sandbox.RequestRecord, user string, lockout time.Duration) {
	t.Helper()
	var mine []sandbox.RequestRecord
	for _, r := range reqs {
		if r.User == user {
			mine = append(mine, r)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].Time.Before(mine[j].Time) })
	n429 := 0
	for i, r := range mine {
		if r.Status != 429 {
			continue
		}
		n429++
		for _, next := range mine[i+1:] {
			gap := next.Time.Sub(r.Time)
			// 50 ms of slack for the server's and client's clocks reading
			// the same instant at different points of the request.
			assert.GreaterOrEqual(t, gap, lockout-50*time.Millisecond,
				"request %s %s only %s after a 429", next.Method, next.Path, gap)
			break
		}
	}
	t.Logf("%d requests by %s, %d answered 429", len(mine), user, n429)
}

// TestFourSimultaneousGames plays four 1+0 games at once: none may be lost
// on time by the bot.
func TestFourSimultaneousGames(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	ctx := testContext(t, 4*time.Minute)
	cfg := config.Default()
	cfg.Engines.Default = "medium"
	cfg.Challenge.MaxGames = 4
	cfg.Challenge.MaxGamesPerOpponent = 1
	cfg.Summary.Rooms = []string{"player"}
	var mu sync.Mutex
	peak := 0
	var srvRef *sandbox.Server
	done := make(chan struct{})
	defer close(done)
	ready := func(s *sandbox.Server) {
		srvRef = s
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(100 * time.Millisecond):
				}
				n := 0
				for _, g := range s.Games() {
					if g.Status == "started" {
						n++
					}
				}
				mu.Lock()
				peak = max(peak, n)
				mu.Unlock()
			}
		}()
	}
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: 4, TC: "1+0", Sparrers: 4, Summariser: sum, Dir: t.TempDir(),
		Logger: zerolog.Nop(), Ready: ready})
	require.NoError(t, err)
	checkGames(t, res, sum)
	mu.Lock()
	assert.GreaterOrEqual(t, peak, 3, "games ran simultaneously")
	mu.Unlock()
	require.NotNil(t, srvRef)
}

// TestEngineProcessKilledMidGame kills the bot's Stockfish process during a
// game: the engine is restarted (or the fallback answers) and the game goes
// on to its end with legal moves.
func TestEngineProcessKilledMidGame(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	cmd, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip("Stockfish not installed (make setup installs it)")
	}
	// A private copy, so that killing it cannot touch other tests' engines.
	priv := filepath.Join(t.TempDir(), "sf-kill-me")
	data, err := os.ReadFile(cmd[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(priv, data, 0o755))

	ctx := testContext(t, 3*time.Minute)
	cfg := config.Default()
	skill := 3
	cfg.Engines.Defs = map[string]config.EngineConfig{"sf": {Type: "uci", Path: priv, SkillLevel: &skill}}
	cfg.Engines.Default = "sf"
	cfg.Summary.Rooms = []string{"player"}
	killed := make(chan struct{})
	var killOnce sync.Once
	// as soon as the engine has answered once (its process is up): waiting
	// for a later ply left a window a busy machine could miss ("engine
	// never killed"); the sandbox calls onMove after each accepted move
	onMove := func(_ string, plies int) {
		if plies >= 2 {
			killOnce.Do(func() {
				_ = exec.Command("pkill", "-KILL", "-f", priv).Run()
				close(killed)
			})
		}
	}
	var outcomes []runner.Outcome
	var mu sync.Mutex
	hooks := daemon.Hooks{RunnerDone: func(out runner.Outcome, err error) {
		mu.Lock()
		outcomes = append(outcomes, out)
		mu.Unlock()
	}}
	sum := &countingSummariser{}
	var logs testkit.SyncBuffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Summariser: sum, Dir: t.TempDir(),
		Logger: zerolog.New(&logs).Level(zerolog.WarnLevel), Sandbox: sandbox.Config{OnMove: onMove}, Hooks: hooks})
	require.NoError(t, err)
	select {
	case <-killed:
	default:
		t.Fatal("the engine was never killed")
	}
	checkGames(t, res, sum)
	checkEngineWarnsNameTheGame(t, logs.String())
}

// checkEngineWarnsNameTheGame: every warn or error line of the daemon and
// its engines (not the sandbox's, the sparring partners' or the HTTP
// client's) names the game and the bot, and at least one such line (the
// engine's crash) was logged.
func checkEngineWarnsNameTheGame(t *testing.T, logs string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		if !strings.Contains(line, `"level":"warn"`) && !strings.Contains(line, `"level":"error"`) {
			continue
		}
		if strings.Contains(line, `"component":"sandbox"`) || strings.Contains(line, `"component":"sparring"`) ||
			strings.Contains(line, `"component":"lichess"`) || strings.Contains(line, `"component":"sparbot"`) {
			continue
		}
		n++
		assert.Contains(t, line, `"game":`, "a warn line names the game")
		assert.Contains(t, line, `"bot":"`+BotName+`"`, "a warn line names the bot")
	}
	assert.NotZero(t, n, "the engine's crash was logged")
}
