package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/runner"
	"github.com/outpostchess/outpost/models/maiaengine"
	"github.com/outpostchess/outpost/models/modeltest"
)

// matrixFirstMove is the real first-move deadline every speed of the matrix
// gets: each game runs on a clock scaled by matrixFirstMove / (the speed's
// Lichess deadline), so that the ratio of clock to first-move deadline stays
// Lichess's (a rapid clock is 30× its 30 s deadline, a classical one 43×):
// the first move is planned on the deadline, later moves on the clock.
// Stockfish gets matrixFirstMoveProcess: its process starts (and loads its
// network) inside the first-move window, which takes seconds on a machine
// loaded 20 times over; Lichess's real deadlines are 15 to 35 s.
const (
	matrixFirstMove        = 5 * time.Second
	matrixFirstMoveProcess = 8 * time.Second
)

// matrixSpeeds are the speeds of the matrix, with a time control of each.
var matrixSpeeds = []struct {
	speed string
	tc    string // MINUTES+SECONDS; "" for correspondence
	// clockMove: as White the bot also plays a move on the running clock;
	// otherwise (the long clocks, where a move takes seconds) the sparring
	// partner resigns right after its first move.
	clockMove bool
}{
	{"ultraBullet", "0.25+0", true},
	{"bullet", "1+0", true},
	{"blitz", "3+2", false},
	{"rapid", "10+5", false},
	{"classical", "25+0", false},
	{"correspondence", "", true},
}

// TestTimeMatrix plays every speed × every engine × both colours against the
// sandbox over loopback HTTP, on scaled clocks and first-move deadlines: no
// game may end noStart, none may be lost on time, and every one must end
// with a result. Games are kept short: the sparring partner resigns in
// place of its second move, so the bot plays its first move (planned on the
// first-move deadline) and, as White at the short speeds, one move on the
// running clock (at the long ones the sparring partner resigns right after
// its first move). Bots
// cannot play UltraBullet (Lichess refuses it, as does the sandbox), so that
// row plays the engine through the same game runner on a Board API account.
func TestTimeMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the time matrix is skipped in -short mode")
	}
	// beside the other parallel tests; its own games one at a time (one
	// Maia predictor at a time)
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	engines := []string{"easy", "medium", "hard", "knobs", "maia-1500", "stockfish"}
	for _, sp := range matrixSpeeds {
		for _, eng := range engines {
			t.Run(sp.speed+"/"+eng, func(t *testing.T) {
				opts := matrixEngineOptions(t, eng)
				if sp.speed == "ultraBullet" {
					playBoardMatrix(t, sp.tc, eng, opts)
					return
				}
				playBotMatrix(t, sp.speed, sp.tc, !sp.clockMove, eng, opts)
			})
		}
	}
}

// matrixEngineOptions returns the bots options an engine needs (Maia's
// predictor) or skips the engine when it is not installed here.
func matrixEngineOptions(t *testing.T, eng string) []bots.Option {
	t.Helper()
	switch eng {
	case "stockfish":
		if _, err := enginepath.Stockfish15Command(); err != nil {
			t.Skipf("Stockfish not installed: %v", err)
		}
	case "maia-1500":
		p := modeltest.Predictor(t, 1500)
		return []bots.Option{maiaengine.Register(p)}
	}
	return nil
}

// matrixScale is the time scale giving a speed matrixFirstMove (for
// engine eng) to move first.
func matrixScale(speed, eng string) float64 {
	d := matrixFirstMove
	if eng == "stockfish" {
		d = matrixFirstMoveProcess
	}
	return float64(d) / float64(sandbox.FirstMoveDeadline(speed))
}

// playBotMatrix runs the daemon with engine eng against the sparring
// partner for two games, one with each colour.
func playBotMatrix(t *testing.T, speed, tc string, early bool, eng string, opts []bots.Option) {
	cfg := config.Default()
	cfg.Engines.Default = eng
	cfg.Game.MoveOverhead = 50 * time.Millisecond
	cfg.Game.CorrespondenceMoveTime = 300 * time.Millisecond
	cfg.Game.Greeting, cfg.Game.Goodbye = "", ""
	cfg.Summary.Enabled = false
	opt := Options{Config: cfg, Games: 2, TC: tc, Dir: t.TempDir(), Logger: zerolog.Nop(), SparringResignAfter: 1,
		SparringResignEarly: early, Engines: daemon.NewEngineFactory(cfg, zerolog.Nop(), opts...)}
	if speed == "correspondence" {
		opt.Days, opt.TC = 1, ""
	} else {
		opt.Sandbox.TimeScale = matrixScale(speed, eng)
	}
	ctx := testContext(t, 2*time.Minute)
	res, err := Run(ctx, opt)
	require.NoError(t, err)
	require.Len(t, res.Summary, 2)
	colors := map[string]bool{}
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok, id)
		assert.Equal(t, speed, g.Speed, "game %s", id)
		color := "white"
		if g.Black == BotName {
			color = "black"
		}
		colors[color] = true
		checkMatrixGame(t, g, color)
	}
	assert.Len(t, colors, 2, "the bot played both colours")
}

