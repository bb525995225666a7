package runner

import (
	"context"
	"strconv"

	"github.com/outpostchess/outpost/lichess"
)

// takebackKind is the Journal cache kind holding the number of takebacks
// accepted in a game, so that a restart does not grant more.
const takebackKind = "takebacks"

// considerTakeback answers a takeback proposal of the opponent once:
// accepted while fewer than takebacks_per_game were granted in this game
// and the opponent is human, declined otherwise. A yes is not yet a
// granted takeback: the opponent may have moved (which ends the proposal)
// before the yes reached the server, and then lila reads the yes as the
// bot's own proposal (Takebacker.yes). The takeback is counted when the
// move list shrinks (onTakenBack → takebackGranted); a proposal of the
// bot's own is withdrawn at once (withdrawOwnTakeback).
func (r *Runner) considerTakeback(ctx context.Context, s *lichess.GameState) {
	proposed := s.TakebackProposed(opposite(r.color))
	if !proposed && r.takebackYes {
		// The opponent's proposal is gone without our takeback: a move
		// ended it, or they withdrew it. Our yes granted nothing.
		r.takebackYes = false
		r.log.Info().Int("granted", r.takebacks).Msg("takeback accepted but not taken: the proposal ended before our yes reached the server")
	}
	r.withdrawOwnTakeback(ctx, s, proposed)
	if !proposed || r.takebackSeen {
		r.takebackSeen = proposed
		return
	}
	r.takebackSeen = true
	accept, why := r.acceptTakeback(ctx)
	if err := r.api.Takeback(ctx, r.cfg.GameID, accept); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Bool("accept", accept).Msg("answer takeback proposal")
		return
	}
	r.takebackYes = accept
	r.log.Info().Bool("accept", accept).Str("why", why).Int("granted", r.takebacks).Msg("answered takeback proposal")
}

// withdrawOwnTakeback withdraws (takeback/no) a takeback proposal of the
// bot's own shown in a state without the opponent's (opponentProposes):
// the bot never proposes one, so it can only come from a yes that reached
// the server after the opponent's proposal had ended (lila's
// Takebacker.yes proposes then). Left standing, the opponent could accept
// it and take back the bot's move.
func (r *Runner) withdrawOwnTakeback(ctx context.Context, s *lichess.GameState, opponentProposes bool) {
	own := s.TakebackProposed(r.color) && !opponentProposes
	if !own {
		r.ownTakebackWithdrawn = false
		return
	}
	if r.ownTakebackWithdrawn {
		return
	}
	if err := r.api.Takeback(ctx, r.cfg.GameID, false); err != nil {
		if ctx.Err() == nil {
			r.log.Warn().Err(err).Msg("withdraw our own takeback proposal")
		}
		return
	}
	r.ownTakebackWithdrawn = true
	r.log.Info().Msg("withdrew our own takeback proposal: our yes reached the server after the opponent's proposal had ended, and lila took it as a proposal of ours")
}

// takebackGranted counts the takeback the opponent proposed and we
// accepted once the server's move list went back (called by onTakenBack),
// and journals the count, so that takebacks_per_game counts the takebacks
// that happened, also across a restart.
func (r *Runner) takebackGranted(ctx context.Context) {
	if !r.takebackYes {
		return
	}
	r.takebackYes = false
	r.takebacks = max(r.takebacks, 0) + 1
	if err := r.journal.CachePut(ctx, takebackKind, r.cfg.GameID, []byte(strconv.Itoa(r.takebacks))); err != nil {
		r.log.Warn().Err(err).Msg("journal takeback count")
	}
	r.log.Info().Int("granted", r.takebacks).Msg("takeback granted")
}

// acceptTakeback applies the takeback policy and says why.
func (r *Runner) acceptTakeback(ctx context.Context) (bool, string) {
	limit := r.cfg.Game.TakebacksPerGame
	switch {
	case limit <= 0:
		return false, "takebacks_per_game is 0"
	case r.opponentIsBot():
		return false, "the opponent is a bot"
	}
	if r.takebacks < 0 {
		r.takebacks = 0
		if v, ok, err := r.journal.CacheGet(ctx, takebackKind, r.cfg.GameID); err == nil && ok {
			if n, err := strconv.Atoi(string(v)); err == nil && n > 0 {
				r.takebacks = n
			}
		}
	}
	if r.takebacks >= limit {
		return false, "takebacks_per_game used up"
	}
	return true, "within takebacks_per_game"
}

// opponentIsBot reports whether the opponent is a BOT account or Lichess's
// AI.
func (r *Runner) opponentIsBot() bool {
	opp := r.full.Black
	if r.color == lichess.Black {
		opp = r.full.White
	}
	return opp.Title == "BOT" || opp.AILevel > 0
}

// onTakenBack brings the runner's bookkeeping back to ply after the
// server's move list shrank (a takeback was granted): the reservations of
// the plies from ply to upTo (moves played and taken back, or sent and
// never played) are released, so that the position at each ply again gets
// exactly one move, chosen for it; a pending resend is dropped; the draw
// and resignation streaks start again. The board was set up again by
// syncBoard, and a think about a later ply was stopped.
func (r *Runner) onTakenBack(ctx context.Context, ply, upTo int) {
	r.log.Info().Int("ply", ply).Int("from", upTo).Msg("moves taken back")
	r.takebackGranted(ctx)
	for p := ply; p <= upTo; p++ {
		if err := r.journal.ReleaseMove(ctx, r.cfg.GameID, p); err != nil && ctx.Err() == nil {
			r.log.Warn().Err(err).Int("ply", p).Msg("release a taken-back move")
		}
	}
	if r.sentPly >= ply {
		r.sentPly = -1
	}
	r.retryTimer.cancel()
	r.retryTimer = nil
	r.drawAnswered, r.drawStreak, r.lowStreak = -1, 0, 0
	if r.lastOffer >= ply {
		r.lastOffer = -1
	}
}
