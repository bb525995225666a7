package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/timeman"
	"github.com/outpostchess/outpost/lichess"
)

// Config is what a runner needs to know besides its collaborators.
type Config struct {
	GameID string
	// Me is our Lichess user id (lower case).
	Me string
	// EngineName is announced in the greeting and by !engine.
	EngineName string
	// Game holds the conduct settings (the [game] section of the config,
	// mapped by the app layer).
	Game Conduct
	// UnknownOutcomeRetry is how long to wait before resending a move
	// whose answer was lost, when no new game state has arrived (default 2 s).
	UnknownOutcomeRetry time.Duration
	// ChatWait waits before retry attempt n of a greeting or goodbye (nil:
	// a short wall-clock backoff); tests inject it to control time.
	ChatWait func(ctx context.Context, attempt int) error
	// Rules are the game's lila GameRules (lichess.Rule* names), as far as
	// the daemon knows them: Lichess lists them only in a challenge's JSON
	// (a bulk pairing's game comes with none, and Lichess's own refusals
	// then keep the game within them). The runner obeys noAbort (never
	// aborts), noEarlyDraw (no draw offered or accepted before ply 60) and
	// noClaimWin (never claims); it never offers a rematch or gives time,
	// which the Bot API has no endpoint for, so noRematch and noGiveTime
	// hold by themselves.
	Rules []string
	// Ponder lets an engine that can ponder (engine.Ponderer) think on the
	// opponent's time in real-time games; never in correspondence.
	Ponder bool
	// NewAlarm starts the waits of the game's conduct: the abort of a game
	// whose opponent never moves (abort_after) and the claim of victory
	// once the opponent left. It returns a channel that receives once the
	// duration has passed and a function that cancels the wait. Nil uses
	// wall-clock timers; tests inject alarms they fire on their own events.
	NewAlarm func(d time.Duration) (fired <-chan time.Time, stop func())
	// RetryAlarm starts the wait of UnknownOutcomeRetry before a move is
	// resent, with the same contract as NewAlarm. Nil uses a wall-clock
	// timer; tests inject it to fire retries on their own events.
	RetryAlarm func(d time.Duration) (fired <-chan time.Time, stop func())
	// Now is the clock a move's time is counted on, from the arrival of
	// the game state it answers (nil: time.Now); tests inject it to put a
	// known delay between a state's arrival and the engine's start.
	Now    func() time.Time
	Logger zerolog.Logger
}

// Outcome is how a game ended, as the runner saw it.
type Outcome struct {
	GameID     string
	Color      lichess.Color
	Status     lichess.Status
	Winner     lichess.Color
	Moves      []string
	InitialFEN string // "" for the standard start
	Full       *lichess.GameFull
	// Latencies are, per move we sent, the time the runner itself spent
	// between a game state arriving and the move request going out, with
	// the engine's thinking time excluded.
	Latencies []time.Duration
	// Fallbacks counts moves the runner had to choose itself because the
	// engine failed or answered an illegal move.
	Fallbacks int
	// PonderHits and PonderMisses count the opponent's replies that were
	// (hits) or were not (misses) the one the engine pondered on.
	PonderHits, PonderMisses int
	// Notes are the evaluations and sources of the moves we played, in
	// order (also kept in the journal: see NoteKind).
	Notes []MoveNote
}