// checkMatrixGame asserts that a game ended with a result the bot did not
// lose on time or by not starting.
func checkMatrixGame(t *testing.T, g sandbox.GameSnapshot, botColor string) {
	t.Helper()
	desc := fmt.Sprintf("game %s (bot %s, %s, moves %s)", g.ID, botColor, g.Status, strings.Join(g.Moves, " "))
	assert.True(t, g.Over(), "%s is over", desc)
	assert.NotEqual(t, "noStart", g.Status, desc)
	assert.NotEqual(t, "aborted", g.Status, desc)
	if g.Status == "outoftime" {
		assert.Equal(t, botColor, g.Winner, "%s: the bot lost on time", desc)
	}
	assert.Equal(t, "resign", g.Status, "%s: the sparring partner resigned", desc)
	assert.Equal(t, botColor, g.Winner, desc)
}

// playBoardMatrix plays two UltraBullet games (one per colour) between two
// Board API accounts: "Player" with engine eng through the game runner, the
// daemon's own, and the sparring partner with easy, resigning in place of
// its second move.
func playBoardMatrix(t *testing.T, tc, eng string, opts []bots.Option) {
	parsed, err := config.ParseTimeControl(tc)
	require.NoError(t, err)
	srv := sandbox.New(sandbox.Config{TimeScale: matrixScale("ultraBullet", eng), Accounts: []sandbox.Account{
		{Name: "Player", Token: "lip_player"}, {Name: SparringName, Token: "lip_sparring"}}})
	ctx := testContext(t, time.Minute)
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	defer srv.Close()
	client := func(tok string) *lichess.Client {
		c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(tok), ReconnectMin: 100 * time.Millisecond})
		require.NoError(t, err)
		t.Cleanup(c.Close)
		return c
	}
	player, spar := client("lip_player"), client("lip_sparring")
	journal, err := store.Open(ctx, ":memory:")
	require.NoError(t, err)
	defer journal.Close()
	game := quietGame(config.Default().Game)
	game.MoveOverhead = 50 * time.Millisecond
	for _, color := range []lichess.Color{lichess.White, lichess.Black} {
		ch, err := player.CreateChallenge(ctx, strings.ToLower(SparringName), lichess.ChallengeParams{Color: color,
			Clock: &lichess.ChallengeClock{Limit: int(parsed.Base / time.Second), Increment: int(parsed.Increment / time.Second)}})
		require.NoError(t, err)
		require.NoError(t, spar.AcceptChallenge(ctx, ch.ID, ""))
		done := make(chan error, 2)
		play := func(me, spec string, api runner.GameAPI, o []bots.Option) {
			e, err := bots.New(ctx, spec, append([]bots.Option{bots.WithFallback()}, o...)...)
			if err != nil {
				done <- err
				return
			}
			defer e.Close()
			r := runner.New(runner.Config{GameID: ch.ID, Me: strings.ToLower(me), EngineName: spec, Game: daemon.Conduct(game),
				Logger: zerolog.Nop()}, api, e, journal)
			_, err = r.Run(ctx)
			done <- err
		}
		go play("Player", eng, player.Board(), opts)
		go play(SparringName, "easy", &scripted{GameAPI: spar.Board(), after: 1}, nil)
		require.NoError(t, <-done)
		require.NoError(t, <-done)
		g, ok := srv.Game(ch.ID)
		require.True(t, ok)
		assert.Equal(t, "ultraBullet", g.Speed)
		checkMatrixGame(t, g, string(color))
	}
}

// TestDemoRefusesUltraBullet: the bot could never start such a game (Lichess
// and the sandbox refuse UltraBullet for bots), so the demo says so at once.
func TestDemoRefusesUltraBullet(t *testing.T) {
	_, err := Run(context.Background(), Options{TC: "0.25+0", Games: 1, Dir: t.TempDir(), Logger: zerolog.Nop()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "UltraBullet")
	assert.Contains(t, err.Error(), "0.25+0")
}
