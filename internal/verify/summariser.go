package verify

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
)

// ServerLine is the summary's verification hook (daemon.SummaryLine): when
// Lichess's server analysis of the game is already there at summary time
// (one export request), the summary gets one more line saying how the
// analysis just made agrees with it. Without a server analysis, or on any
// error, there is no line.
func ServerLine(api ExportAPI) daemon.SummaryLine {
	return func(ctx context.Context, _ store.Game, ours *analysis.Analysis) (string, bool) {
		rep, found, err := CheckServer(ctx, api, ours)
		if err != nil || !found {
			return "", false
		}
		return Line(rep), true
	}
}

// Line is the chat line reporting agreement with Lichess's analysis (well
// under Lichess's 140 characters).
func Line(rep ServerReport) string {
	if rep.Judgements == 0 {
		return "Lichess's own analysis agrees: no inaccuracy, mistake or blunder."
	}
	return fmt.Sprintf("Checked against Lichess's own analysis: %d/%d judgements agree.", rep.Agree, rep.Judgements)
}