// Runner plays one game. Create it with New and call Run once.
type Runner struct {
	cfg     Config
	api     GameAPI
	eng     engine.Engine
	journal Journal
	log     zerolog.Logger

	full      *lichess.GameFull
	start     startPosition // full's initialFen as Lichess reads it
	color     lichess.Color
	state     *lichess.GameState
	stateAt   time.Time
	game      *board.Board // the position after state's moves
	gameMoves []string     // the moves game was built from

	// per-ply bookkeeping
	thinkingPly  int                // ply the engine is thinking about, -1 when idle
	thinkCancel  context.CancelFunc // stops the current think
	sentPly      int                // ply whose move was sent and not yet seen played, -1 none
	drawAnswered int                // ply at which the opponent's draw offer was answered, -1 none
	thinkGen     int                // generation of the current think: a stale answer is never played
	takebackSeen bool               // the opponent's takeback proposal was already answered
	takebackYes  bool               // we said yes to the opponent's proposal: not yet taken back
	takebacks    int                // takebacks granted (moves taken back) in this game (-1: not loaded)
	// ownTakebackWithdrawn: the bot's own takeback proposal shown in the
	// latest states was withdrawn (see withdrawOwnTakeback).
	ownTakebackWithdrawn bool
	drawStreak           int         // consecutive own moves with a drawish eval
	lastOffer            int         // ply of our last draw offer, -1 none
	lastScore            score.Score // valid when hasScore
	hasScore             bool
	lastDepth            int
	lowStreak            int
	resigned             bool
	refused              error // the game was left unplayed (an illegal start position): Run returns it
	// movesToJournal are the server's moves not yet written to the journal
	// (when movesPending); see journalMoves.
	movesToJournal string
	movesPending   bool

	abortTimer *alarm
	claimTimer *alarm
	retryTimer *alarm

	pond *pondering // the search on the opponent's time, nil when none

	wg     sync.WaitGroup
	moveCh chan thought
	out    Outcome
}

// thought is an engine's answer for one ply.
type thought struct {
	ply      int
	gen      int
	move     engine.Move
	err      error
	overhead time.Duration // runner time spent before the engine started
	doneAt   time.Time
}

// New returns a runner for one game. The engine should already be wrapped in
// a fallback (bots.Fallback) so that it always answers; the runner still
// checks every move and picks a legal one itself as a last resort.
func New(cfg Config, api GameAPI, eng engine.Engine, j Journal) *Runner {
	if cfg.UnknownOutcomeRetry <= 0 {
		cfg.UnknownOutcomeRetry = 2 * time.Second
	}
	cfg.Me = strings.ToLower(cfg.Me)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Runner{
		cfg: cfg, api: api, eng: eng, journal: j,
		log:         cfg.Logger.With().Str("game", cfg.GameID).Logger(),
		thinkingPly: -1, sentPly: -1, drawAnswered: -1, takebacks: -1, lastOffer: -1,
		moveCh: make(chan thought, 1),
		out:    Outcome{GameID: cfg.GameID},
	}
}

// Run plays the game until it ends or ctx is done. It returns the outcome
// and nil when the game ended, or the outcome so far and ctx's error (or a
// stream error such as a 404) otherwise. It leaves no goroutine behind.
func (r *Runner) Run(ctx context.Context) (Outcome, error) {
	stream, err := r.api.StreamGame(ctx, r.cfg.GameID)
	if err != nil {
		return r.out, fmt.Errorf("runner: open game stream %s: %w", r.cfg.GameID, err)
	}
	defer func() {
		r.stopThinking()
		r.stopPonder()
		r.wg.Wait()
		stream.Close()
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		r.flushMoves(fctx)
		cancel()
		r.abortTimer.cancel()
		r.claimTimer.cancel()
		r.retryTimer.cancel()
	}()
	for {
		select {
		case <-ctx.Done():
			return r.out, ctx.Err()
		case ev, ok := <-stream.Events():
			if !ok {
				if err := stream.Err(); err != nil {
					return r.out, fmt.Errorf("runner: game stream %s: %w", r.cfg.GameID, err)
				}
				if r.out.Status == "" || r.out.Status.Ongoing() {
					return r.out, fmt.Errorf("runner: game stream %s ended before the game did", r.cfg.GameID)
				}
				return r.out, nil
			}
			if done := r.onEvent(ctx, ev); done {
				return r.out, r.refused
			}
		case t := <-r.moveCh:
			r.onThought(ctx, t)
		case <-r.abortTimer.fired():
			r.abortTimer = nil
			r.onAbortTimer(ctx)
		case <-r.claimTimer.fired():
			r.claimTimer = nil
			r.claim(ctx)
		case <-r.retryTimer.fired():
			r.retryTimer = nil
			r.onRetry(ctx)
		}
	}
}

// alarm is one wait of the game's conduct (see Config.NewAlarm).
type alarm struct {
	c    <-chan time.Time
	stop func()
}

// newAlarm starts a wait of d with the configured alarms, or a wall-clock
// timer.
func (r *Runner) newAlarm(d time.Duration) *alarm {
	if r.cfg.NewAlarm != nil {
		c, stop := r.cfg.NewAlarm(d)
		return &alarm{c: c, stop: stop}
	}
	t := time.NewTimer(d)
	return &alarm{c: t.C, stop: func() { t.Stop() }}
}

