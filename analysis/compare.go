package analysis

import (
	"math"

	"github.com/outpostchess/outpost/bots/score"
)

// BorderlineMargin is the distance to a threshold within which both our and
// Lichess's deltas make a disagreement "borderline".
const BorderlineMargin = 0.05

// Disagreement causes.
const (
	CauseGate       = "best_move_gate" // one side's best move was the move played
	CauseMateVsCP   = "mate_vs_cp"     // one side saw a mate where the other saw cp
	CauseBorderline = "borderline"     // both deltas within 0.05 of a threshold between the grades
	CauseEvalScale  = "eval_scale"     // the evals differ in size
)

// Comparison compares our analysis of a game with Lichess's.
type Comparison struct {
	Agreement
	// Against is the host of the server whose analysis was compared when
	// it is not Lichess (ServerOf the game's Site tag: the sandbox's
	// stand-in, whose analysis is our own Stockfish under Lichess's
	// rules), "" for Lichess. The reports then name it instead of Lichess.
	Against       string         `json:"against,omitempty"`
	White         PlayerDiff     `json:"white"`
	Black         PlayerDiff     `json:"black"`
	PlyDiffs      []PlyDiff      `json:"ply_diffs"`
	Disagreements []Disagree     `json:"disagreements"`
	Causes        map[string]int `json:"causes"`
}

// PlayerDiff compares one player's figures (ours minus Lichess's).
type PlayerDiff struct {
	OurAccuracy     *float64 `json:"our_accuracy"`
	LichessAccuracy *float64 `json:"lichess_accuracy"`
	AccuracyDiff    *float64 `json:"accuracy_diff"`
	OurACPL         *int     `json:"our_acpl"`
	LichessACPL     *int     `json:"lichess_acpl"`
	ACPLDiff        *int     `json:"acpl_diff"`
}

// PlyDiff is the eval difference at one ply.
type PlyDiff struct {
	Ply        int         `json:"ply"`
	Ours       score.Score `json:"ours"`
	Lichess    score.Score `json:"lichess"`
	DiffCP     int         `json:"diff_cp"`
	DiffWinPct float64     `json:"diff_winpct"`
}

// Disagree is one ply where the judgements differ.
type Disagree struct {
	Ply          int      `json:"ply"`
	SAN          string   `json:"san"`
	Lichess      string   `json:"lichess"`
	Ours         string   `json:"ours"`
	Cause        string   `json:"cause"`
	OurDelta     *float64 `json:"our_delta,omitempty"`
	LichessDelta *float64 `json:"lichess_delta,omitempty"`
}

// Compare compares ours with Lichess's analysis of the same game: lichess
// is the analysis built from Lichess's own evals (see LichessEvals) and
// stated what the input says (judgements, figures).
func Compare(ours, lichess *Analysis, stated *LichessAnalysis) *Comparison {
	c := &Comparison{Causes: map[string]int{}}
	n := min(len(ours.Plies), len(lichess.Plies))
	if stated != nil {
		n = min(n, len(stated.Plies))
	}
	var sum AgreementSum
	for i := 0; i < n; i++ {
		o, l := &ours.Plies[i], &lichess.Plies[i]
		lj := l.Judgement
		if stated != nil {
			lj = stated.Plies[i].Judgement
		}
		oj := o.Judgement
		sum.addPly(lj, oj)
		if o.Eval != nil && l.Eval != nil {
			d := PlyDiff{Ply: o.Ply, Ours: *o.Eval, Lichess: *l.Eval,
				DiffCP:     o.Eval.CappedCP() - l.Eval.CappedCP(),
				DiffWinPct: (*o.Eval).WinPercent() - (*l.Eval).WinPercent()}
			c.PlyDiffs = append(c.PlyDiffs, d)
			sum.addEvalDiff(math.Abs(float64(d.DiffCP)), math.Abs(d.DiffWinPct))
		}
		if oj != lj {
			dis := Disagree{Ply: o.Ply, SAN: o.SAN, Lichess: lj.Label(), Ours: oj.Label(),
				OurDelta: o.Delta, LichessDelta: l.Delta}
			dis.Cause = disagreementCause(o, l, lj, stated != nil && stated.Literate)
			c.Causes[dis.Cause]++
			c.Disagreements = append(c.Disagreements, dis)
		}
	}
	c.Agreement = sum.Agreement()
	c.White = playerDiff(ours.Players.White, lichess.Players.White, statedFor(stated, true))
	c.Black = playerDiff(ours.Players.Black, lichess.Players.Black, statedFor(stated, false))
	return c
}

func statedFor(s *LichessAnalysis, white bool) *StatedFigures {
	if s == nil {
		return nil
	}
	if white {
		return s.White
	}
	return s.Black
}

func playerDiff(ours, computed Player, stated *StatedFigures) PlayerDiff {
	var d PlayerDiff
	d.OurAccuracy = ours.AccuracyExact
	d.OurACPL = ours.ACPL
	d.LichessAccuracy = computed.AccuracyExact
	d.LichessACPL = computed.ACPL
	if stated != nil {
		if stated.Accuracy != nil {
			v := float64(*stated.Accuracy)
			d.LichessAccuracy = &v
		}
		if stated.ACPL != nil {
			d.LichessACPL = stated.ACPL
		}
	}
	if d.OurAccuracy != nil && d.LichessAccuracy != nil {
		v := *d.OurAccuracy - *d.LichessAccuracy
		d.AccuracyDiff = &v
	}
	if d.OurACPL != nil && d.LichessACPL != nil {
		v := *d.OurACPL - *d.LichessACPL
		d.ACPLDiff = &v
	}
	return d
}

// disagreementCause explains why our judgement differs from Lichess's.
func disagreementCause(o, l *Ply, lj Judgement, literate bool) string {
	// the gate explains a missing judgement only when the evals alone
	// would have judged the move
	if o.Judgement == NoJudgement && o.gate == GateClosed && wouldJudge(o) {
		return CauseGate
	}
	if lj == NoJudgement && literate && l.gate == GateClosed && wouldJudge(l) {
		return CauseGate
	}
	if mateMismatch(o.prev, l.prev) || mateMismatch(o.Eval, l.Eval) {
		return CauseMateVsCP
	}
	if o.Delta != nil && l.Delta != nil {
		// a threshold separating the two grades, close to both deltas
		lo, hi := min(o.Judgement, lj), max(o.Judgement, lj)
		for k := lo; k < hi; k++ {
			t := Thresholds[k]
			if math.Abs(*o.Delta-t) <= BorderlineMargin && math.Abs(*l.Delta-t) <= BorderlineMargin {
				return CauseBorderline
			}
		}
	}
	return CauseEvalScale
}

func wouldJudge(p *Ply) bool {
	return p.prev != nil && p.Eval != nil && Judge(*p.prev, *p.Eval, p.White()).Judgement != NoJudgement
}

func mateMismatch(a, b *score.Score) bool {
	return a != nil && b != nil && a.IsMate() != b.IsMate()
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
