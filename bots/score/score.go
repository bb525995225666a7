// Package score is the one evaluation type of Outpost: centipawns or a mate
// distance, with Lichess's conversions (capped centipawns, winning chances,
// Win%) as its methods and the one rule for UCI's "mate 0".
//
// A Score carries no point of view of its own: an engine's score is from the
// side to move's view (bots/engine, bots/uci, analysis/ewr), an analysis's
// eval from White's (analysis). Negate and ForMover turn one into the other.
// The package imports nothing of Outpost, so every layer may import it.
package score

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Score is an evaluation: centipawns, or a signed mate distance when Mate is
// non-zero (#3: the side whose view it is mates in 3; #-3: it is mated in 3).
// Mate 0 means "no mate", never "mated now" (see FromUCI). The zero value is
// 0.00.
type Score struct {
	CP   int // centipawns, when Mate is zero
	Mate int // moves to mate: >0 this side mates, <0 it gets mated; 0 = no mate
}

// CP returns a centipawn score.
func CP(cp int) Score { return Score{CP: cp} }

// Mate returns a mate score; n must be non-zero.
func Mate(n int) Score { return Score{Mate: n} }

// FromUCI converts a UCI "score cp N" (mate false) or "score mate N" (mate
// true) to a Score. It holds the one mate-0 rule of Outpost: "mate 0" says
// the side to move is checkmated already — a position Lichess gives no eval
// and in which there is no move to choose — so it has no Score and ok is
// false. Callers treat it as "no score" (and may say why).
func FromUCI(mate bool, n int) (s Score, ok bool) {
	switch {
	case !mate:
		return CP(n), true
	case n == 0:
		return Score{}, false
	}
	return Mate(n), true
}

// CPCeiling is the cap Lichess applies to centipawns for Win%, accuracy and
// ACPL; a mate counts as ±CPCeiling.
const CPCeiling = 1000

// IsMate reports whether s is a mate score.
func (s Score) IsMate() bool { return s.Mate != 0 }

// Negate returns s from the other side's point of view.
func (s Score) Negate() Score { return Score{CP: -s.CP, Mate: -s.Mate} }

// ForMover returns a White-POV s from the mover's point of view (negated for
// Black).
func (s Score) ForMover(white bool) Score {
	if white {
		return s
	}
	return s.Negate()
}

// Rank returns s as one integer that orders scores from the point of view
// s has: shorter own mates above longer ones above any centipawns, above
// longer mates against, above shorter ones. A mate in n ranks as
// mateValue-n (against: -mateValue-n, n being negative); mateValue must
// exceed every centipawn score and every mate distance.
func (s Score) Rank(mateValue int) int {
	switch {
	case s.Mate > 0:
		return mateValue - s.Mate
	case s.Mate < 0:
		return -mateValue - s.Mate
	}
	return s.CP
}

// CappedCP returns the centipawns capped at ±CPCeiling, a mate counting as
// ±CPCeiling.
func (s Score) CappedCP() int {
	if s.IsMate() {
		if s.Mate > 0 {
			return CPCeiling
		}
		return -CPCeiling
	}
	return min(max(s.CP, -CPCeiling), CPCeiling)
}

// winChanceMultiplier is the slope of Lichess's winning-chances sigmoid.
const winChanceMultiplier = -0.00368208

// WinningChances maps centipawns (NOT capped) to [-1, 1] the way Lichess does
// for judgements.
func WinningChances(cp int) float64 {
	wc := 2/(1+math.Exp(winChanceMultiplier*float64(cp))) - 1
	return math.Max(-1, math.Min(1, wc))
}

// WinPercent is Lichess's Win% of s from s's point of view: 0..100, cp capped
// at ±CPCeiling and a mate counting as ±CPCeiling.
func (s Score) WinPercent() float64 {
	return 50 + 50*WinningChances(s.CappedCP())
}

// Winrate maps s to a winrate in [0, 1] from s's point of view: WinPercent
// divided by 100 for centipawns, and exactly 1 or 0 for a mate (expected
// winrate's rule: a found mate is a win, not 97.6%).
func (s Score) Winrate() float64 {
	switch {
	case s.Mate > 0:
		return 1
	case s.Mate < 0:
		return 0
	}
	return s.WinPercent() / 100
}

// String renders s as in a PGN [%eval] comment: cp/100 as a short decimal
// ("0.17", "0.4", "0.0", "-1.5", "15.06") or "#N" for a mate.
func (s Score) String() string {
	if s.IsMate() {
		return "#" + strconv.Itoa(s.Mate)
	}
	f := strconv.FormatFloat(float64(s.CP)/100, 'f', -1, 64)
	if !strings.Contains(f, ".") {
		f += ".0"
	}
	return f
}

// Advice renders s as in a Lichess judgement comment's "(a → b)" part: two
// decimals ("0.80", "-3.99") or "Mate in N" with N unsigned.
func (s Score) Advice() string {
	if s.IsMate() {
		n := s.Mate
		if n < 0 {
			n = -n
		}
		return "Mate in " + strconv.Itoa(n)
	}
	return fmt.Sprintf("%.2f", float64(s.CP)/100)
}

// Parse parses a PGN eval value: "0.17", "-1.5", "+2", "#3", "#-3".
func Parse(v string) (Score, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return Score{}, errors.New("empty eval")
	}
	if strings.HasPrefix(v, "#") {
		n, err := strconv.Atoi(strings.TrimPrefix(v[1:], "+"))
		if err != nil {
			return Score{}, fmt.Errorf("eval %q: bad mate count", v)
		}
		if n == 0 {
			return Score{}, fmt.Errorf("eval %q: mate in 0 has no eval", v)
		}
		return Mate(n), nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e6 {
		return Score{}, fmt.Errorf("eval %q: not a number of pawns", v)
	}
	return CP(int(math.Round(f * 100))), nil
}

// MarshalJSON encodes s as {"cp":N} or {"mate":N} (Lichess's eval objects).
func (s Score) MarshalJSON() ([]byte, error) {
	if s.IsMate() {
		return []byte(`{"mate":` + strconv.Itoa(s.Mate) + `}`), nil
	}
	return []byte(`{"cp":` + strconv.Itoa(s.CP) + `}`), nil
}

// UnmarshalJSON decodes {"cp":N} or {"mate":N}; a non-zero "mate" wins over
// "cp" (older caches wrote both).
func (s *Score) UnmarshalJSON(b []byte) error {
	var v struct {
		CP   *int `json:"cp"`
		Mate *int `json:"mate"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	switch {
	case v.Mate != nil && *v.Mate != 0:
		*s = Mate(*v.Mate)
	case v.CP != nil:
		*s = CP(*v.CP)
	default:
		return errors.New("eval: want {\"cp\":N} or {\"mate\":N}")
	}
	return nil
}
