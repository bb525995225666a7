package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// watcher follows a game through alice's game stream, so that a test
// waits for the game states themselves, not for time to pass.
type watcher struct {
	t      *testing.T
	stream *lichess.Stream[lichess.GameEvent]
	last   *lichess.GameState
}

// watch opens alice's stream of game id.
func (w *world) watch(t *testing.T, ctx context.Context, id string) *watcher {
	t.Helper()
	s, err := w.alice.Board().StreamGame(ctx, id)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return &watcher{t: t, stream: s}
}

// until reads game states until cond holds for one, and returns it.
func (wt *watcher) until(what string, cond func(*lichess.GameState) bool) *lichess.GameState {
	wt.t.Helper()
	for ev := range wt.stream.Events() {
		var st *lichess.GameState
		switch e := ev.(type) {
		case *lichess.GameFull:
			st = &e.State
		case *lichess.GameState:
			st = e
		default:
			continue
		}
		wt.last = st
		if cond(st) {
			return st
		}
	}
	wt.t.Fatalf("game stream ended while waiting for %s (last state %+v): %v", what, wt.last, wt.stream.Err())
	return nil
}

// plies waits for a state with exactly n moves.
func (wt *watcher) plies(n int) *lichess.GameState {
	wt.t.Helper()
	return wt.until(strings.Repeat("·", n)+" moves", func(s *lichess.GameState) bool { return len(s.MoveList()) == n })
}

// TestRunnerTakebacks: with takebacks_per_game = 1 the runner grants a
// human's first takeback, its board and move reservations go back with
// the game (the re-played plies get new moves, one per ply), and the
// second proposal is declined.
func TestRunnerTakebacks(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	// The bot plays the first legal move of its list: d7d5, then g8f6
	// after e4e5, but d5e4 after g1f3.
	eng := &scripted{moves: []string{"d7d5", "d5e4", "g8f6"}, score: score.Score{CP: 10}, scored: true}
	g := gameCfg()
	g.TakebacksPerGame = 1
	id, ctx, done := w.playGame(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White}, eng, g, nil)
	alice := w.alice.Board()
	watch := w.watch(t, ctx, id)

	require.NoError(t, alice.Move(ctx, id, "e2e4", false))
	watch.plies(2)
	require.NoError(t, alice.Move(ctx, id, "e4e5", false))
	st := watch.plies(4)
	assert.Equal(t, "e2e4 d7d5 e4e5 g8f6", st.Moves)
	// Alice, to move, proposes: her e4e5 and the bot's reply are taken back.
	require.NoError(t, alice.Takeback(ctx, id, true))
	st = watch.plies(2)
	assert.Equal(t, "e2e4 d7d5", st.Moves)
	// g8f6, reserved at ply 3 before, is still legal: the bot must not
	// resend it but play what its engine chose for the new position.
	require.NoError(t, alice.Move(ctx, id, "g1f3", false))
	st = watch.plies(4)
	assert.Equal(t, "e2e4 d7d5 g1f3 d5e4", st.Moves, "the bot answers the new position")

	// One reservation per ply, each the move now played there.
	sent := w.store.sentMoves(id)
	played := st.MoveList()
	for _, m := range sent {
		require.Less(t, m.Ply, len(played), "reservation at ply %d beyond the game", m.Ply)
		assert.Equal(t, played[m.Ply], m.UCI, "reservation at ply %d", m.Ply)
	}
	assert.Len(t, sent, 2, "the bot's two moves of the game as it stands")

	// The second proposal is declined: the moves stay.
	require.NoError(t, alice.Takeback(ctx, id, true))
	watch.until("the proposal", func(s *lichess.GameState) bool { return s.WTakeback })
	st = watch.until("the decline", func(s *lichess.GameState) bool { return !s.WTakeback })
	assert.Equal(t, "e2e4 d7d5 g1f3 d5e4", st.Moves)
	require.NoError(t, alice.Resign(ctx, id))
	res := <-done
	require.NoError(t, res.err)
	assert.Equal(t, []string{"e2e4", "d7d5", "g1f3", "d5e4"}, res.out.Moves)

	// The count survives a restart: a new runner of the game would decline.
	r2 := w.runner(id, eng, g)
	r2.full = &lichess.GameFull{}
	accept, why := r2.acceptTakeback(ctx)
	assert.False(t, accept, why)
}

