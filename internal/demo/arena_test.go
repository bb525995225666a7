package demo

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// arenaRun is what the arena test's hooks saw.
type arenaRun struct {
	joined   chan string // arena ids joined
	finished chan string // ids of the bot's finished games
	ended    chan string // arenas the sandbox finished
	checked  chan struct{}
}

// TestArenaDaemonPlaysWholeArena plays a sandbox arena of the bot and
// three sparring bots over loopback HTTP: the daemon joins before the
// start, declines a challenge while joined (the slot kept for the arena,
// max_games 1), is paired and plays several rounds, names the arena in its
// summaries, and withdraws once the arena has ended. The standing the API
// gives equals lila's scoring (sandbox.ArenaScore, checked against
// hand-computed sheets) of the games the API exports. Bad arena ids, an
// arena closed to bots and a refused join are logged with their reasons
// while the daemon goes on. Every step waits on an event (the daemon's
// and the sandbox's hooks), never on a sleep.
func TestArenaDaemonPlaysWholeArena(t *testing.T) {
	ctx := leakChecked(t, 3*time.Minute)
	run := &arenaRun{joined: make(chan string, 4), finished: make(chan string, 64), ended: make(chan string, 4),
		checked: make(chan struct{})}
	cfg := fastConfig() // the medium engine against easy sparring bots: wins, streaks and draws
	cfg.Game.AbortAfter = 0
	cfg.Challenge.MaxGames, cfg.Challenge.Queue = 1, false
	cfg.Tournaments.JoinBefore = 2 * time.Hour // join long before the start: the test starts it
	cfg.Tournaments.Arenas = []string{"nosuch12", "closed01", "secret01"}
	logs := &lockedBuffer{}
	var hs humans
	defer hs.close()
	var script sync.WaitGroup
	var arenaID string
	opt := Options{Config: cfg, Arena: 3, TC: "1+0", Sparring: "easy", ArenaStartIn: time.Hour, ArenaDuration: time.Hour,
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: zerolog.New(logs).Level(zerolog.InfoLevel)}
	opt.Sandbox.TimeScale = 0.05 // 1+0 games on 3-second clocks
	opt.Sandbox.ArenaTick = 20 * time.Millisecond
	opt.Sandbox.OnArenaEnd = func(id string) { run.ended <- id }
	opt.Hooks.ArenaJoined = func(id string) { run.joined <- id }
	opt.Hooks.GameFinished = func(g store.Game) { run.finished <- g.ID }
	opt.Hooks.ArenaLeft = func(id, why string) {
		if why == daemon.ArenaEnded {
			<-run.checked // keep the sandbox up until the script has read the results
		}
	}
	var standing []*lichess.ArenaResult
	var exported []*lichess.Game
	opt.Ready = func(s *sandbox.Server) {
		_, err := s.CreateArena(sandbox.ArenaSpec{ID: "closed01", Limit: time.Minute, Duration: time.Hour})
		require.NoError(t, err)
		_, err = s.CreateArena(sandbox.ArenaSpec{ID: "secret01", Limit: time.Minute, Duration: time.Hour, BotsAllowed: true, Password: "sesame"})
		require.NoError(t, err)
		script.Add(1)
		go func() {
			defer script.Done()
			defer close(run.checked)
			arenaID = <-run.joined
			tester := hs.addPlayer(t, s, "Tester", 1500, false)
			answer, _, err := tester.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}}, nil)
			assert.NoError(t, err)
			assert.Equal(t, "later", answer, "joined an arena: its slot is kept free (max_games 1)")
			assert.NoError(t, s.StartArena(arenaID))
			for n := 0; n < 4; n++ { // several rounds for the bot
				select {
				case <-run.finished:
				case <-ctx.Done():
					t.Error("the bot did not finish 4 arena games")
					return
				}
			}
			assert.NoError(t, s.EndArena(arenaID))
			select {
			case <-run.ended:
			case <-ctx.Done():
				t.Error("the arena did not end")
				return
			}
			standing, exported = readArena(ctx, t, s, tester.client, arenaID)
		}()
	}
	res, err := Run(ctx, opt)
	script.Wait()
	require.NoError(t, err)
	require.NotNil(t, res.Arena)
	assert.Equal(t, 30, res.Arena.Status, "the arena finished")

	// The bot played, every arena game is an arena game, and the standing
	// is lila's scoring of the exported games.
	require.NotEmpty(t, exported)
	mine := 0
	for _, g := range exported {
		assert.Equal(t, "arena", g.Source, "game %s", g.ID)
		assert.Contains(t, string(g.Tournament), arenaID, "game %s names its arena", g.ID)
		t.Logf("game %s: %s %s-%s winner %q, %d plies", g.ID, g.Status, g.Players.White.User.Name, g.Players.Black.User.Name, g.Winner, len(strings.Fields(g.Moves)))
		if g.Players.White.User.Name == BotName || g.Players.Black.User.Name == BotName {
			mine++
		}
	}
	assert.GreaterOrEqual(t, mine, 4, "the bot played several rounds")
	want := lilaStanding(exported)
	for _, r := range standing {
		t.Logf("%d. %s %d %s", r.Rank, r.Username, r.Score, r.Sheet.Scores)
	}
	t.Logf("%d arena games, %d of the bot's", len(exported), mine)
	require.Len(t, standing, 4, "the bot and three sparring bots")
	for _, r := range standing {
		w := want[r.Username]
		require.NotNil(t, r.Sheet, r.Username)
		assert.Equal(t, w.total, r.Score, "%s's score", r.Username)
		assert.Equal(t, w.sheet, r.Sheet.Scores, "%s's sheet", r.Username)
	}
	for i := 1; i < len(standing); i++ {
		assert.GreaterOrEqual(t, standing[i-1].Score, standing[i].Score, "ranked by score")
	}

	// It withdrew at the end, never berserked, and the summaries name the
	// arena.
	var withdrew bool
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && r.Method == "POST" && r.Path == "/api/tournament/"+arenaID+"/withdraw" {
			withdrew = true
		}
		assert.NotContains(t, r.Path, "berserk")
	}
	assert.True(t, withdrew, "the bot withdrew from the arena that ended")
	require.NotEmpty(t, res.Summary)
	for id, lines := range res.Summary {
		require.NotEmpty(t, lines, id)
		assert.Contains(t, lines[0], "/tournament/"+arenaID, "the summary of %s names the arena", id)
		assert.Contains(t, lines[0], "Sandbox Bot Arena")
	}

	// The bad entries were logged with their reasons; the daemon went on.
	out := logs.String()
	assert.Contains(t, out, `"arena":"nosuch12"`)
	assert.Contains(t, out, "no such arena on the server")
	assert.Contains(t, out, "does not admit BOT accounts")
	assert.Contains(t, out, "Wrong entry code")
}

