package comparerun

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/analysis/report"
)

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *RunReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("comparerun: write JSON: %w", err)
	}
	return nil
}

// WriteText writes the report for a terminal: the run, one line per game,
// the aggregate (agreement, precision/recall/F1, within one grade, eval
// MAE, accuracy and ACPL differences, confusion, disagreement causes) and
// the trend.
func WriteText(w io.Writer, r *RunReport) error {
	bw := bufio.NewWriter(w)
	state := "new run"
	if r.Resumed {
		state = "resumed"
	}
	fmt.Fprintf(bw, "Comparison run %d for %s (%s: %d games analysed now, %d from the store)\n", r.RunID, r.User, state, r.Analysed, r.Reused)
	engine := r.Engine
	if engine == "" {
		engine = r.Params.Engine + " " + r.Params.Budget
	}
	if r.Params.EngineFrom != "" {
		engine += " (" + r.Params.EngineFrom + ")"
	}
	fmt.Fprintf(bw, "Engine: %s\n", engine)
	if src := r.Params.Source; src.Kind == "lichess" {
		fmt.Fprintf(bw, "Source: %s games of %s", src.Server, src.User)
		if src.Since != "" {
			fmt.Fprintf(bw, " from the %s before %s", src.Since, r.StartedAt.UTC().Format("2006-01-02 15:04"))
		}
		if src.Max > 0 {
			fmt.Fprintf(bw, ", at most %d", src.Max)
		}
		bw.WriteString("\n")
	} else {
		fmt.Fprintf(bw, "Source: %s\n", src.File)
	}
	bw.WriteString("\n")
	writeGames(bw, r)
	writePresets(bw, r)
	writePeriods(bw, r)
	if len(r.Skipped) > 0 {
		bw.WriteString("\nUnreadable games:\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(bw, "  %s\n", s)
		}
	}
	bw.WriteString("\n")
	writeOverall(bw, r)
	if len(r.Trend) > 0 {
		bw.WriteString("\n")
		writeTrend(bw, r.Trend)
	}
	return bw.Flush()
}

func writeGames(w *bufio.Writer, r *RunReport) {
	if len(r.Games) == 0 {
		w.WriteString("No games.\n")
		return
	}
	width := 8
	for _, g := range r.Games {
		width = max(width, len([]rune(gameLabel(g.ID))))
	}
	fmt.Fprintf(w, "%-*s %-33s %-7s %7s %4s %5s %5s %7s %13s %11s\n", width,
		"game", "white - black", "result", "Lichess", "ours", "same", "F1", "MAE cp", "acc diff W/B", "ACPL W/B")
	for _, g := range r.Games {
		players := trunc(g.White+" - "+g.Black, 33)
		id := gameLabel(g.ID)
		if g.Error != "" {
			fmt.Fprintf(w, "%-*s %-33s %-7s not compared: %s\n", width, id, players, g.Result, g.Error)
			continue
		}
		fmt.Fprintf(w, "%-*s %-33s %-7s %7d %4d %5d %5s %7.1f %13s %11s\n", width, id, players, g.Result,
			g.Judgments.Lichess, g.Judgments.Ours, g.Judgments.Exact, num(g.F1, 2),
			g.EvalMAECP, signedF(g.WhiteDiff.AccuracyDiff)+"/"+signedF(g.BlackDiff.AccuracyDiff),
			signedI(g.WhiteDiff.ACPLDiff)+"/"+signedI(g.BlackDiff.ACPLDiff))
	}
}

// writePresets lists the presets chosen by game date, with their counts,
// in order of first use.
func writePresets(w *bufio.Writer, r *RunReport) {
	count := map[string]int{}
	var order []string
	for _, g := range r.Games {
		if g.Preset == "" {
			continue
		}
		if count[g.Preset] == 0 {
			order = append(order, g.Preset)
		}
		count[g.Preset]++
	}
	if len(order) == 0 {
		return
	}
	w.WriteString("Presets by game date:\n")
	for _, p := range order {
		fmt.Fprintf(w, "  %d game(s): %s\n", count[p], p)
	}
}

// writePeriods lists, per game, the period of Lichess's analysis detected
// from its evals (--detect-period) and the engine the game ran.
func writePeriods(w *bufio.Writer, r *RunReport) {
	first := true
	for _, g := range r.Games {
		if g.Period == "" {
			continue
		}
		if first {
			w.WriteString("Periods detected from Lichess's evals:\n")
			first = false
		}
		fmt.Fprintf(w, "  %s: %s; analysed with %s\n", g.ID, g.Period, g.Engine)
	}
}