// TestRunnerTakebackPolicy: the decision table: none by default, never to
// a bot or Lichess's AI, at most takebacks_per_game.
func TestRunnerTakebackPolicy(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	ctx := context.Background()
	tests := []struct {
		name    string
		limit   int
		black   lichess.GamePlayer
		granted int
		accept  bool
	}{
		{"default declines", 0, lichess.GamePlayer{Name: "Alice"}, 0, false},
		{"human within the limit", 2, lichess.GamePlayer{Name: "Alice"}, 1, true},
		{"human at the limit", 2, lichess.GamePlayer{Name: "Alice"}, 2, false},
		{"bot", 5, lichess.GamePlayer{Name: "Bot2", Title: "BOT"}, 0, false},
		{"Lichess AI", 5, lichess.GamePlayer{AILevel: 3}, 0, false},
	}
	for _, tt := range tests {
		g := gameCfg()
		g.TakebacksPerGame = tt.limit
		r := w.runner("game"+strings.ReplaceAll(tt.name, " ", ""), &scripted{}, g)
		r.full, r.color, r.takebacks = &lichess.GameFull{Black: tt.black}, lichess.White, tt.granted
		accept, why := r.acceptTakeback(ctx)
		assert.Equal(t, tt.accept, accept, "%s: %s", tt.name, why)
	}
}

// TestRunnerOffersDraws: with offer_draw the bot offers a draw with its
// move once its eval stayed drawish for offer_draw_moves moves, not again
// within 20 plies; and at once in a position where nobody can mate.
func TestRunnerOffersDraws(t *testing.T) {
	g := gameCfg()
	g.OfferDraw, g.OfferDrawMoves, g.DrawMinPly, g.DrawEvalCP = true, 2, 0, 20
	g.AcceptDraw = "never"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("eval streak", func(t *testing.T) {
		w := newWorld(t, sandbox.Config{})
		id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White})
		eng := &scripted{moves: []string{"e7e5", "b8c6", "g8f6", "f8c5"}, score: score.Score{CP: -15}, scored: true}
		done := runAsync(ctx, w.runner(id, eng, g))
		alice := w.alice.Board()
		watch := w.watch(t, ctx, id)
		offers := 0
		for i, m := range []string{"e2e4", "g1f3", "f1c4", "b1c3"} {
			require.NoError(t, alice.Move(ctx, id, m, false)) // a move declines a pending offer
			st := watch.plies(2 * (i + 1))
			if st.BDraw {
				offers++
				assert.Equal(t, 1, i, "the offer comes with the bot's second drawish move")
			}
		}
		assert.Equal(t, 1, offers, "one offer, none again within 20 plies")
		require.NoError(t, alice.Resign(ctx, id))
		require.NoError(t, (<-done).err)
	})
	t.Run("no mating material", func(t *testing.T) {
		w := newWorld(t, sandbox.Config{})
		// White: king and bishop; black: king and knight. Lichess plays on.
		id := w.challenge(t, lichess.ChallengeParams{Days: 1, Color: lichess.White, FEN: "8/8/4k3/8/2n5/8/4K3/5B2 w - - 0 1"})
		g := g
		g.OfferDrawMoves = 100
		done := runAsync(ctx, w.runner(id, &scripted{score: score.Score{CP: 300}, scored: true}, g))
		watch := w.watch(t, ctx, id)
		require.NoError(t, w.alice.Board().Move(ctx, id, "e2f2", false))
		st := watch.plies(2)
		assert.True(t, st.BDraw, "the bot offers a draw at once although its eval is +3")
		require.NoError(t, w.alice.Board().Draw(ctx, id, true))
		res := <-done
		require.NoError(t, res.err)
		assert.Equal(t, lichess.StatusDraw, res.out.Status)
	})
}
