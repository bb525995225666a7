package sandbox

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Analysis is a Lichess-style computer analysis of a finished game, as game
// export returns it (GameJson.analysis, [%eval] PGN comments).
type Analysis struct {
	// Moves has one entry per ply, the evaluation after that ply.
	Moves []MoveAnalysis
	// White and Black are the per-player summaries.
	White, Black PlayerAnalysis
}

// MoveAnalysis is the analysis of one ply (GameMoveAnalysis). Exactly one of
// Eval and Mate should be set, except after the mating move.
type MoveAnalysis struct {
	// Eval is the evaluation in centipawns from White's point of view.
	Eval *int
	// Mate is the signed number of moves to mate (positive: White mates).
	Mate *int
	// Best is the best move in UCI, when the played move was inaccurate.
	Best string
	// Variation is the best line in SAN, when the played move was inaccurate.
	Variation string
	// Judgment is set for inaccuracies, mistakes and blunders.
	Judgment *Judgment
}

// Judgment is the verdict on an inaccurate move.
type Judgment struct {
	// Name is "Inaccuracy", "Mistake" or "Blunder".
	Name string
	// Comment is e.g. "Blunder. Nxg6 was best."
	Comment string
}

// PlayerAnalysis is one player's summary (GamePlayerUser.analysis).
type PlayerAnalysis struct {
	Inaccuracy, Mistake, Blunder, ACPL int
	// Accuracy is the accuracy percent, when known.
	Accuracy *int
}

// CloudEval is a cloud evaluation the sandbox serves for one position.
type CloudEval struct {
	Depth  int
	Knodes int
	PVs    []CloudPV
}

// CloudPV is one variation of a cloud evaluation.
type CloudPV struct {
	// CP is the evaluation in centipawns from White's point of view.
	CP *int
	// Mate is the signed number of moves to mate.
	Mate *int
	// Moves is the variation in UCI, space-separated.
	Moves string
}

// validate checks an analysis against the game's number of plies.
func (a *Analysis) validate(plies int) error {
	if len(a.Moves) != plies {
		return fmt.Errorf("analysis has %d plies, the game %d", len(a.Moves), plies)
	}
	for i, m := range a.Moves {
		if m.Judgment != nil {
			switch m.Judgment.Name {
			case "Inaccuracy", "Mistake", "Blunder":
			default:
				return fmt.Errorf("ply %d: judgment %q: want Inaccuracy, Mistake or Blunder", i+1, m.Judgment.Name)
			}
		}
	}
	return nil
}

// movesJSON renders the analysis array of the JSON export. Trailing plies
// without an eval (the checkmated final position) are left out, as lila
// does: a game ending in mate has one entry fewer than plies.
func (a *Analysis) movesJSON() []moveAnalysisJSON {
	n := len(a.Moves)
	for n > 0 && a.Moves[n-1].Eval == nil && a.Moves[n-1].Mate == nil && a.Moves[n-1].Judgment == nil {
		n--
	}
	out := make([]moveAnalysisJSON, n)
	for i, m := range a.Moves[:n] {
		out[i] = moveAnalysisJSON{Eval: m.Eval, Mate: m.Mate, Best: m.Best, Variation: m.Variation}
		if m.Judgment != nil {
			out[i].Judgment = &judgmentJSON{Name: m.Judgment.Name, Comment: m.Judgment.Comment}
		}
	}
	return out
}

// playerJSON renders a player summary; accuracy only when asked for.
func (p PlayerAnalysis) playerJSON(accuracy bool) *playerAnalysisJSON {
	j := &playerAnalysisJSON{Inaccuracy: p.Inaccuracy, Mistake: p.Mistake, Blunder: p.Blunder, ACPL: p.ACPL}
	if accuracy {
		j.Accuracy = p.Accuracy
	}
	return j
}

// pgnEval renders an evaluation as a [%eval] value: pawns with one or two
// decimals ("0.08", "0.1", "2.0"), or "#N" for a mate.
func pgnEval(m MoveAnalysis) (string, bool) {
	switch {
	case m.Mate != nil:
		return "#" + strconv.Itoa(*m.Mate), true
	case m.Eval != nil:
		s := strconv.FormatFloat(float64(*m.Eval)/100, 'f', 2, 64)
		s = strings.TrimSuffix(s, "0")
		return s, true
	}
	return "", false
}

// literateEval renders an evaluation in a judgment comment: "0.85" or
// "Mate in 3".
func literateEval(m MoveAnalysis) string {
	switch {
	case m.Mate != nil:
		return "Mate in " + strconv.Itoa(int(math.Abs(float64(*m.Mate))))
	case m.Eval != nil:
		return strconv.FormatFloat(float64(*m.Eval)/100, 'f', 2, 64)
	}
	return "?"
}

// glyph is the PGN annotation of a judgment.
func glyph(j *Judgment) string {
	switch j.Name {
	case "Inaccuracy":
		return "?!"
	case "Mistake":
		return "?"
	case "Blunder":
		return "??"
	}
	return ""
}
