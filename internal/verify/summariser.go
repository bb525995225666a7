package verify

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
)

// Summariser is the daemon's post-game summariser (daemon.Summariser).
type Summariser interface {
	Summarise(ctx context.Context, g store.Game) (result string, lines []string, err error)
}

// ChatLine wraps a summariser: when Lichess's server analysis of the game
// is already there at summary time (one export request), the summary gets
// one more line saying how ours agrees with it. Without an analysis, or on
// any error, the summary is unchanged.
type ChatLine struct {
	Inner Summariser
	API   ExportAPI
	// Against is what API serves (Lichess when zero).
	Against Against
}

// Summarise implements daemon.Summariser.
func (c ChatLine) Summarise(ctx context.Context, g store.Game) (string, []string, error) {
	result, lines, err := c.Inner.Summarise(ctx, g)
	if err != nil {
		return result, lines, err
	}
	ours, err := Decode(g.ID, result)
	if err != nil {
		return result, lines, nil
	}
	rep, found, err := CheckServer(ctx, c.API, ours)
	if err != nil || !found {
		return result, lines, nil
	}
	return result, append(lines, Line(rep, c.Against)), nil
}

// SetGate passes the daemon's gate of its games to the wrapped summariser
// when it takes one (postgame.Summariser holds its engines back while a
// game is on the clock): without it the wrapped summary ran beside games
// unheld.
func (c ChatLine) SetGate(g ewr.Gate) {
	if s, ok := c.Inner.(interface{ SetGate(ewr.Gate) }); ok {
		s.SetGate(g)
	}
}

// SetMe passes our account name to the wrapped summariser when it takes
// one (postgame.Summariser names our side with it).
func (c ChatLine) SetMe(username string) {
	if s, ok := c.Inner.(interface{ SetMe(string) }); ok {
		s.SetMe(username)
	}
}

// Line is the chat line reporting agreement with srv's analysis (well
// under Lichess's 140 characters; Lichess when srv is zero).
func Line(rep ServerReport, srv Against) string {
	if rep.Judgements == 0 {
		return upperFirst(srv.Possessive()) + " own analysis agrees: no inaccuracy, mistake or blunder."
	}
	return fmt.Sprintf("Checked against %s own analysis: %d/%d judgements agree.", srv.Possessive(), rep.Agree, rep.Judgements)
}

// upperFirst capitalises s's first letter (ASCII).
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
