package runner

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess"
)

// Draw policies ([game] accept_draw).
const (
	DrawNever      = "never"       // decline every offer
	DrawAlways     = "always"      // accept every offer (after draw_min_ply)
	DrawWhenBehind = "when_behind" // accept when our eval is at or below -draw_eval_cp
	DrawByEval     = "by_eval"     // accept when |our eval| is at most draw_eval_cp
)

// Conduct is how the runner behaves in a game besides choosing moves: clock
// margin, aborting, draws, resigning, claiming, chat. The app layer fills it
// from the [game] section of the config.
type Conduct struct {
	MoveOverhead           time.Duration // reserved per move for latency
	AbortAfter             time.Duration // wait for the opponent's first move, then abort (0: never)
	AcceptDraw             string        // one of the Draw* policies
	DrawEvalCP             int           // threshold for DrawWhenBehind / DrawByEval
	DrawMinPly             int           // no draw accepted before this ply
	ResignEnabled          bool          // resign lost positions
	ResignBelowCP          int           // our eval at or below this …
	ResignMoves            int           // … for this many consecutive own moves
	ClaimVictory           bool          // claim the win when the opponent is gone
	Greeting               string        // template; "" = none
	Goodbye                string        // template; "" = none
	GreetingRooms          []string      // player and/or spectator
	ChatCommands           bool          // answer !help, !engine, !eval
	CorrespondenceMoveTime time.Duration // thinking time per correspondence move
	// EngineOutputRooms are the chat rooms where !eval is answered; in
	// the others it is politely refused.
	EngineOutputRooms []string
	// TakebacksPerGame is how many takeback proposals of a human opponent
	// are accepted per game (0: none); a bot's are always declined.
	TakebacksPerGame int
	// OfferDraw makes the bot offer draws from DrawMinPly on, after
	// OfferDrawMoves consecutive own moves evaluated within DrawEvalCP, or
	// when neither side has mating material.
	OfferDraw      bool
	OfferDrawMoves int
}

// mateCP is the centipawn value a mate score counts as in draw and resign
// decisions.
const mateCP = 100000

// scoreCP turns an engine score (our point of view) into centipawns.
func scoreCP(s score.Score) int { return s.Rank(mateCP) }

// considerDraw answers the opponent's draw offer once: an offer that stands
// across several game states (states read before the answer took effect,
// the opponent's own move keeping its offer) is not answered again; a
// state without the offer ends it, so a later offer is a new one.
// r.drawAnswered is the ply of the answer to the standing offer, -1 none.
func (r *Runner) considerDraw(ctx context.Context, s *lichess.GameState, ply int) {
	if !s.DrawOffered(opposite(r.color)) {
		r.drawAnswered = -1
		return
	}
	if r.drawAnswered >= 0 {
		return
	}
	r.drawAnswered = ply
	accept := r.acceptDraw(ply)
	if err := r.api.Draw(ctx, r.cfg.GameID, accept); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Bool("accept", accept).Msg("answer draw offer")
		return
	}
	r.log.Info().Bool("accept", accept).Int("ply", ply).Msg("answered draw offer")
}

func (r *Runner) acceptDraw(ply int) bool {
	g := r.cfg.Game
	if ply < g.DrawMinPly || r.earlyDrawForbidden(ply) {
		return false
	}
	switch g.AcceptDraw {
	case DrawAlways:
		return true
	case DrawWhenBehind:
		return r.hasScore && scoreCP(r.lastScore) <= -g.DrawEvalCP
	case DrawByEval:
		if !r.hasScore {
			return false
		}
		cp := scoreCP(r.lastScore)
		return cp <= g.DrawEvalCP && cp >= -g.DrawEvalCP
	}
	return false
}

// drawOfferGap is how many plies Lichess wants between two draw offers of
// one player: an offer within 20 plies of the previous one is ignored.
const drawOfferGap = 20

// wantDrawOffer applies the offer_draw policy to the move about to be sent
// for t: from draw_min_ply on, after offer_draw_moves consecutive own moves
// whose eval was within draw_eval_cp, or when neither side has mating
// material; never twice within drawOfferGap plies.
func (r *Runner) wantDrawOffer(t thought) bool {
	g := r.cfg.Game
	if !g.OfferDraw {
		return false
	}
	if t.err == nil && t.move.HasScore {
		if cp := scoreCP(t.move.Score); cp <= g.DrawEvalCP && cp >= -g.DrawEvalCP {
			r.drawStreak++
		} else {
			r.drawStreak = 0
		}
	}
	if t.ply < g.DrawMinPly || r.earlyDrawForbidden(t.ply) || (r.lastOffer >= 0 && t.ply-r.lastOffer < drawOfferGap) {
		return false
	}
	return r.drawStreak >= max(g.OfferDrawMoves, 1) || deadDrawn(r.game)
}

// deadDrawn reports whether neither side has mating material: each has at
// most a king and one minor piece (no pawn, rook or queen). Lichess ends
// only the positions where no mate is possible at all; these it leaves to
// the players (a mate with K+N against K+B needs the loser's help).
func deadDrawn(b *board.Board) bool {
	if b == nil {
		return false
	}
	for _, c := range []board.Color{board.White, board.Black} {
		if b.Pieces(c, board.Pawn)|b.Pieces(c, board.Rook)|b.Pieces(c, board.Queen) != 0 ||
			board.Count(b.Pieces(c, board.Bishop)|b.Pieces(c, board.Knight)) > 1 {
			return false
		}
	}
	return true
}

