package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Eval is an engine evaluation from White's point of view: centipawns, or a
// signed mate distance when Mate is non-zero (#3: White mates in 3, #-3:
// Black mates in 3). The zero value is 0.00.
type Eval struct {
	CP   int
	Mate int
}

// CPEval returns a centipawn eval.
func CPEval(cp int) Eval { return Eval{CP: cp} }

// MateEval returns a mate eval; n must be non-zero.
func MateEval(n int) Eval { return Eval{Mate: n} }

// InitialEval is the eval Lichess assumes before the first move (+15 cp).
var InitialEval = Eval{CP: 15}

// CPCeiling is the cap applied to centipawns for Win%, accuracy and ACPL;
// a mate counts as ±CPCeiling.
const CPCeiling = 1000

// IsMate reports whether e is a mate score.
func (e Eval) IsMate() bool { return e.Mate != 0 }

// Negate returns e from the other side's point of view.
func (e Eval) Negate() Eval { return Eval{CP: -e.CP, Mate: -e.Mate} }

// ForMover returns e from the mover's point of view (negated for Black).
func (e Eval) ForMover(white bool) Eval {
	if white {
		return e
	}
	return e.Negate()
}

// CappedCP returns the centipawns capped at ±1000, a mate counting as ±1000.
func (e Eval) CappedCP() int {
	if e.IsMate() {
		if e.Mate > 0 {
			return CPCeiling
		}
		return -CPCeiling
	}
	return clampInt(e.CP, -CPCeiling, CPCeiling)
}

// String renders e as in a PGN [%eval] comment: cp/100 as a short decimal
// ("0.17", "0.4", "0.0", "-1.5", "15.06") or "#N" for a mate.
func (e Eval) String() string {
	if e.IsMate() {
		return "#" + strconv.Itoa(e.Mate)
	}
	s := strconv.FormatFloat(float64(e.CP)/100, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// Advice renders e as in a judgement comment's "(a → b)" part: two decimals
// ("0.80", "-3.99") or "Mate in N" with N unsigned.
func (e Eval) Advice() string {
	if e.IsMate() {
		n := e.Mate
		if n < 0 {
			n = -n
		}
		return "Mate in " + strconv.Itoa(n)
	}
	return fmt.Sprintf("%.2f", float64(e.CP)/100)
}

// ParseEval parses a PGN eval value: "0.17", "-1.5", "+2", "#3", "#-3".
func ParseEval(s string) (Eval, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Eval{}, errors.New("empty eval")
	}
	if strings.HasPrefix(s, "#") {
		n, err := strconv.Atoi(strings.TrimPrefix(s[1:], "+"))
		if err != nil {
			return Eval{}, fmt.Errorf("eval %q: bad mate count", s)
		}
		if n == 0 {
			return Eval{}, fmt.Errorf("eval %q: mate in 0 has no eval", s)
		}
		return MateEval(n), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e6 {
		return Eval{}, fmt.Errorf("eval %q: not a number of pawns", s)
	}
	return CPEval(int(math.Round(f * 100))), nil
}

// MarshalJSON encodes e as {"cp":N} or {"mate":N}.
func (e Eval) MarshalJSON() ([]byte, error) {
	if e.IsMate() {
		return []byte(`{"mate":` + strconv.Itoa(e.Mate) + `}`), nil
	}
	return []byte(`{"cp":` + strconv.Itoa(e.CP) + `}`), nil
}

// UnmarshalJSON decodes {"cp":N} or {"mate":N}.
func (e *Eval) UnmarshalJSON(b []byte) error {
	var v struct {
		CP   *int `json:"cp"`
		Mate *int `json:"mate"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	switch {
	case v.Mate != nil && *v.Mate != 0:
		*e = MateEval(*v.Mate)
	case v.CP != nil:
		*e = CPEval(*v.CP)
	default:
		return errors.New("eval: want {\"cp\":N} or {\"mate\":N}")
	}
	return nil
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func clampFloat(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}
