package report

import (
	"math"

	"github.com/outpostchess/outpost/analysis"
)

// Aggregate sums the comparisons of several games.
type Aggregate struct {
	Games int `json:"games"`
	analysis.Agreement
	Causes        map[string]int `json:"causes"`
	Disagreements int            `json:"disagreements"`
	// OneGradeApart counts disagreements whose grades differ by one step.
	OneGradeApart int `json:"one_grade_apart"`
}

var grade = map[string]int{"none": 0, "Inaccuracy": 1, "Mistake": 2, "Blunder": 3}

// AggregateComparisons sums the comparisons of the analyses that have one
// (nil when none has).
func AggregateComparisons(as []*analysis.Analysis) *Aggregate {
	ag := &Aggregate{Causes: map[string]int{}}
	var sum analysis.AgreementSum
	for _, a := range as {
		c := a.Comparison
		if c == nil {
			continue
		}
		ag.Games++
		sum.Add(c.Agreement)
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
	ag.Agreement = sum.Agreement()
	return ag
}
