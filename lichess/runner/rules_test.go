package runner

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess"
)

// ruledRunner is a runner of a real-time game with rules, its conduct
// willing to abort, offer and accept draws and claim, and alarms that
// never fire (the test only looks at what is armed).
func ruledRunner(api GameAPI, rules ...string) *Runner {
	g := gameCfg()
	g.AcceptDraw, g.DrawMinPly, g.OfferDraw, g.OfferDrawMoves = DrawAlways, 0, true, 1
	never := func(time.Duration) (<-chan time.Time, func()) { return make(chan time.Time), func() {} }
	r := New(Config{GameID: "g1", Me: "bot1", Game: g, Rules: rules, NewAlarm: never, Logger: zerolog.Nop()},
		api, &scripted{}, newMemJournal())
	r.full = &lichess.GameFull{Clock: &lichess.StreamClock{Initial: 60000}}
	r.state = &lichess.GameState{Status: lichess.StatusStarted}
	r.color = lichess.White
	return r
}

// TestRunnerObeysGameRules (#31.4): with the game's rules known (from its
// challenge), the runner arms no abort under noAbort, offers and accepts
// no draw before ply 60 under noEarlyDraw (lila Game.rulePreventsDraw) but
// does from ply 60, and claims nothing under noClaimWin; without the
// rules it does each.
func TestRunnerObeysGameRules(t *testing.T) {
	zero := 0
	drawish := thought{move: engine.Move{Score: score.Score{CP: 0}, HasScore: true}}
	for _, tc := range []struct {
		rule string
		// did reports whether the runner did what the rule forbids.
		did func(t *testing.T, r *Runner, api *gatedDraw) bool
	}{
		{lichess.RuleNoAbort, func(t *testing.T, r *Runner, _ *gatedDraw) bool {
			r.gameMoves = []string{"e2e4"} // black owes the first move
			r.color = lichess.White
			r.state.Moves = "e2e4"
			r.considerAbort(1)
			return r.abortTimer != nil
		}},
		{lichess.RuleNoEarlyDraw, func(t *testing.T, r *Runner, _ *gatedDraw) bool {
			drawish.ply = 59
			early := r.acceptDraw(59) || r.wantDrawOffer(drawish)
			drawish.ply = 60
			assert.True(t, r.acceptDraw(60) && r.wantDrawOffer(drawish), "draws from ply 60 on")
			return early
		}},
		{lichess.RuleNoClaimWin, func(t *testing.T, r *Runner, api *gatedDraw) bool {
			r.onOpponentGone(context.Background(), &lichess.OpponentGone{Gone: true, ClaimWinInSeconds: &zero})
			return api.claims.Load() > 0
		}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			for _, ruled := range []bool{true, false} {
				api := &gatedDraw{GameAPI: nopAPI{}}
				var rules []string
				if ruled {
					rules = []string{tc.rule}
				}
				assert.Equal(t, !ruled, tc.did(t, ruledRunner(api, rules...), api), "with rules %v", rules)
			}
		})
	}
}