// fired returns the alarm's channel, or nil (blocks forever) for none.
func (a *alarm) fired() <-chan time.Time {
	if a == nil {
		return nil
	}
	return a.c
}

// cancel stops the alarm, if any.
func (a *alarm) cancel() {
	if a != nil && a.stop != nil {
		a.stop()
	}
}

// onEvent handles one stream event and reports whether the game is over.
func (r *Runner) onEvent(ctx context.Context, ev lichess.GameEvent) bool {
	switch e := ev.(type) {
	case *lichess.GameFull:
		if err := r.onFull(ctx, e); err != nil {
			var pe *board.PositionError
			if errors.As(err, &pe) {
				r.refused = r.leaveIllegal(ctx, err)
				return true
			}
			r.log.Error().Err(err).Msg("unusable gameFull")
			return false
		}
		return r.onState(ctx, &e.State)
	case *lichess.GameState:
		if r.full == nil {
			r.log.Warn().Msg("gameState before gameFull; ignored")
			return false
		}
		return r.onState(ctx, e)
	case *lichess.ChatLine:
		r.onChat(ctx, e)
	case *lichess.OpponentGone:
		r.onOpponentGone(ctx, e)
	case *lichess.Reconnected:
		r.log.Info().Int("attempt", e.Attempt).AnErr("cause", e.Cause).Msg("game stream reconnected")
	}
	return false
}

func (r *Runner) onFull(ctx context.Context, f *lichess.GameFull) error {
	color, ok := f.ColorOf(r.cfg.Me)
	if !ok {
		return fmt.Errorf("we (%s) play neither side of game %s", r.cfg.Me, f.ID)
	}
	start, err := readStart(f.StartFEN(), f.Variant.Key == "chess960")
	if err != nil {
		return err
	}
	first := r.full == nil
	r.full, r.start, r.color = f, start, color
	r.out.Color, r.out.Full, r.out.InitialFEN = color, f, f.StartFEN()
	// After a reconnection the server's state is the truth: a move we sent
	// at the current ply evidently did not land, so it may be sent again
	// (the same reserved move, never another one).
	r.sentPly = -1
	if first {
		r.greet(ctx)
	}
	return nil
}

// leaveIllegal leaves a game whose start position from the server is
// illegal (castling rights without their rook, say): it is not played, so
// nothing of it reaches the engine (Stockfish crashed on one and the bot
// then sent h1h8). The game is aborted, else resigned; the returned error
// ends Run.
func (r *Runner) leaveIllegal(ctx context.Context, cause error) error {
	r.log.Error().Err(cause).Msg("the server's start position is illegal; leaving the game without playing it")
	how := "aborted"
	err := errors.New("the game's noAbort rule forbids it")
	if !r.hasRule(lichess.RuleNoAbort) {
		err = r.api.Abort(ctx, r.cfg.GameID)
	}
	if err != nil {
		how = "resigned"
		if rerr := r.api.Resign(ctx, r.cfg.GameID); rerr != nil {
			how = fmt.Sprintf("neither aborted (%v) nor resigned (%v)", err, rerr)
		}
	}
	return fmt.Errorf("runner: game %s: not played, %s: %w", r.cfg.GameID, how, cause)
}

// onState brings the runner up to date with a game state and acts on it. It
// reports whether the game is over.
func (r *Runner) onState(ctx context.Context, s *lichess.GameState) bool {
	r.state, r.stateAt = s, r.cfg.Now()
	moves := s.MoveList()
	before := len(r.gameMoves)
	if err := r.syncBoard(moves); err != nil {
		r.log.Error().Err(err).Msg("server moves do not replay; waiting for the next state")
		return false
	}
	r.out.Moves = moves
	defer r.journalMoves(ctx, s.Moves)
	ply := len(moves)
	if r.thinkingPly >= 0 && r.thinkingPly != ply {
		r.stopThinking()
	}
	if r.sentPly >= 0 && r.sentPly < ply {
		r.sentPly = -1
	}
	if ply < before || (r.sentPly >= 0 && r.sentPly > ply) {
		r.onTakenBack(ctx, ply, max(before, r.sentPly))
	}
	if !s.Status.Ongoing() {
		r.out.Status, r.out.Winner = s.Status, s.Winner
		r.stopThinking()
		r.stopPonder()
		r.farewell(ctx)
		return true
	}
	r.considerDraw(ctx, s, ply)
	r.considerTakeback(ctx, s)
	r.considerAbort(ply)
	if r.ourTurn() && r.thinkingPly != ply && r.sentPly != ply && !r.resigned {
		r.think(ctx, ply)
	}
	return false
}