// readArena reads the arena's results and games through the client.
func readArena(ctx context.Context, t *testing.T, _ *sandbox.Server, c *lichess.Client, id string) ([]*lichess.ArenaResult, []*lichess.Game) {
	var standing []*lichess.ArenaResult
	for r, err := range c.ArenaResults(ctx, id, 0, true) {
		if !assert.NoError(t, err) {
			break
		}
		standing = append(standing, r)
	}
	var games []*lichess.Game
	for g, err := range c.ArenaGames(ctx, id, "") {
		if !assert.NoError(t, err) {
			break
		}
		games = append(games, g)
	}
	return standing, games
}

// expectedScore is a player's score by lila's rules.
type expectedScore struct {
	total int
	sheet string
}

// lilaStanding scores each player's exported games (most recent first, as
// the API sends them) in the order played.
func lilaStanding(games []*lichess.Game) map[string]expectedScore {
	byPlayer := map[string][]sandbox.ArenaGame{}
	ordered := slices.Clone(games)
	slices.Reverse(ordered)
	for _, g := range ordered {
		plies := len(strings.Fields(g.Moves))
		for _, side := range []struct {
			name  string
			color lichess.Color
		}{{g.Players.White.User.Name, lichess.White}, {g.Players.Black.User.Name, lichess.Black}} {
			out := sandbox.ArenaDraw
			switch g.Winner {
			case side.color:
				out = sandbox.ArenaWin
			case "":
			default:
				out = sandbox.ArenaLoss
			}
			byPlayer[side.name] = append(byPlayer[side.name], sandbox.ArenaGame{Outcome: out, Plies: plies})
		}
	}
	out := map[string]expectedScore{}
	for name, gs := range byPlayer {
		total, sheet, _ := sandbox.ArenaScore(gs, true)
		out[name] = expectedScore{total, sheet}
	}
	return out
}

// TestArenaDaemonWithdrawsAtShutdown stops the daemon while it is joined
// to an arena not started yet: it withdraws (lila then removes it from the
// arena) before it returns, in every shutdown mode.
func TestArenaDaemonWithdrawsAtShutdown(t *testing.T) {
	for _, mode := range []string{"finish", "abort", "leave"} {
		t.Run(mode, func(t *testing.T) {
			ctx := leakChecked(t, time.Minute)
			cfg := easyConfig()
			cfg.Game.Shutdown = mode
			cfg.Tournaments.JoinBefore = 2 * time.Hour
			stop := make(chan struct{})
			left := make(chan string, 1)
			opt := Options{Config: cfg, Arena: 2, TC: "1+0", ArenaStartIn: time.Hour, ArenaDuration: time.Hour,
				Dir: t.TempDir(), Logger: testLogger(t), Stop: stop}
			opt.Hooks.ArenaJoined = func(string) { close(stop) }
			opt.Hooks.ArenaLeft = func(_, why string) { left <- why }
			res, err := Run(ctx, opt)
			require.NoError(t, err)
			select {
			case why := <-left:
				assert.Equal(t, daemon.ArenaShutdown, why)
			default:
				t.Fatal("the daemon did not leave the arena")
			}
			require.NotNil(t, res.Arena)
			for _, p := range res.Arena.Standing {
				assert.NotEqual(t, BotName, p.Name, "withdrawn before the start: no longer a player")
			}
			assert.Len(t, res.Arena.Standing, 2, "the two sparring bots stay")
		})
	}
}
