package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// gatedEngine is a scripted engine that holds its answer for the position
// after gatePly moves until open is closed (or the think is stopped), so
// that a test sees the states before the bot's move at that ply.
type gatedEngine struct {
	*scripted
	gatePly int
	open    chan struct{}
}

func (g *gatedEngine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	if len(pos.Moves) == g.gatePly {
		select {
		case <-g.open:
		case <-ctx.Done():
			return engine.Move{}, ctx.Err()
		}
	}
	return g.scripted.SelectMove(ctx, pos, lim)
}

// lateYesAPI runs before (the opponent's move) before the runner's first
// takeback yes is sent, so that the yes reaches the server after the
// opponent's proposal ended: the race of the manual trial, made certain.
type lateYesAPI struct {
	GameAPI
	once   sync.Once
	before func(ctx context.Context) error
	err    error
}

func (a *lateYesAPI) Takeback(ctx context.Context, gameID string, accept bool) error {
	if accept {
		a.once.Do(func() { a.err = a.before(ctx) })
	}
	return a.GameAPI.Takeback(ctx, gameID, accept)
}

// grantedInJournal is the takeback count the runner journaled for game id
// ("" when none).
func (w *world) grantedInJournal(t *testing.T, id string) string {
	t.Helper()
	v, ok, err := w.store.CacheGet(context.Background(), takebackKind, id)
	require.NoError(t, err)
	if !ok {
		return ""
	}
	return string(v)
}

// TestRunnerTakebackRace: the human proposes a takeback and moves before
// the bot's yes reaches the server. On Lichess that yes is then the bot's
// own proposal (lila's Takebacker.yes): the runner must not count a
// takeback (nothing was taken back) and must withdraw the proposal at
// once; the game goes on, and a takeback that does happen later is
// counted, once.
func TestRunnerTakebackRace(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	eng := &gatedEngine{
		scripted: &scripted{moves: []string{"d7d5", "g8f6", "b8c6"}, score: score.Score{CP: 10}, scored: true},
		gatePly:  5, open: make(chan struct{}),
	}
	g := gameCfg()
	g.TakebacksPerGame = 1
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alice := w.alice.Board()
	api := &lateYesAPI{GameAPI: w.bot.Bot(), before: func(ctx context.Context) error { return alice.Move(ctx, id, "g1f3", false) }}
	r := New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: g, Logger: zerolog.Nop(),
		UnknownOutcomeRetry: 200 * time.Millisecond}, api, eng, w.store)
	done := runAsync(ctx, r)
	watch := w.watch(t, ctx, id)

	require.NoError(t, alice.Move(ctx, id, "e2e4", false))
	watch.plies(2)
	require.NoError(t, alice.Move(ctx, id, "e4e5", false))
	assert.Equal(t, "e2e4 d7d5 e4e5 g8f6", watch.plies(4).Moves)
	// Alice, to move, proposes; her g1f3 lands before the bot's yes.
	require.NoError(t, alice.Takeback(ctx, id, true))
	st := watch.until("the bot's stray proposal", func(s *lichess.GameState) bool { return s.BTakeback })
	require.NoError(t, api.err)
	assert.Equal(t, "e2e4 d7d5 e4e5 g8f6 g1f3", st.Moves, "nothing was taken back")
	assert.Empty(t, w.grantedInJournal(t, id), "a yes that took nothing back is not a granted takeback")
	// The bot's engine holds its move at ply 5, so only the runner's
	// takeback/no can end the proposal now (a move would also end it).
	st = watch.until("the withdrawal", func(s *lichess.GameState) bool { return !s.BTakeback })
	assert.Equal(t, "e2e4 d7d5 e4e5 g8f6 g1f3", st.Moves, "withdrawn before the bot's move")
	snap, _ := w.srv.Game(id)
	assert.False(t, snap.BlackTakeback, "no proposal of the bot's left pending")

	// The game goes on: the bot moves, and a real takeback counts one.
	close(eng.open)
	watch.plies(6)
	require.NoError(t, alice.Takeback(ctx, id, true))
	assert.Len(t, watch.plies(4).MoveList(), 4, "the takeback was granted")
	require.NoError(t, alice.Resign(ctx, id))
	res := <-done
	require.NoError(t, res.err)
	assert.Equal(t, "1", w.grantedInJournal(t, id), "the takeback that happened is counted, once")
}
