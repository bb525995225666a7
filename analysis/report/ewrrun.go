package report

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/board"
)

// EWRRun says which expected-winrate moments ComputeEWR computes and how.
type EWRRun struct {
	// Params are the calculation's parameters; the ratings are each
	// player's (see Rating).
	Params ewr.Params
	// Rating, when not 0, is both players' Maia rating instead of their
	// game ratings.
	Rating int
	// Bot is our bot's name ("" for none) and BotMoves the number of its
	// moves per game that get a moment (ewr.MomentPlies).
	Bot      string
	BotMoves int
	// TimeLimit bounds each moment (0: none); a moment that reaches it is
	// partial.
	TimeLimit time.Duration
	// Moment, when not nil, is called before each moment with its number
	// (from 1), the number of moments, the game's name and the ply; it
	// returns the moment's progress callback and a function called when
	// the moment ends (either may be nil).
	Moment func(done, total int, game string, ply int) (progress func(ewr.Event), finish func())
	// Warn, when not nil, receives every warning: a moment not computed,
	// a partial moment.
	Warn func(msg string)
}

// Plies returns the plies of the game's moments (ewr.MomentPlies with Bot
// and BotMoves).
func (r EWRRun) Plies(a *analysis.Analysis) []ewr.MomentPly {
	return ewr.MomentPlies(a, r.Bot, r.BotMoves)
}

// Count returns the number of moments of the games.
func (r EWRRun) Count(analyses []*analysis.Analysis) int {
	total := 0
	for _, a := range analyses {
		total += len(r.Plies(a))
	}
	return total
}

// ComputeEWR computes every game's moments with calc (which may be nil when
// there are none), in game order: each side's critical moment and our
// bot's costliest moves. A moment that fails is kept with its error and a
// warning. Cancelling ctx returns the games finished so far with ctx's
// error.
func ComputeEWR(ctx context.Context, calc *ewr.Calculator, analyses []*analysis.Analysis, r EWRRun) (EWRSet, error) {
	plies := make([][]ewr.MomentPly, len(analyses))
	total := 0
	for i, a := range analyses {
		plies[i] = r.Plies(a)
		total += len(plies[i])
	}
	set := EWRSet{}
	done := 0
	for i, a := range analyses {
		g := ewr.FromAnalysis(a)
		if r.Rating != 0 {
			g.WhiteRating, g.BlackRating = r.Rating, r.Rating
		}
		ms := []EWRMoment{}
		at := make([]int, len(plies[i]))
		for k, mp := range plies[i] {
			at[k] = mp.Ply
		}
		boards := ewr.Boards(ctx, g, at) // the game replayed once for its moments
		for _, mp := range plies[i] {
			done++
			m, err := r.moment(ctx, calc, g, boards[mp.Ply], a, mp, done, total)
			if err != nil {
				if ctx.Err() != nil {
					return set, ctx.Err()
				}
				r.warn("expected winrate of game %s at ply %d not computed: %v", GameName(a), mp.Ply, err)
				ms = append(ms, FailedEWRMoment(a, mp.Ply, momentKind(mp), err))
				continue
			}
			rm := NewEWRMoment(m, momentKind(mp))
			for _, w := range rm.Warnings {
				r.warn("expected winrate of game %s at %s: %s", GameName(a), rm.Label, w)
			}
			ms = append(ms, rm)
		}
		set[a] = ms
	}
	return set, nil
}

// moment computes one moment, reporting its progress through r.Moment.
func (r EWRRun) moment(ctx context.Context, calc *ewr.Calculator, g ewr.Game, b *board.Board, a *analysis.Analysis, mp ewr.MomentPly, done, total int) (ewr.Moment, error) {
	var progress func(ewr.Event)
	var finish func()
	if r.Moment != nil {
		progress, finish = r.Moment(done, total, GameName(a), mp.Ply)
	}
	m, err := ewr.AnalyseMomentOn(ctx, calc, g, mp.Ply, b, r.Params, ewr.Options{TimeLimit: r.TimeLimit, Progress: progress})
	if finish != nil {
		finish()
	}
	return m, err
}

func (r EWRRun) warn(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(fmt.Sprintf(format, args...))
	}
}

// momentKind is the moment's Kind: EWRBot or EWRCritical.
func momentKind(mp ewr.MomentPly) string {
	if mp.Bot {
		return EWRBot
	}
	return EWRCritical
}

// GameName names a game in messages: its id, else source#index.
func GameName(a *analysis.Analysis) string {
	if a.ID != "" {
		return a.ID
	}
	return fmt.Sprintf("%s#%d", a.Source, a.Index)
}