func writeOverall(w *bufio.Writer, r *RunReport) {
	ag := r.Aggregate
	if ag == nil {
		w.WriteString("Overall: no game could be compared.\n")
		return
	}
	h := r.Headline
	fmt.Fprintf(w, "Overall (%d games, %d plies)\n", ag.Games, ag.Plies)
	fmt.Fprintf(w, "  same judgement on Lichess-flagged plies: %d of %d (%s)\n", ag.Judgments.Exact, ag.Judgments.Lichess, pct(h.SameName))
	fmt.Fprintf(w, "  flagged plies: Lichess %d, ours %d; precision %s, recall %s, F1 %s\n",
		ag.Judgments.Lichess, ag.Judgments.Ours, num(h.Precision, 3), num(h.Recall, 3), num(h.F1, 3))
	fmt.Fprintf(w, "  all plies: same judgement %s, within one grade %s\n", pct(h.Agree), pct(h.WithinOne))
	fmt.Fprintf(w, "  eval difference: MAE %.1f cp, %.2f Win%%\n", ag.EvalMAECP, ag.EvalMAEWinPct)
	writeDiff(w, "all players", r.Players.All)
	if r.Players.User != nil {
		writeDiff(w, r.User, *r.Players.User)
	}
	if r.Players.Opponents != nil {
		writeDiff(w, "opponents", *r.Players.Opponents)
	}
	labels := []string{"none", "Inaccuracy", "Mistake", "Blunder"}
	w.WriteString("  confusion (rows Lichess, columns ours):\n")
	fmt.Fprintf(w, "    %-11s", "")
	for _, l := range labels {
		fmt.Fprintf(w, " %10s", l)
	}
	w.WriteString("\n")
	for _, l := range labels {
		fmt.Fprintf(w, "    %-11s", l)
		for _, o := range labels {
			fmt.Fprintf(w, " %10d", ag.Confusion[l][o])
		}
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "  disagreements: %d (%d one grade apart)", ag.Disagreements, ag.OneGradeApart)
	if len(ag.Causes) > 0 {
		causes := make([]string, 0, len(ag.Causes))
		for c := range ag.Causes {
			causes = append(causes, c)
		}
		sort.Slice(causes, func(i, j int) bool {
			if ag.Causes[causes[i]] != ag.Causes[causes[j]] {
				return ag.Causes[causes[i]] > ag.Causes[causes[j]]
			}
			return causes[i] < causes[j]
		})
		parts := make([]string, len(causes))
		for i, c := range causes {
			parts[i] = fmt.Sprintf("%s %d", c, ag.Causes[c])
		}
		fmt.Fprintf(w, ": %s", strings.Join(parts, ", "))
	}
	w.WriteString("\n")
}

func writeDiff(w *bufio.Writer, who string, d DiffStats) {
	if d.Accuracy == 0 && d.ACPL == 0 {
		return
	}
	fmt.Fprintf(w, "  %s, ours minus Lichess's: accuracy mean %+.1f, mean abs %.1f (%d); ACPL mean %+.1f, mean abs %.1f (%d)\n",
		who, d.AccuracyMean, d.AccuracyMeanAbs, d.Accuracy, d.ACPLMean, d.ACPLMeanAbs, d.ACPL)
}

func writeTrend(w *bufio.Writer, rows []TrendRow) {
	w.WriteString("Trend (newest first)\n")
	fmt.Fprintf(w, "  %-5s %-16s %5s %7s %9s %6s %6s %6s %8s %7s %7s %s\n",
		"run", "started (UTC)", "games", "flagged", "same name", "prec", "recall", "F1", "within1", "MAE cp", "acc MAE", "budget")
	for _, t := range rows {
		h := t.Headline
		fmt.Fprintf(w, "  %-5d %-16s %5d %7d %9s %6s %6s %6s %8s %7.1f %7.1f %s\n",
			t.RunID, t.StartedAt.UTC().Format("2006-01-02 15:04"), h.Games, h.Flagged, pct(h.SameName),
			num(h.Precision, 3), num(h.Recall, 3), num(h.F1, 3), pct(h.WithinOne), h.EvalMAECP, h.AccuracyMAE, t.Budget)
	}
}

// gameLabel shortens a game key for the table: a file key
// ("/dir/games.pgn#3") loses its directory, and at most 24 characters stay.
func gameLabel(id string) string {
	if strings.Contains(id, "/") {
		id = filepath.Base(id)
	}
	return trunc(id, 24)
}

func num(p *float64, prec int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.*f", prec, *p)
}

func pct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**p)
}

func signedF(p *float64) string { return report.Figure("%+.1f", p) }
func signedI(p *int) string     { return report.Figure("%+d", p) }

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
