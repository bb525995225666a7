package analysis

// Agreement is how far our judgements and evals agree with Lichess's over
// a set of plies: one game's (in its Comparison) or several games' summed
// (with an AgreementSum).
type Agreement struct {
	Judgments JudgmentCounts `json:"judgments"`
	// EvalMAECP is the mean absolute eval difference in centipawns (both
	// capped at ±1000, a mate counting as ±1000) over plies both evaluated.
	EvalMAECP float64 `json:"eval_mae_cp"`
	// EvalMAEWinPct is the same in Win% points.
	EvalMAEWinPct float64 `json:"eval_mae_winpct"`
	EvalPlies     int     `json:"eval_plies"`
	// Confusion[lichess][ours] counts plies by judgement ("none",
	// "Inaccuracy", "Mistake", "Blunder").
	Confusion map[string]map[string]int `json:"confusion"`
	// Flagged-vs-not agreement (a ply is flagged when it has any judgement).
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	F1        *float64 `json:"f1"`
	// SameNameRate is Judgments.Exact / Judgments.Lichess.
	SameNameRate *float64 `json:"same_name_rate"`
	// Plies counted, plies with the same judgement (incl. none) and plies
	// whose grades differ by at most one step (none < ?! < ? < ??).
	Plies          int `json:"plies"`
	Agree          int `json:"agree"`
	WithinOneGrade int `json:"within_one_grade"`
}

// JudgmentCounts is the minimum comparison: Lichess's judgements, ours, and
// how many of Lichess's we reproduced with the same name.
type JudgmentCounts struct {
	Lichess int `json:"lichess"`
	Ours    int `json:"ours"`
	Exact   int `json:"exact"`
}

// AgreementSum adds up agreements, ply by ply (Compare) or game by game
// (Add); Agreement returns the total with its rates and means. The zero
// value is an empty sum.
type AgreementSum struct {
	a Agreement
	// sums of the absolute eval differences behind the means
	sumCP, sumWinPct float64
}

// Add adds the agreement over other plies (another game's).
func (s *AgreementSum) Add(b Agreement) {
	s.a.Judgments.Lichess += b.Judgments.Lichess
	s.a.Judgments.Ours += b.Judgments.Ours
	s.a.Judgments.Exact += b.Judgments.Exact
	s.a.Plies += b.Plies
	s.a.Agree += b.Agree
	s.a.WithinOneGrade += b.WithinOneGrade
	s.sumCP += b.EvalMAECP * float64(b.EvalPlies)
	s.sumWinPct += b.EvalMAEWinPct * float64(b.EvalPlies)
	s.a.EvalPlies += b.EvalPlies
	for l, row := range b.Confusion {
		for o, n := range row {
			s.confuse(l, o, n)
		}
	}
}

// addPly counts one ply that Lichess judged lichess and we judged ours.
func (s *AgreementSum) addPly(lichess, ours Judgement) {
	s.a.Plies++
	s.confuse(lichess.Label(), ours.Label(), 1)
	if lichess != NoJudgement {
		s.a.Judgments.Lichess++
		if ours == lichess {
			s.a.Judgments.Exact++
		}
	}
	if ours != NoJudgement {
		s.a.Judgments.Ours++
	}
	if ours == lichess {
		s.a.Agree++
	}
	if absInt(int(ours)-int(lichess)) <= 1 {
		s.a.WithinOneGrade++
	}
}

// addEvalDiff counts one ply both evaluated, the evals cp centipawns and
// winPct Win% points apart.
func (s *AgreementSum) addEvalDiff(cp, winPct float64) {
	s.sumCP += cp
	s.sumWinPct += winPct
	s.a.EvalPlies++
}

func (s *AgreementSum) confuse(lichess, ours string, n int) {
	if s.a.Confusion == nil {
		s.a.Confusion = map[string]map[string]int{}
	}
	if s.a.Confusion[lichess] == nil {
		s.a.Confusion[lichess] = map[string]int{}
	}
	s.a.Confusion[lichess][ours] += n
}

// Agreement returns the sum: the counts, the mean eval differences,
// precision, recall and F1 of the flagged plies, and the same-name rate.
func (s *AgreementSum) Agreement() Agreement {
	a := s.a
	if a.Confusion == nil {
		a.Confusion = map[string]map[string]int{}
	}
	if a.EvalPlies > 0 {
		a.EvalMAECP = s.sumCP / float64(a.EvalPlies)
		a.EvalMAEWinPct = s.sumWinPct / float64(a.EvalPlies)
	}
	var tp, fp, fn int
	for l, row := range a.Confusion {
		for o, n := range row {
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
	a.Precision, a.Recall, a.F1 = PRF(tp, fp, fn)
	if a.Judgments.Lichess > 0 {
		r := float64(a.Judgments.Exact) / float64(a.Judgments.Lichess)
		a.SameNameRate = &r
	}
	return a
}

// PRF returns precision, recall and F1 from true positives, false positives
// and false negatives (nil where undefined).
func PRF(tp, fp, fn int) (p, r, f *float64) {
	if tp+fp > 0 {
		v := float64(tp) / float64(tp+fp)
		p = &v
	}
	if tp+fn > 0 {
		v := float64(tp) / float64(tp+fn)
		r = &v
	}
	if p != nil && r != nil && *p+*r > 0 {
		v := 2 * *p * *r / (*p + *r)
		f = &v
	}
	return p, r, f
}
