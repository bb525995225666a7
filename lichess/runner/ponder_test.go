package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/search"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
	"github.com/outpostchess/outpost/bots/uciengine"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

func TestMain(m *testing.M) { ucitest.Run(m) }

// searchCommands returns the fake engine's search commands (position, go,
// ponderhit, stop) in the order it read them.
func searchCommands(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, p := range []string{"position", "go", "ponderhit", "stop"} {
			if l == p || strings.HasPrefix(l, p+" ") {
				out = append(out, l)
			}
		}
	}
	return out
}

func countPrefix(cmds []string, prefix string) int {
	n := 0
	for _, c := range cmds {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

// TestPonderRunnerUCIHitAndMiss plays against the fake UCI engine with
// pondering on: the first reply is the expected one (a hit: "ponderhit" and
// the move without a new "go"), the second is not (a miss: "stop", then an
// ordinary "position" and "go").
func TestPonderRunnerUCIHitAndMiss(t *testing.T) {
	ucitest.NoLeak(t)
	log := filepath.Join(t.TempDir(), "commands.log")
	path, args, env := ucitest.Config(ucitest.Normal, ucitest.EnvLog+"="+log)
	eng, err := uciengine.New(context.Background(), uciengine.Config{Path: path, Args: args, Env: env,
		Client: uci.Config{StopTimeout: 2 * time.Second, QuitTimeout: 2 * time.Second}})
	require.NoError(t, err)
	defer eng.Close()

	w := newWorld(t, sandbox.Config{})
	id, ctx, done := w.ponderGame(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 30, Increment: 2}, Color: lichess.Black}, eng, gameCfg())

	// expected returns the reply the engine ponders on in its n-th ponder.
	expected := func(n int) string {
		var cmds []string
		waitFor(t, "pondering", func() bool {
			cmds = searchCommands(t, log)
			return countPrefix(cmds, "go ponder") >= n
		})
		seen := 0
		for i, c := range cmds {
			if strings.HasPrefix(c, "go ponder") {
				if seen++; seen == n {
					f := strings.Fields(cmds[i-1])
					return f[len(f)-1]
				}
			}
		}
		t.Fatal("no ponder position")
		return ""
	}

	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	hit := expected(1)
	require.NoError(t, w.alice.Board().Move(ctx, id, hit, false))
	waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })

	miss := expected(2)
	snap, _ := w.srv.Game(id)
	b := board.New()
	for _, m := range snap.Moves {
		require.NoError(t, b.MakeUCI(m))
	}
	other := ""
	for _, m := range b.LegalMoves() {
		if m.String() != miss {
			other = m.String()
			break
		}
	}
	require.NoError(t, w.alice.Board().Move(ctx, id, other, false))
	waitFor(t, "bot's third move", func() bool { return w.movesIn(id) == 5 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, 1, res.PonderHits)
	assert.Equal(t, 1, res.PonderMisses)
	require.NoError(t, eng.Client().IsReady(context.Background()))

	cmds := searchCommands(t, log)
	var kinds []string
	for _, c := range cmds {
		switch {
		case strings.HasPrefix(c, "go ponder"):
			kinds = append(kinds, "go ponder")
		default:
			kinds = append(kinds, strings.Fields(c)[0])
		}
	}
	// move 1: position, go; ponder 1: position, go ponder; hit: ponderhit
	// (the move comes without a new go); ponder 2: position, go ponder;
	// miss: stop, then position, go; ponder 3 is stopped at the game's end.
	want := []string{"position", "go", "position", "go ponder", "ponderhit", "position", "go ponder", "stop",
		"position", "go", "position", "go ponder", "stop"}
	assert.Equal(t, want, kinds, "commands: %q", cmds)
	assert.Contains(t, cmds[3], "wtime", "go ponder carries the clocks")
	assert.NotContains(t, cmds[3], "movetime", "no move time counted from the start of pondering")
}

// TestPonderRunnerSearchHit plays against the hard engine with pondering
// on, the opponent replying with the engine's expected move each time.
func TestPonderRunnerSearchHit(t *testing.T) {
	ucitest.NoLeak(t)
	eng, err := search.NewHard(search.WithHashMB(16))
	require.NoError(t, err)
	defer eng.Close()
	rec := &ponderSpy{Ponderer: eng}

	w := newWorld(t, sandbox.Config{})
	id, ctx, done := w.ponderGame(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 30, Increment: 1}, Color: lichess.Black}, rec, gameCfg())
	for n := 1; n <= 3; n++ {
		waitFor(t, "bot's move", func() bool { return w.movesIn(id) == 2*n-1 })
		var reply string
		waitFor(t, "pondering", func() bool { reply = rec.expected(n); return reply != "" })
		require.NoError(t, w.alice.Board().Move(ctx, id, reply, false))
	}
	waitFor(t, "bot's fourth move", func() bool { return w.movesIn(id) == 7 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, 3, res.PonderHits)
	assert.Equal(t, 0, res.PonderMisses)
	assert.Equal(t, 3, rec.hits())
}

// ponderSpy records what the runner asks of a pondering engine.
type ponderSpy struct {
	engine.Ponderer
	mu      sync.Mutex
	replies []string        // the expected reply of each Ponder call
	hitLims []engine.Limits // the limits of each Hit
}

func (s *ponderSpy) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	p, err := s.Ponderer.Ponder(ctx, pos, lim)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.replies = append(s.replies, pos.Moves[len(pos.Moves)-1])
	s.mu.Unlock()
	return &spyPondering{Pondering: p, s: s}, nil
}

// expected returns the reply of the n-th Ponder call, "" before it.
func (s *ponderSpy) expected(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) < n {
		return ""
	}
	return s.replies[n-1]
}

func (s *ponderSpy) hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.hitLims {
		if l.Deadline <= 0 || l.WTime <= 0 {
			return -1 // a hit without the real clock's budget
		}
	}
	return len(s.hitLims)
}

type spyPondering struct {
	engine.Pondering
	s *ponderSpy
}

func (p *spyPondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	p.s.mu.Lock()
	p.s.hitLims = append(p.s.hitLims, lim)
	p.s.mu.Unlock()
	return p.Pondering.Hit(ctx, lim)
}

// TestPonderNeverInCorrespondence: with pondering on, a correspondence
// game (no clock) is played without pondering.
func TestPonderNeverInCorrespondence(t *testing.T) {
	ucitest.NoLeak(t)
	eng, err := search.NewMedium()
	require.NoError(t, err)
	defer eng.Close()
	rec := &ponderSpy{Ponderer: eng}
	w := newWorld(t, sandbox.Config{})
	g := gameCfg()
	g.CorrespondenceMoveTime = 50 * time.Millisecond
	id, ctx, done := w.ponderGame(t, lichess.ChallengeParams{Days: 1, Color: lichess.Black}, rec, g)
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	w.reply(t, ctx, id, false)
	// The second move is made after the first one's bookkeeping (where
	// pondering would have started) in the runner's loop.
	waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, "", rec.expected(1), "no pondering in correspondence")
	assert.Zero(t, res.PonderHits+res.PonderMisses)
	assert.Len(t, res.Notes, 2, "one note per move played")
}

// ponderGame is playGame with pondering on.
func (w *world) ponderGame(t *testing.T, p lichess.ChallengeParams, eng engine.Engine, g Conduct) (string, context.Context, chan runResult) {
	t.Helper()
	return w.playGame(t, p, eng, g, func(r *Runner) { r.cfg.Ponder = true })
}