// considerResign resigns after resign_moves consecutive own moves evaluated
// at or below resign_below_cp.
func (r *Runner) considerResign(ctx context.Context, s score.Score) {
	g := r.cfg.Game
	if !g.ResignEnabled {
		return
	}
	if scoreCP(s) <= g.ResignBelowCP {
		r.lowStreak++
	} else {
		r.lowStreak = 0
	}
	if r.lowStreak < max(g.ResignMoves, 1) || r.resigned {
		return
	}
	r.resigned = true
	if err := r.api.Resign(ctx, r.cfg.GameID); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Msg("resign")
		r.resigned = false
		return
	}
	r.log.Info().Int("eval_cp", scoreCP(s)).Msg("resigned a lost position")
}

// considerAbort arms the abort timer while the opponent owes their first
// move, and disarms it once they made it.
func (r *Runner) considerAbort(ply int) {
	waiting := r.cfg.Game.AbortAfter > 0 && r.full.Clock != nil && r.opponentOwesFirstMove(ply) &&
		!r.hasRule(lichess.RuleNoAbort)
	switch {
	case waiting && r.abortTimer == nil:
		r.abortTimer = r.newAlarm(r.cfg.Game.AbortAfter)
	case !waiting && r.abortTimer != nil:
		r.abortTimer.cancel()
		r.abortTimer = nil
	}
}

// opponentOwesFirstMove reports whether it is the opponent's turn and they
// have not moved yet in this game.
func (r *Runner) opponentOwesFirstMove(ply int) bool {
	if r.ourTurn() {
		return false
	}
	// The opponent's first move is ply 0 if they move first, else ply 1.
	return ply <= 1
}

func (r *Runner) onAbortTimer(ctx context.Context) {
	if r.state == nil || !r.state.Status.Ongoing() || !r.opponentOwesFirstMove(len(r.gameMoves)) {
		return
	}
	r.log.Info().Dur("waited", r.cfg.Game.AbortAfter).Msg("opponent did not make a first move; aborting")
	if err := r.api.Abort(ctx, r.cfg.GameID); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Msg("abort")
	}
}

// onOpponentGone claims victory once Lichess allows it, never in a game
// without a real-time clock: lila's Game.forceResignable needs one
// (modules/core/src/main/game/Game.scala), so a correspondence game is not
// claimable whatever a server announces.
func (r *Runner) onOpponentGone(ctx context.Context, e *lichess.OpponentGone) {
	r.claimTimer.cancel()
	r.claimTimer = nil
	if !e.Gone || !r.cfg.Game.ClaimVictory || e.ClaimWinInSeconds == nil || !r.claimable() ||
		r.hasRule(lichess.RuleNoClaimWin) {
		return
	}
	wait := time.Duration(*e.ClaimWinInSeconds) * time.Second
	if wait <= 0 {
		r.claim(ctx)
		return
	}
	// A little after the moment, so that the server agrees it has come.
	r.claimTimer = r.newAlarm(wait + 250*time.Millisecond)
}

// claimable reports whether the game has a real-time clock, which a claim
// of victory needs.
func (r *Runner) claimable() bool { return r.full != nil && r.full.Clock != nil }

// claim closes a game the opponent left, per the claim policy
// (docs/daemon.md): the win where Lichess allows it (lila's
// Game.forceResignable: a lobby, pool or arena game), else a draw
// (Game.forceDrawable: a challenge game, which lila never lets a claim
// win). The runner cannot tell a game's source from its stream, so it
// asks for the win and, when Lichess refuses it (400), for the draw.
// Neither is asked in a game without a real-time clock.
func (r *Runner) claim(ctx context.Context) {
	if r.state == nil || !r.state.Status.Ongoing() || !r.claimable() || r.hasRule(lichess.RuleNoClaimWin) {
		return
	}
	err := r.api.ClaimVictory(ctx, r.cfg.GameID)
	if err == nil {
		r.log.Info().Msg("claimed victory: the opponent left")
		return
	}
	if ctx.Err() != nil {
		return
	}
	if !errors.Is(err, lichess.ErrBadRequest) {
		r.log.Warn().Err(err).Msg("claim victory")
		return
	}
	if err := r.api.ClaimDraw(ctx, r.cfg.GameID); err != nil {
		if ctx.Err() == nil {
			r.log.Warn().Err(err).Msg("claim a draw (the win was refused)")
		}
		return
	}
	r.log.Info().Msg("claimed a draw: the opponent left and Lichess allows no win claim in this game")
}

// hasRule reports whether the game has a lila GameRule (Config.Rules).
func (r *Runner) hasRule(rule string) bool { return slices.Contains(r.cfg.Rules, rule) }

// earlyDrawForbidden reports whether noEarlyDraw forbids a draw at ply:
// lila's Game.rulePreventsDraw, before ply 60 of the game.
func (r *Runner) earlyDrawForbidden(ply int) bool {
	return ply < lichess.EarlyDrawPlies && r.hasRule(lichess.RuleNoEarlyDraw)
}

func opposite(c lichess.Color) lichess.Color {
	if c == lichess.White {
		return lichess.Black
	}
	return lichess.White
}
