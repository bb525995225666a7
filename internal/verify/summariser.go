package verify

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
)

// ServerLine is the summary's verification hook (daemon.SummaryLine): when
// the server analysis of the game (by srv: Lichess, or the sandbox's
// stand-in) is already there at summary time (one export request), the
// summary gets one more line saying how the analysis just made agrees with
// it. Without a server analysis, or on any error, there is no line.
func ServerLine(api ExportAPI, srv Against) daemon.SummaryLine {
	return func(ctx context.Context, _ store.Game, ours *analysis.Analysis) (string, bool) {
		rep, found, err := CheckServer(ctx, api, ours)
		if err != nil || !found {
			return "", false
		}
		return Line(rep, srv), true
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