// syncBoard brings r.game to the server's moves: when they extend the moves
// already played (the usual case: one new move), only the new ones are
// played; otherwise (a takeback, another start position) the board is set
// up again from the start.
func (r *Runner) syncBoard(moves []string) error {
	extends := r.game != nil && len(moves) >= len(r.gameMoves)
	for i := 0; extends && i < len(r.gameMoves); i++ {
		extends = moves[i] == r.gameMoves[i]
	}
	if !extends {
		g, err := newBoard(r.start.fen, r.chess960())
		if err != nil {
			return err
		}
		r.game, r.gameMoves = g, nil
	}
	for _, m := range moves[len(r.gameMoves):] {
		if err := r.game.MakeUCI(m); err != nil {
			r.game = nil
			return fmt.Errorf("replay move %d %q: %w", len(r.gameMoves)+1, m, err)
		}
		r.gameMoves = append(r.gameMoves, m)
	}
	return nil
}

// chess960 reports whether the game is played with Chess960 castling
// (king takes rook): a Chess960 game, or a start position whose castling
// rights Lichess keeps with a king or rook off the standard squares.
func (r *Runner) chess960() bool {
	return r.full != nil && (r.full.Variant.Key == "chess960" || r.start.chess960)
}

func (r *Runner) ourTurn() bool {
	if r.game == nil {
		return false
	}
	white := r.game.SideToMove() == board.White
	return white == (r.color == lichess.White)
}

// limits turns the clock of the latest state into engine limits, with the
// move's deadline (Limits.Deadline) set by Outpost's time plan
// (bots/timeman) for every engine: from the remaining clock, the increment,
// the move overhead and, before our first move, the server's first-move
// deadline (gameState.expiration) whenever it is present. The time since
// the state arrived is spent already, on the clock or the fixed move time
// alike. A move without a clock (correspondence, unlimited) holds its
// move time whatever the engine does: its deadline leaves room for the
// Fallback's grace (bots.BudgetWithin), which a clock move's deadline,
// a fraction of the clock, has anyway.
func (r *Runner) limits() engine.Limits {
	elapsed := r.sinceState()
	lim := r.clockLimits(elapsed)
	white := r.color == lichess.White
	if e := r.state.Expiration; e != nil && e.MillisToMove > 0 {
		total := time.Duration(e.MillisToMove) * time.Millisecond
		left := total - time.Duration(e.IdleMillis)*time.Millisecond - elapsed
		lim.FirstMoveTotal, lim.FirstMoveLeft = total, max(left, time.Millisecond)
	}
	if p := timeman.Plan(lim, white); p.Bounded {
		lim.Deadline = p.Deadline
		if !lim.HasClock() && lim.MoveTime > 0 {
			lim.Deadline = min(lim.Deadline, bots.BudgetWithin(p.Deadline))
		}
	}
	return lim
}

// sinceState is the time since the latest state arrived.
func (r *Runner) sinceState() time.Duration { return max(r.cfg.Now().Sub(r.stateAt), 0) }

// clockLimits turns the clock of the latest state into engine limits: the
// clocks and increments, or a fixed move time without a real-time clock,
// less the time elapsed since the state arrived.
func (r *Runner) clockLimits(elapsed time.Duration) engine.Limits {
	lim := engine.Limits{MoveOverhead: r.cfg.Game.MoveOverhead}
	if r.full.Clock == nil || (r.state.WTime == 0 && r.state.BTime == 0) {
		lim.MoveTime = r.cfg.Game.CorrespondenceMoveTime
		if lim.MoveTime <= 0 {
			lim.MoveTime = 10 * time.Second
		}
		lim.MoveTime = max(lim.MoveTime-elapsed, time.Millisecond)
		return lim
	}
	s := r.state
	lim.WTime, lim.BTime = s.TimeLeft(lichess.White), s.TimeLeft(lichess.Black)
	lim.WInc, lim.BInc = s.Increment(lichess.White), s.Increment(lichess.Black)
	// The clock ran on while the state travelled and was processed.
	if r.color == lichess.White {
		lim.WTime = max(lim.WTime-elapsed, time.Millisecond)
	} else {
		lim.BTime = max(lim.BTime-elapsed, time.Millisecond)
	}
	return lim
}

