package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
)

// WriteText writes a per-game table (move, eval, judgement, best move) and
// per-player summary for each analysis, then the aggregate comparison.
func WriteText(w io.Writer, analyses []*analysis.Analysis, errs []string) error {
	return WriteTextEWR(w, analyses, nil, errs)
}

// WriteTextEWR is WriteText with a "Critical moments" section after each
// game in moments (see EWRSet).
func WriteTextEWR(w io.Writer, analyses []*analysis.Analysis, moments EWRSet, errs []string) error {
	bw := bufio.NewWriter(w)
	for i, a := range analyses {
		if i > 0 {
			bw.WriteString("\n")
		}
		writeGameText(bw, a)
		if ms, ok := moments[a]; ok {
			writeEWRText(bw, a, ms)
		}
	}
	if ag := AggregateComparisons(analyses); ag != nil && ag.Games > 1 {
		bw.WriteString("\n")
		writeAggregateText(bw, ag)
	}
	if len(errs) > 0 {
		bw.WriteString("\nSkipped:\n")
		for _, e := range errs {
			fmt.Fprintf(bw, "  %s\n", e)
		}
	}
	return bw.Flush()
}

func evalText(e *score.Score) string {
	if e == nil {
		return "-"
	}
	if e.IsMate() {
		return e.String()
	}
	return fmt.Sprintf("%+.2f", float64(e.CP)/100)
}

func writeGameText(w *bufio.Writer, a *analysis.Analysis) {
	fmt.Fprintf(w, "Game %s: %s vs %s, %s (%s)\n", a.ID, playerLabel(a.Players.White), playerLabel(a.Players.Black), a.Result, a.Engine)
	fmt.Fprintf(w, "%4s  %-12s %8s  %-11s %-8s %s\n", "ply", "move", "eval", "judgement", "best", "comment")
	for i := range a.Plies {
		p := &a.Plies[i]
		move := fmt.Sprintf("%d. %s%s", p.MoveNumber, p.SAN, p.NAG)
		if !p.White() {
			move = fmt.Sprintf("%d... %s%s", p.MoveNumber, p.SAN, p.NAG)
		}
		best := ""
		if p.Judgement != analysis.NoJudgement && p.BestSAN != nil {
			best = *p.BestSAN
		}
		comment := ""
		if p.Judgement != analysis.NoJudgement {
			comment = "(" + p.EvalChange + ")"
			if p.MateCase != "" {
				comment += " " + p.Verdict().Mate.Text()
			}
			if p.Borderline {
				comment += " [borderline]"
			}
		}
		line := fmt.Sprintf("%4d  %-12s %8s  %-11s %-8s %s", p.Ply, move, evalText(p.Eval), p.Judgement.String(), best, comment)
		w.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	fmt.Fprintf(w, "%-28s %8s %5s %11s %8s %8s\n", "player", "accuracy", "acpl", "inaccuracy", "mistake", "blunder")
	for _, side := range []struct {
		name string
		p    analysis.Player
	}{{"White", a.Players.White}, {"Black", a.Players.Black}} {
		fmt.Fprintf(w, "%-28s %8s %5s %11d %8d %8d\n", trunc(side.name+" "+side.p.Name, 28), intText(side.p.Accuracy), intText(side.p.ACPL),
			side.p.Inaccuracy, side.p.Mistake, side.p.Blunder)
	}
	if c := a.Comparison; c != nil {
		head, label := "Lichess comparison", c.AgainstLabel()
		if c.Against != "" {
			head = "Comparison with " + c.AgainstName() + " (not Lichess)"
		}
		fmt.Fprintf(w, "%s: judgements %d %s / %d ours / %d same name; flagged P %s R %s F1 %s; within one grade %d/%d; eval MAE %.1f cp (%.1f Win%%)\n",
			head, c.Judgments.Lichess, label, c.Judgments.Ours, c.Judgments.Exact, ratio(c.Precision), ratio(c.Recall), ratio(c.F1),
			c.WithinOneGrade, c.Plies, c.EvalMAECP, c.EvalMAEWinPct)
		fmt.Fprintf(w, "  accuracy diff white %s black %s; ACPL diff white %s black %s\n",
			floatText(c.White.AccuracyDiff), floatText(c.Black.AccuracyDiff), intText(c.White.ACPLDiff), intText(c.Black.ACPLDiff))
		for _, d := range c.Disagreements {
			fmt.Fprintf(w, "  ply %d %s: %s %s, ours %s (%s)\n", d.Ply, d.SAN, label, d.Lichess, d.Ours, d.Cause)
		}
	}
}

func writeAggregateText(w *bufio.Writer, ag *Aggregate) {
	fmt.Fprintf(w, "All %d compared games: judgements %d Lichess / %d ours / %d same name (%s); flagged P %s R %s F1 %s\n",
		ag.Games, ag.Judgments.Lichess, ag.Judgments.Ours, ag.Judgments.Exact, ratio(ag.SameNameRate), ratio(ag.Precision), ratio(ag.Recall), ratio(ag.F1))
	fmt.Fprintf(w, "  same judgement on %d/%d plies, within one grade %d/%d; eval MAE %.1f cp (%.1f Win%%); %d disagreements, %d one grade apart\n",
		ag.Agree, ag.Plies, ag.WithinOneGrade, ag.Plies, ag.EvalMAECP, ag.EvalMAEWinPct, ag.Disagreements, ag.OneGradeApart)
	causes := make([]string, 0, len(ag.Causes))
	for c := range ag.Causes {
		causes = append(causes, c)
	}
	sort.Strings(causes)
	for _, c := range causes {
		fmt.Fprintf(w, "  cause %s: %d\n", c, ag.Causes[c])
	}
}

func playerLabel(p analysis.Player) string {
	if p.Name == "" {
		p.Name = "?"
	}
	if p.Rating > 0 {
		return fmt.Sprintf("%s (%d)", p.Name, p.Rating)
	}
	return p.Name
}

// Figure formats *p with format (such as "%+.1f"), or is "-" when p is
// nil: a figure that could not be computed.
func Figure[T any](format string, p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

func intText(p *int) string       { return Figure("%d", p) }
func floatText(p *float64) string { return Figure("%+.1f", p) }
func ratio(p *float64) string     { return Figure("%.2f", p) }

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
