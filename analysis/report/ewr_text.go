package report

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis"
)

// writeEWRText writes a game's "Critical moments" section: per moment the
// move, why it was analysed, the Maia level, the played move's expected
// winrate and the best practical move's, each with its confidence, and the
// base winrate.
func writeEWRText(w *bufio.Writer, a *analysis.Analysis, ms []EWRMoment) {
	if len(ms) == 0 {
		w.WriteString("Critical moments (expected winrate): none (no judged move)\n")
		return
	}
	w.WriteString("Critical moments (expected winrate for a human at the Maia level; Maia × Stockfish)\n")
	fmt.Fprintf(w, "%4s  %-12s %-20s %4s  %-24s %-24s %6s\n", "ply", "move", "why", "maia", "played", "best practical", "base")
	for _, m := range ms {
		move := textMoveLabel(a, m)
		if !m.OK() {
			line := fmt.Sprintf("%4d  %-12s %-20s %4s  not computed: %s", m.Ply, move, m.KindText(), "", m.Error)
			w.WriteString(strings.TrimRight(line, " ") + "\n")
			continue
		}
		played := m.Played.SAN + " " + winrateWithConfidence(m.Played)
		best := m.Best.SAN + " " + winrateWithConfidence(m.Best)
		if m.PlayedWasBest {
			best = "(played)"
		}
		base := "-"
		if m.BaseWinrate != nil {
			base = Percent(*m.BaseWinrate)
		}
		line := fmt.Sprintf("%4d  %-12s %-20s %4d  %-24s %-24s %6s", m.Ply, move, m.KindText(), m.Rating, played, best, base)
		if m.Partial {
			line += "  [partial: time limit]"
		}
		w.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// textMoveLabel is the move as the game table writes it ("14. Qf3?").
func textMoveLabel(a *analysis.Analysis, m EWRMoment) string {
	if m.Ply >= 1 && m.Ply <= len(a.Plies) {
		p := &a.Plies[m.Ply-1]
		return p.Label() + p.NAG
	}
	return m.Label
}