// think starts the engine on the current position in the background.
func (r *Runner) think(ctx context.Context, ply int) {
	pos := engine.Position{StartFEN: r.start.fen, Moves: append([]string(nil), r.gameMoves...), Chess960: r.chess960()}
	lim := r.limits()
	tctx, cancel := context.WithCancel(ctx)
	r.thinkGen++
	r.thinkingPly, r.thinkCancel = ply, cancel
	gen := r.thinkGen
	received := r.stateAt
	hit := r.takePonder()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		start := time.Now()
		mv, err := r.selectMove(tctx, hit, pos, lim)
		// the think time beside its limits, for measuring the budgets by
		// hand (docs/operations.md)
		r.log.Debug().Int("ply", ply).Dur("think", time.Since(start)).Dur("move_time", lim.MoveTime).
			Dur("deadline", lim.Deadline).Str("source", mv.Source).Msg("engine answered")
		t := thought{ply: ply, gen: gen, move: mv, err: err, overhead: start.Sub(received), doneAt: time.Now()}
		select {
		case r.moveCh <- t:
		case <-ctx.Done():
		}
	}()
}

// journalMoves records the server's moves in the journal. While the engine
// thinks about them, the write waits until our move has been sent (see
// onThought): it is then off the path from a game state to our move, even
// for an engine that answers at once. A restart loses nothing meanwhile:
// the server's gameFull carries every move.
func (r *Runner) journalMoves(ctx context.Context, moves string) {
	r.movesToJournal, r.movesPending = moves, true
	if r.thinkingPly < 0 {
		r.flushMoves(ctx)
	}
}

// flushMoves writes the pending moves, if any, to the journal.
func (r *Runner) flushMoves(ctx context.Context) {
	if !r.movesPending {
		return
	}
	r.movesPending = false
	if err := r.journal.UpdateMoves(ctx, r.cfg.GameID, r.movesToJournal); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Msg("journal moves")
	}
}

func (r *Runner) stopThinking() {
	if r.thinkCancel != nil {
		r.thinkCancel()
		r.thinkCancel = nil
	}
	r.thinkingPly = -1
}

// onThought sends the engine's move if it is still wanted.
func (r *Runner) onThought(ctx context.Context, t thought) {
	defer r.flushMoves(ctx)
	if t.ply != r.thinkingPly || t.gen != r.thinkGen {
		return // stale: the position changed (or was taken back) while the engine thought
	}
	r.thinkCancel()
	r.thinkCancel, r.thinkingPly = nil, -1
	if r.game == nil || len(r.gameMoves) != t.ply || !r.ourTurn() {
		return
	}
	uci := canonical(r.game, t.move.UCI)
	note := MoveNote{Ply: t.ply, Source: t.move.Source}
	if t.err != nil || !legal(r.game, uci) {
		note.Source = "fallback"
		fb := fallbackMove(r.game)
		r.log.Warn().AnErr("engine_error", t.err).Str("engine_move", uci).Str("fallback", fb).
			Msg("engine gave no legal move; playing a fallback")
		uci = fb
		r.out.Fallbacks++
	} else {
		note.Score, note.HasScore, note.Depth = t.move.Score, t.move.HasScore, t.move.Depth
		if t.move.HasScore {
			r.lastScore, r.hasScore, r.lastDepth = t.move.Score, true, t.move.Depth
		}
	}
	offer := r.wantDrawOffer(t)
	r.sendReserved(ctx, t.ply, uci, t.overhead+time.Since(t.doneAt), offer)
	note.UCI = uci
	r.note(ctx, note)
	if t.err == nil && uci == canonical(r.game, t.move.UCI) && !r.resigned {
		r.startPonder(ctx, t.ply, uci, t.move)
	}
	if t.err == nil && t.move.HasScore {
		r.considerResign(ctx, t.move.Score)
	}
}

