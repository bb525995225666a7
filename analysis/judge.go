package analysis

import (
	"encoding/json"
	"fmt"

	"github.com/outpostchess/outpost/bots/score"
)

// Judgement is Lichess's grade of a move: none, Inaccuracy, Mistake, Blunder.
type Judgement int

// The judgements, in increasing severity.
const (
	NoJudgement Judgement = iota
	Inaccuracy
	Mistake
	Blunder
)

// Thresholds of the mover's loss of winning chances for each grade.
const (
	InaccuracyThreshold = 0.1
	MistakeThreshold    = 0.2
	BlunderThreshold    = 0.3
)

// Thresholds lists the three judgement thresholds in increasing order.
var Thresholds = [3]float64{InaccuracyThreshold, MistakeThreshold, BlunderThreshold}

// String returns "Inaccuracy", "Mistake", "Blunder" or "" for none.
func (j Judgement) String() string {
	switch j {
	case Inaccuracy:
		return "Inaccuracy"
	case Mistake:
		return "Mistake"
	case Blunder:
		return "Blunder"
	}
	return ""
}

// Label is String with "none" for no judgement (used in tables and matrices).
func (j Judgement) Label() string {
	if j == NoJudgement {
		return "none"
	}
	return j.String()
}

// NAG returns the glyph: "?!" ($6), "?" ($2), "??" ($4), or "".
func (j Judgement) NAG() string {
	switch j {
	case Inaccuracy:
		return "?!"
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}

// NAGNumber returns the numeric NAG ($6, $2, $4) or 0.
func (j Judgement) NAGNumber() int {
	switch j {
	case Inaccuracy:
		return 6
	case Mistake:
		return 2
	case Blunder:
		return 4
	}
	return 0
}

// ParseJudgement parses a judgement name (case-insensitive; "" and "none"
// are NoJudgement).
func ParseJudgement(s string) (Judgement, error) {
	switch s {
	case "", "none", "None", "null":
		return NoJudgement, nil
	case "Inaccuracy", "inaccuracy":
		return Inaccuracy, nil
	case "Mistake", "mistake":
		return Mistake, nil
	case "Blunder", "blunder":
		return Blunder, nil
	}
	return NoJudgement, fmt.Errorf("unknown judgement %q", s)
}

// JudgementFromNAG maps a NAG number (6, 2, 4) to its judgement.
func JudgementFromNAG(n int) Judgement {
	switch n {
	case 6:
		return Inaccuracy
	case 2:
		return Mistake
	case 4:
		return Blunder
	}
	return NoJudgement
}

// MarshalJSON encodes the name, or null for none.
func (j Judgement) MarshalJSON() ([]byte, error) {
	if j == NoJudgement {
		return []byte("null"), nil
	}
	return json.Marshal(j.String())
}

// UnmarshalJSON decodes a name or null.
func (j *Judgement) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("judgement: %w", err)
	}
	if s == nil {
		*j = NoJudgement
		return nil
	}
	v, err := ParseJudgement(*s)
	if err != nil {
		return err
	}
	*j = v
	return nil
}

// MateKind says whether a judgement comes from a mate case.
type MateKind int

// The mate cases that produce a judgement.
const (
	NoMateCase  MateKind = iota
	MateCreated          // "Checkmate is now unavoidable"
	MateLost             // "Lost forced checkmate sequence"
)

// Text is Lichess's wording for the mate case ("" for none).
func (k MateKind) Text() string {
	switch k {
	case MateCreated:
		return "Checkmate is now unavoidable"
	case MateLost:
		return "Lost forced checkmate sequence"
	}
	return ""
}

// Verdict is the outcome of judging one move.
type Verdict struct {
	Judgement Judgement
	Mate      MateKind
	// Delta is the mover's loss of winning chances (uncapped cp); only
	// meaningful when HasDelta (both evals are centipawns).
	Delta    float64
	HasDelta bool
}

// Judge grades a move from the evals before and after it (White POV) the way
// Lichess does, assuming the best-move gate is open (the engine preferred
// another move). moverWhite says who played the move.
func Judge(prev, cur score.Score, moverWhite bool) Verdict {
	if !prev.IsMate() && !cur.IsMate() {
		d := score.WinningChances(prev.CP) - score.WinningChances(cur.CP)
		if !moverWhite {
			d = -d
		}
		v := Verdict{Delta: d, HasDelta: true}
		switch {
		case d >= BlunderThreshold:
			v.Judgement = Blunder
		case d >= MistakeThreshold:
			v.Judgement = Mistake
		case d >= InaccuracyThreshold:
			v.Judgement = Inaccuracy
		}
		return v
	}
	p, n := prev.ForMover(moverWhite), cur.ForMover(moverWhite)
	prevCP, nextCP := 0, 0
	if !p.IsMate() {
		prevCP = p.CP
	}
	if !n.IsMate() {
		nextCP = n.CP
	}
	switch {
	case !p.IsMate() && n.Mate < 0:
		v := Verdict{Mate: MateCreated}
		switch {
		case prevCP < -999:
			v.Judgement = Inaccuracy
		case prevCP < -700:
			v.Judgement = Mistake
		default:
			v.Judgement = Blunder
		}
		return v
	case p.Mate > 0 && !n.IsMate():
		v := Verdict{Mate: MateLost}
		switch {
		case nextCP > 999:
			v.Judgement = Inaccuracy
		case nextCP > 700:
			v.Judgement = Mistake
		default:
			v.Judgement = Blunder
		}
		return v
	case p.Mate > 0 && n.Mate < 0:
		return Verdict{Mate: MateLost, Judgement: Blunder}
	}
	return Verdict{}
}

// Comment builds Lichess's judgement comment. withEval adds the
// "(prev → cur) " prefix of the literate PGN export; best (SAN) adds
// " BEST was best." when non-empty. It returns "" for no judgement.
func (v Verdict) Comment(prev, cur score.Score, best string, withEval bool) string {
	if v.Judgement == NoJudgement {
		return ""
	}
	s := ""
	if withEval {
		s = "(" + prev.Advice() + " → " + cur.Advice() + ") "
	}
	if v.Mate != NoMateCase {
		s += v.Mate.Text()
	} else {
		s += v.Judgement.String()
	}
	s += "."
	if best != "" {
		s += " " + best + " was best."
	}
	return s
}
