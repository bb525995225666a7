package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// gatedDraw is the bot's game API whose first draw answer waits until the
// test opens the gate, and which counts the answers and the claims.
type gatedDraw struct {
	GameAPI
	asked  chan struct{} // closed when the first answer is about to go
	gate   chan struct{} // the test closes it to let the answer go
	once   sync.Once
	draws  atomic.Int32
	claims atomic.Int32
}

func (g *gatedDraw) Draw(ctx context.Context, id string, accept bool) error {
	g.draws.Add(1)
	g.once.Do(func() {
		close(g.asked)
		<-g.gate
	})
	return g.GameAPI.Draw(ctx, id, accept)
}

func (g *gatedDraw) ClaimVictory(ctx context.Context, id string) error {
	g.claims.Add(1)
	return g.GameAPI.ClaimVictory(ctx, id)
}

// TestRunnerAnswersAStandingDrawOfferOnce: Alice offers a draw on her turn,
// then moves and her offer stands, so the bot reads two game states with
// the same offer (the second before its answer took effect). It answers
// once: the first yes draws the game; a second, sent on the second state,
// got "This game is over." before the fix.
func TestRunnerAnswersAStandingDrawOfferOnce(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
	g := gameCfg()
	g.AcceptDraw, g.DrawMinPly = DrawAlways, 0
	api := &gatedDraw{GameAPI: w.bot.Bot(), asked: make(chan struct{}), gate: make(chan struct{})}
	eng := &scripted{score: score.Score{CP: 0}, scored: true}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := runAsync(ctx, New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: g, Logger: zerolog.Nop(),
		UnknownOutcomeRetry: 200 * time.Millisecond}, api, eng, w.store))
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	require.NoError(t, w.alice.Board().Draw(ctx, id, true)) // Alice offers on her turn
	<-api.asked                                             // the bot is answering the first state
	w.reply(t, ctx, id, true)                               // her move keeps her offer: a second state with it
	snap, _ := w.srv.Game(id)
	require.True(t, snap.BlackDraw && !snap.Over(), "Alice's offer stands after her move: %+v", snap)
	close(api.gate)
	res := <-done
	require.NoError(t, res.err)
	assert.Equal(t, lichess.StatusDraw, res.out.Status)
	assert.Equal(t, int32(1), api.draws.Load(), "draw answers sent")
}

// TestRunnerNeverClaimsCorrespondence: an opponentGone with a claim time of
// zero in a correspondence game (lila's Game.forceResignable needs a clock)
// brings no claim; the same event in a real-time game does (the control).
func TestRunnerNeverClaimsCorrespondence(t *testing.T) {
	zero := 0
	for _, c := range []struct {
		name  string
		clock *lichess.StreamClock
		want  int32
	}{{"correspondence", nil, 0}, {"real-time", &lichess.StreamClock{Initial: 60000}, 1}} {
		t.Run(c.name, func(t *testing.T) {
			api := &gatedDraw{GameAPI: nopAPI{}}
			g := gameCfg()
			r := New(Config{GameID: "g1", Me: "bot1", Game: g, Logger: zerolog.Nop()}, api, &scripted{}, newMemJournal())
			r.full = &lichess.GameFull{Clock: c.clock}
			r.state = &lichess.GameState{Status: lichess.StatusStarted}
			r.onOpponentGone(context.Background(), &lichess.OpponentGone{Gone: true, ClaimWinInSeconds: &zero})
			assert.Equal(t, c.want, api.claims.Load(), "claims")
		})
	}
}

// nopAPI answers every game action with success.
type nopAPI struct{ GameAPI }

func (nopAPI) ClaimVictory(context.Context, string) error { return nil }
func (nopAPI) ClaimDraw(context.Context, string) error    { return nil }