// sendReserved reserves uci at ply (or takes the move already reserved
// there) and sends it.
func (r *Runner) sendReserved(ctx context.Context, ply int, uci string, overhead time.Duration, offerDraw bool) {
	reqStart := time.Now()
	ok, prev, err := r.journal.ReserveMove(ctx, SentMove{
		GameID: r.cfg.GameID, Ply: ply, UCI: uci,
		WTime: r.state.TimeLeft(lichess.White), BTime: r.state.TimeLeft(lichess.Black),
	})
	if err != nil {
		r.log.Error().Err(err).Msg("journal unavailable; sending without reservation")
	} else if !ok {
		if legal(r.game, prev.UCI) {
			if prev.UCI != uci {
				r.log.Info().Str("reserved", prev.UCI).Str("engine", uci).Int("ply", ply).
					Msg("a move was already sent at this ply; sending it again, not a new one")
			}
			uci = prev.UCI
		} else {
			r.log.Error().Str("reserved", prev.UCI).Int("ply", ply).Msg("reserved move is illegal here; replacing it")
			if err := r.journal.ReleaseMove(ctx, r.cfg.GameID, ply); err != nil {
				r.log.Error().Err(err).Int("ply", ply).Msg("journal: release the illegal reserved move; sending without reservation")
			} else if ok, _, err := r.journal.ReserveMove(ctx, SentMove{GameID: r.cfg.GameID, Ply: ply, UCI: uci}); err != nil {
				r.log.Error().Err(err).Int("ply", ply).Msg("journal: reserve the replacement move; sending without reservation")
			} else if !ok {
				r.log.Error().Int("ply", ply).Msg("journal: another move was reserved at this ply meanwhile; sending ours")
			}
		}
	}
	r.out.Latencies = append(r.out.Latencies, overhead+time.Since(reqStart))
	r.sentPly = ply
	err = r.api.Move(ctx, r.cfg.GameID, uci, offerDraw)
	switch {
	case err == nil:
		r.log.Debug().Str("move", uci).Int("ply", ply).Bool("offering_draw", offerDraw).Msg("moved")
		if offerDraw {
			r.lastOffer = ply
			r.log.Info().Int("ply", ply).Msg("offered a draw")
		}
	case errors.Is(err, lichess.ErrUnknownOutcome):
		r.log.Warn().Err(err).Str("move", uci).Msg("move outcome unknown; will check the game state")
		r.armRetry()
	case ctx.Err() != nil:
	case errors.Is(err, lichess.ErrBadRequest) && strings.Contains(strings.ToLower(err.Error()), "not your turn"):
		r.log.Info().Str("move", uci).Msg("server says not our turn; waiting for the game state")
	case errors.Is(err, lichess.ErrUnauthorized) || errors.Is(err, lichess.ErrForbidden):
		// The token is revoked or lacks the bot:play scope: retrying
		// cannot succeed. The event stream fails with the same answer and
		// the daemon stops; the next game state (if any) retries.
		r.log.Error().Err(err).Str("move", uci).Msg("move refused: the token may not play; not retrying")
	default:
		r.log.Error().Err(err).Str("move", uci).Msg("move refused; will retry")
		r.armRetry()
	}
}

func (r *Runner) armRetry() {
	r.retryTimer.cancel()
	if r.cfg.RetryAlarm != nil {
		c, stop := r.cfg.RetryAlarm(r.cfg.UnknownOutcomeRetry)
		r.retryTimer = &alarm{c: c, stop: stop}
		return
	}
	t := time.NewTimer(r.cfg.UnknownOutcomeRetry)
	r.retryTimer = &alarm{c: t.C, stop: func() { t.Stop() }}
}

// onRetry resends the reserved move when the state still shows it unplayed.
func (r *Runner) onRetry(ctx context.Context) {
	if r.state == nil || !r.state.Status.Ongoing() || !r.ourTurn() {
		return
	}
	ply := len(r.gameMoves)
	prev, err := r.journal.SentMoveAt(ctx, r.cfg.GameID, ply)
	if err != nil || !legal(r.game, prev.UCI) {
		r.sentPly = -1
		r.think(ctx, ply)
		return
	}
	r.sendReserved(ctx, ply, prev.UCI, 0, false)
}
