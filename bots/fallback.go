package bots

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// ErrNoLegalMove is returned when the position is already over (checkmate
// or stalemate): there is nothing to play.
var ErrNoLegalMove = errors.New("bots: no legal move in this position")

// FallbackReason says why the Fallback did not use the primary's move.
type FallbackReason string

// The reasons for falling back.
const (
	ReasonError   FallbackReason = "error"   // the primary returned an error
	ReasonIllegal FallbackReason = "illegal" // the primary's move is not legal
	ReasonTimeout FallbackReason = "timeout" // the primary did not answer in time
)

// FallbackEvent describes one fallback, for logs, metrics and tests.
type FallbackEvent struct {
	Primary   string         // the primary engine's name
	Reason    FallbackReason // why it was not trusted
	Err       error          // the primary's error (ReasonError)
	Illegal   string         // the primary's move (ReasonIllegal)
	Budget    time.Duration  // the primary's time budget (ReasonTimeout)
	Move      string         // the move played instead
	Secondary string         // who chose it: the secondary's name or "legal-move"
}

// Fallback wraps a primary engine so that it never loses a game by itself:
// when the primary errors, returns an illegal move or does not answer within
// its budget (timeman.SafetyCap plus a grace period), Fallback logs why and returns
// a legal move from the secondary engine, or failing that the first legal
// move. A primary still searching at that point but that reported a best
// move so far (engine.ReportBestSoFar: each completed iteration, each
// principal variation of a UCI engine) has that move played instead: the
// secondary plays only for an engine with no move at all. When the caller
// gives up (its context ends: the game is over) nothing is logged as an
// engine failure. It is Configurable, Stateful and Inspectable through the
// primary.
//
// A primary that overruns keeps running in the background with a cancelled
// context until it returns; engines that honour cancellation (all of ours)
// return promptly.
type Fallback struct {
	primary   engine.Engine
	secondary engine.Engine
	log       zerolog.Logger
	onEvent   func(FallbackEvent)
	positions positionCache
	alarm     func(d time.Duration) (fired <-chan time.Time, stop func())
}

// FallbackOption configures NewFallback.
type FallbackOption func(*Fallback)

// WithFallbackLogger sets where fallbacks are logged (at warn level).
func WithFallbackLogger(l zerolog.Logger) FallbackOption {
	return func(f *Fallback) { f.log = l }
}

// WithFallbackHook calls fn for every fallback, synchronously.
func WithFallbackHook(fn func(FallbackEvent)) FallbackOption {
	return func(f *Fallback) { f.onEvent = fn }
}

// WithFallbackAlarm replaces the wall-clock timer after which a primary
// that has not answered (budget plus twice the grace) is given up; tests
// inject it so that the outcome cannot depend on the machine's speed. The
// primary's own context still ends at budget plus grace on the wall clock.
func WithFallbackAlarm(alarm func(d time.Duration) (fired <-chan time.Time, stop func())) FallbackOption {
	return func(f *Fallback) { f.alarm = alarm }
}

