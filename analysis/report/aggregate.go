package report

import (
	"math"

	"github.com/outpostchess/outpost/analysis"
)

// Aggregate sums the comparisons of several games.
type Aggregate struct {
	Games          int                       `json:"games"`
	Judgments      analysis.JudgmentCounts   `json:"judgments"`
	SameNameRate   *float64                  `json:"same_name_rate"`
	Precision      *float64                  `json:"precision"`
	Recall         *float64                  `json:"recall"`
	F1             *float64                  `json:"f1"`
	Plies          int                       `json:"plies"`
	Agree          int                       `json:"agree"`
	WithinOneGrade int                       `json:"within_one_grade"`
	EvalMAECP      float64                   `json:"eval_mae_cp"`
	EvalMAEWinPct  float64                   `json:"eval_mae_winpct"`
	Confusion      map[string]map[string]int `json:"confusion"`
	Causes         map[string]int            `json:"causes"`
	Disagreements  int                       `json:"disagreements"`
	// OneGradeApart counts disagreements whose grades differ by one step.
	OneGradeApart int `json:"one_grade_apart"`
}

var grade = map[string]int{"none": 0, "Inaccuracy": 1, "Mistake": 2, "Blunder": 3}

// AggregateComparisons sums the comparisons of the analyses that have one
// (nil when none has).
func AggregateComparisons(as []*analysis.Analysis) *Aggregate {
	ag := &Aggregate{Confusion: map[string]map[string]int{}, Causes: map[string]int{}}
	var tp, fp, fn int
	var sumCP, sumWin float64
	evalPlies := 0
	for _, a := range as {
		c := a.Comparison
		if c == nil {
			continue
		}
		ag.Games++
		ag.Judgments.Lichess += c.Judgments.Lichess
		ag.Judgments.Ours += c.Judgments.Ours
		ag.Judgments.Exact += c.Judgments.Exact
		ag.Plies += c.Plies
		ag.Agree += c.Agree
		ag.WithinOneGrade += c.WithinOneGrade
		sumCP += c.EvalMAECP * float64(c.EvalPlies)
		sumWin += c.EvalMAEWinPct * float64(c.EvalPlies)
		evalPlies += c.EvalPlies
		for l, row := range c.Confusion {
			if ag.Confusion[l] == nil {
				ag.Confusion[l] = map[string]int{}
			}
			for o, n := range row {
				ag.Confusion[l][o] += n
				switch {
				case l != "none" && o != "none":
					tp += n
				case o != "none":
					fp += n
				case l != "none":
					fn += n
				}
			}
		}
		for cause, n := range c.Causes {
			ag.Causes[cause] += n
		}
		for _, d := range c.Disagreements {
			ag.Disagreements++
			if math.Abs(float64(grade[d.Lichess]-grade[d.Ours])) == 1 {
				ag.OneGradeApart++
			}
		}
	}
	if ag.Games == 0 {
		return nil
	}
	if evalPlies > 0 {
		ag.EvalMAECP = sumCP / float64(evalPlies)
		ag.EvalMAEWinPct = sumWin / float64(evalPlies)
	}
	ag.Precision, ag.Recall, ag.F1 = analysis.PRF(tp, fp, fn)
	if ag.Judgments.Lichess > 0 {
		r := float64(ag.Judgments.Exact) / float64(ag.Judgments.Lichess)
		ag.SameNameRate = &r
	}
	return ag
}
