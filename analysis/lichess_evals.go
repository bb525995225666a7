package analysis

import (
	"errors"
	"fmt"
)

// ErrNoLichessAnalysis is returned when --lichess-evals is asked of a game
// whose input carries no Lichess analysis.
var ErrNoLichessAnalysis = errors.New("the input carries no Lichess analysis ([%eval] or judgement comments)")

// LichessEvals turns the Lichess analysis carried by g's input into Build's
// input: Lichess's evals (from [%eval], the JSON export, or the "(a → b)" of
// its judgement comments) and its best moves. In a literate input a ply
// without a best move had no advice, so its gate is closed.
func LichessEvals(g *Game) ([]PlyEval, error) {
	if g.Lichess == nil || len(g.Lichess.Plies) != len(g.Moves) {
		return nil, ErrNoLichessAnalysis
	}
	out := make([]PlyEval, len(g.Moves))
	for i, lp := range g.Lichess.Plies {
		pe := PlyEval{Eval: lp.Eval, Prev: lp.CommentPrev, BestUCI: lp.BestUCI, BestSAN: lp.BestSAN, Variation: lp.Variation}
		if pe.Eval == nil {
			pe.Eval = lp.CommentCur
		}
		if pe.BestSAN == "" && len(lp.Variation) > 0 {
			pe.BestSAN = lp.Variation[0]
		}
		switch {
		case pe.BestUCI != "" || pe.BestSAN != "":
			pe.Gate = GateOpen
		case g.Lichess.Literate:
			pe.Gate = GateClosed
		default:
			pe.Gate = GateUnknown
		}
		out[i] = pe
	}
	return out, nil
}

// BuildLichess builds the analysis of g from Lichess's own evals.
func BuildLichess(g *Game) (*Analysis, error) {
	evals, err := LichessEvals(g)
	if err != nil {
		return nil, err
	}
	return Build(g, evals, "lichess-evals")
}

// CompareWithLichess fills a.Comparison when the analysed game carries
// Lichess's analysis (no-op otherwise).
func (a *Analysis) CompareWithLichess() error {
	if a.Game == nil || !a.Game.Lichess.FromLichess() {
		return nil
	}
	l, err := BuildLichess(a.Game)
	if err != nil {
		return fmt.Errorf("analysis: game %s: Lichess analysis: %w", a.ID, err)
	}
	a.Comparison = Compare(a, l, a.Game.Lichess)
	a.Comparison.Against = ServerOf(a.Game.Tag("Site"))
	return nil
}