// wallAlarm is the default alarm: a wall-clock timer.
func wallAlarm(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// NewFallback wraps primary; secondary may be nil (then the first legal
// move is the fallback). Close closes both.
func NewFallback(primary, secondary engine.Engine, opts ...FallbackOption) *Fallback {
	f := &Fallback{primary: primary, secondary: secondary}
	for _, o := range opts {
		o(f)
	}
	return f
}

var (
	_ engine.Configurable = (*Fallback)(nil)
	_ engine.Stateful     = (*Fallback)(nil)
	_ engine.Inspectable  = (*Fallback)(nil)
)

// Primary returns the wrapped engine.
func (f *Fallback) Primary() engine.Engine { return f.primary }

// Name returns the primary's name.
func (f *Fallback) Name() string { return f.primary.Name() }

// Info returns the primary's Info (a minimal one when it is not Inspectable).
func (f *Fallback) Info() engine.Info { return engine.InfoOf(f.primary) }

// Variants returns the variants the primary plays.
func (f *Fallback) Variants() []string { return engine.Variants(f.primary) }

// Configure passes options to the primary.
func (f *Fallback) Configure(options map[string]string) error {
	if err := engine.ConfigureOf(f.primary, options); err != nil {
		return fmt.Errorf("bots: %w", err)
	}
	return nil
}

// NewGame tells both engines that a new game starts.
func (f *Fallback) NewGame(ctx context.Context) error {
	var errs []error
	for _, e := range []engine.Engine{f.primary, f.secondary} {
		if err := engine.NewGameOf(ctx, e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Close closes both engines.
func (f *Fallback) Close() error {
	errs := []error{f.primary.Close()}
	if f.secondary != nil {
		errs = append(errs, f.secondary.Close())
	}
	return errors.Join(errs...)
}

// SelectMove asks the primary and checks its answer; see Fallback. It fails
// only when the position itself is invalid or has no legal move.
//
// The position is set up on bots/board (checked move for move against
// notnil/chess by its perft and differential tests), from the previous
// position when pos extends it: this is on the daemon's path from a game
// state to its move, where replaying the game through notnil/chess cost
// milliseconds.
func (f *Fallback) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	g, err := f.positions.board(pos)
	if err != nil {
		return engine.Move{}, fmt.Errorf("bots: %w", err)
	}
	if !g.HasLegalMoves() {
		return engine.Move{}, ErrNoLegalMove
	}
	white := g.SideToMove() == board.White
	budget, bounded := timeman.SafetyCap(lim, white)

	pctx, cancel := context.WithCancel(ctx)
	var wait <-chan time.Time
	if bounded {
		gr := grace(lim, white, budget)
		var cancelT context.CancelFunc
		pctx, cancelT = context.WithTimeout(pctx, budget+gr)
		defer cancelT()
		alarm := f.alarm
		if alarm == nil {
			alarm = wallAlarm
		}
		fired, stop := alarm(budget + 2*gr)
		defer stop()
		wait = fired
	}
	defer cancel()

	var best engine.BestSoFar
	pctx = engine.WithBestSoFar(pctx, &best)
	ch := make(chan primaryAnswer, 1)
	go func() {
		m, err := f.primary.SelectMove(pctx, pos, lim)
		ch <- primaryAnswer{m, err}
	}()

	ev := FallbackEvent{Primary: f.primary.Name()}
	select {
	case a := <-ch:
		if a.stands(g, &ev) {
			return a.m, nil
		}
	case <-wait:
		// Past the deadline and its grace: the engine's answer if it came
		// at this very moment, else its best move so far when it reported
		// one (under load its search may simply not have been scheduled
		// to return it).
		select {
		case a := <-ch:
			if a.stands(g, &ev) {
				return a.m, nil
			}
			return f.fallBack(ctx, g, pos, lim, ev), nil
		default:
		}
		if m, ok := f.bestSoFar(g, &best, budget); ok {
			return m, nil
		}
		ev.Reason, ev.Budget = ReasonTimeout, budget
	case <-ctx.Done():
		return f.callerGaveUp(ctx, g, pos, lim, ch, &best), nil
	}
	return f.fallBack(ctx, g, pos, lim, ev), nil
}

// bestSoFar returns the primary's best move so far when it reported a
// legal one, logging that it was played at the deadline.
func (f *Fallback) bestSoFar(g *board.Board, best *engine.BestSoFar, budget time.Duration) (engine.Move, bool) {
	m, ok := best.Get()
	if !ok || !isLegal(g, m.UCI) {
		return engine.Move{}, false
	}
	f.log.Info().Str("engine", f.primary.Name()).Str("move", m.UCI).Int("depth", m.Depth).Dur("budget", budget).
		Msg("bots: engine still searching at its deadline; playing its best move so far")
	return m, true
}

// callerGaveUp answers a SelectMove whose caller's context ended (the game
// ended, the position changed): quickly, with the primary's answer if it
// comes at once, else its best move so far, else a fallback move — which
// nobody will play, so it is not logged as an engine failure.
func (f *Fallback) callerGaveUp(ctx context.Context, g *board.Board, pos engine.Position, lim engine.Limits,
	ch <-chan primaryAnswer, best *engine.BestSoFar) engine.Move {
	ev := FallbackEvent{Primary: f.primary.Name()}
	t := time.NewTimer(minGrace)
	defer t.Stop()
	select {
	case a := <-ch:
		if a.stands(g, &ev) {
			return a.m
		}
	case <-t.C:
		if m, ok := best.Get(); ok && isLegal(g, m.UCI) {
			return m
		}
		ev.Reason, ev.Err = ReasonTimeout, ctx.Err()
	}
	f.log.Debug().Str("engine", ev.Primary).Str("reason", string(ev.Reason)).AnErr("primary_error", ev.Err).
		Msg("bots: the caller gave up on the move; answering with a fallback move")
	return f.fallBackQuiet(ctx, g, pos, lim, &ev)
}

// fallBack asks the secondary (briefly) and returns its move if legal, or
// else the first legal move, logging the event.
func (f *Fallback) fallBack(ctx context.Context, g *board.Board, pos engine.Position, lim engine.Limits, ev FallbackEvent) engine.Move {
	m := f.fallBackQuiet(ctx, g, pos, lim, &ev)
	l := f.log.Warn().Str("engine", ev.Primary).Str("reason", string(ev.Reason)).
		Str("move", ev.Move).Str("by", ev.Secondary)
	if ev.Err != nil {
		l = l.AnErr("primary_error", ev.Err)
	}
	if ev.Illegal != "" {
		l = l.Str("illegal_move", ev.Illegal)
	}
	if ev.Reason == ReasonTimeout {
		l = l.Dur("budget", ev.Budget)
	}
	l.Msg("bots: engine failed; playing a fallback move")
	if f.onEvent != nil {
		f.onEvent(ev)
	}
	return m
}

// fallBackQuiet chooses the fallback move (the secondary's, briefly, if
// legal, else the first legal move) and records it in ev.
func (f *Fallback) fallBackQuiet(ctx context.Context, g *board.Board, pos engine.Position, lim engine.Limits, ev *FallbackEvent) engine.Move {
	var m engine.Move
	if f.secondary != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 100*time.Millisecond)
		slim := engine.Limits{MoveTime: 50 * time.Millisecond, WTime: lim.WTime, BTime: lim.BTime, WInc: lim.WInc, BInc: lim.BInc}
		sm, err := f.secondary.SelectMove(sctx, pos, slim)
		cancel()
		if err == nil && isLegal(g, sm.UCI) {
			m = sm
			ev.Secondary = f.secondary.Name()
		}
	}
	if m.UCI == "" {
		m = engine.Move{UCI: firstLegalMove(g)}
		ev.Secondary = "legal-move"
	}
	ev.Move = m.UCI
	return m
}

// primaryAnswer is the primary's answer to SelectMove.
type primaryAnswer struct {
	m   engine.Move
	err error
}

// stands reports whether the answer is a legal move in g; when it is not,
// it records why in ev (an error, or the illegal move).
func (a primaryAnswer) stands(g *board.Board, ev *FallbackEvent) bool {
	switch {
	case a.err != nil:
		ev.Reason, ev.Err = ReasonError, a.err
	case !isLegal(g, a.m.UCI):
		ev.Reason, ev.Illegal = ReasonIllegal, a.m.UCI
	default:
		return true
	}
	return false
}

// isLegal reports whether move is a legal move on g, written exactly as
// UCI (and Lichess) expect it.
func isLegal(g *board.Board, move string) bool {
	_, ok := g.FindUCI(move)
	return ok
}

// firstLegalMove returns the alphabetically first legal move of g in UCI
// (the same choice as LegalMoves(…)[0]), or "" when there is none.
func firstLegalMove(g *board.Board) string {
	var ml board.MoveList
	g.GenerateMoves(&ml)
	first := ""
	for _, m := range ml.Slice() {
		if s := m.String(); first == "" || s < first {
			first = s
		}
	}
	return first
}
