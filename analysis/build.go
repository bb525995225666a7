package analysis

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/score"
)

// Gate says whether a ply may be judged (Lichess judges a move only when
// the engine's best move in the position before it was another move).
type Gate int

// Gate states.
const (
	GateUnknown Gate = iota // best move unknown: judged
	GateOpen                // the engine preferred another move: judged
	GateClosed              // the move played was the engine's best: not judged
)

// PlyEval is the engine's view of one ply, the input to Build.
type PlyEval struct {
	Eval *score.Score // eval after the move (White POV); nil unknown / checkmate
	// Prev is the eval before the move when known independently of the
	// previous ply's eval (e.g. from a Lichess comment's "(a → b)").
	Prev      *score.Score
	Gate      Gate
	BestUCI   string
	BestSAN   string
	Variation []string // SAN line from the position before the move
	// Borderline marks a judgement that stayed borderline after re-search.
	Borderline bool
	// Comment overrides the generated judgement comment when non-empty
	// (used only to carry text verbatim; normally empty).
	Comment string
}

// Build judges every ply of g from evals (one per move) and computes the
// per-player accuracy, ACPL and counts exactly as Lichess does. engine names
// where the evals came from.
// Long: the per-ply judgement and the per-player sums in one pass, as lila computes them.
func Build(g *Game, evals []PlyEval, engine string) (*Analysis, error) {
	if len(evals) != len(g.Moves) {
		return nil, fmt.Errorf("analysis: game %s: %d evals for %d moves", g.Key(), len(evals), len(g.Moves))
	}
	a := &Analysis{
		ID:     g.Key(),
		Index:  g.Index,
		Source: g.Source,
		Result: g.Result,
		FEN:    g.StartFEN,
		Engine: engine,
		Game:   g,
		Plies:  make([]Ply, len(g.Moves)),
	}
	a.Players.White = Player{Name: g.White.Name, Rating: g.White.Rating}
	a.Players.Black = Player{Name: g.Black.Name, Rating: g.Black.Rating}
	for i, m := range g.Moves {
		pe := evals[i]
		white := g.MoverWhite(i)
		p := Ply{
			Ply:        i + 1,
			MoveNumber: g.MoveNumber(i),
			Color:      colorName(white),
			SAN:        m.SAN,
			UCI:        m.UCI,
			Eval:       pe.Eval,
			Borderline: pe.Borderline,
			gate:       pe.Gate,
		}
		if pe.BestUCI != "" {
			p.BestUCI = strPtr(pe.BestUCI)
		}
		if pe.BestSAN != "" {
			p.BestSAN = strPtr(pe.BestSAN)
		}
		// the eval before the move
		var prev *score.Score
		switch {
		case i == 0:
			e := InitialEval
			prev = &e
		case evals[i-1].Eval != nil:
			prev = evals[i-1].Eval
		default:
			prev = pe.Prev
		}
		p.prev = prev
		if prev != nil && pe.Eval != nil {
			v := Judge(*prev, *pe.Eval, white)
			if v.HasDelta {
				d := v.Delta
				p.Delta = &d
			}
			if pe.Gate != GateClosed && v.Judgement != NoJudgement {
				p.verdict = v
				p.Judgement = v.Judgement
				p.NAG = v.Judgement.NAG()
				best := pe.BestSAN
				if best == "" && len(pe.Variation) > 0 {
					best = pe.Variation[0]
				}
				p.Comment = v.Comment(*prev, *pe.Eval, best, false)
				if pe.Comment != "" {
					p.Comment = pe.Comment
				}
				p.EvalChange = prev.Advice() + " → " + pe.Eval.Advice()
				switch v.Mate {
				case MateCreated:
					p.MateCase = "created"
				case MateLost:
					p.MateCase = "lost"
				}
				p.Variation = pe.Variation
			}
		}
		if p.Judgement == NoJudgement {
			p.Borderline = false
		}
		pl := &a.Players.White
		if !white {
			pl = &a.Players.Black
		}
		switch p.Judgement {
		case Inaccuracy:
			pl.Inaccuracy++
		case Mistake:
			pl.Mistake++
		case Blunder:
			pl.Blunder++
		}
		a.Plies[i] = p
	}
	a.computeFigures()
	return a, nil
}

// computeFigures fills move accuracies, game accuracy and ACPL.
func (a *Analysis) computeFigures() {
	g := a.Game
	ptrs := make([]*score.Score, len(a.Plies))
	last := -1
	for i := range a.Plies {
		ptrs[i] = a.Plies[i].Eval
		if a.Plies[i].Eval != nil {
			last = i
		}
	}
	// evals may be missing only after the last evaluated ply (the
	// checkmated final position, plies beyond the analysis cut)
	complete := true
	var list []score.Score
	for i := 0; i <= last; i++ {
		if ptrs[i] == nil {
			complete = false
			break
		}
		list = append(list, *ptrs[i])
	}
	if !complete {
		return // figures from a partial eval list would mislead
	}
	if acpl, ok := ACPL(ptrs, g.FirstWhite(), true); ok {
		a.Players.White.ACPL = &acpl
	}
	if acpl, ok := ACPL(ptrs, g.FirstWhite(), false); ok {
		a.Players.Black.ACPL = &acpl
	}
	if len(list) == 0 {
		return
	}
	res := GameAccuracy(list, g.FirstWhite())
	for i, v := range res.Moves {
		v := v
		a.Plies[i].Accuracy = &v
	}
	if res.HasWhite {
		r, x := RoundAccuracy(res.White), res.White
		a.Players.White.Accuracy, a.Players.White.AccuracyExact = &r, &x
	}
	if res.HasBlack {
		r, x := RoundAccuracy(res.Black), res.Black
		a.Players.Black.Accuracy, a.Players.Black.AccuracyExact = &r, &x
	}
}

func colorName(white bool) string {
	if white {
		return "white"
	}
	return "black"
}

func strPtr(s string) *string { return &s }
