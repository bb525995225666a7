package ewr

import (
	"fmt"

	"github.com/outpostchess/outpost/analysis"
)

// Score is an engine evaluation from the point of view of the side to move:
// centipawns, or when Mate is non-zero a mate in |Mate| moves (positive: the
// side to move mates; negative: it is mated).
type Score struct {
	CP   int `json:"cp"`
	Mate int `json:"mate,omitempty"`
}

// String renders s as "+0.35" or "#-3".
func (s Score) String() string {
	if s.Mate != 0 {
		return fmt.Sprintf("#%d", s.Mate)
	}
	return fmt.Sprintf("%+.2f", float64(s.CP)/100)
}

// Winrate maps s to the side to move's winrate in [0, 1]: Lichess's Win%
// (analysis.WinPercent, cp capped at ±1000) divided by 100, and 1 or 0 for a
// mate. This is the package's only centipawn → winrate mapping.
func (s Score) Winrate() float64 {
	switch {
	case s.Mate > 0:
		return 1
	case s.Mate < 0:
		return 0
	}
	return analysis.WinPercent(analysis.CPEval(s.CP)) / 100
}

// winrateFor returns s as the analysing player's winrate: s is from the side
// to move's view, which is the analysing player when usToMove.
func (s Score) winrateFor(usToMove bool) float64 {
	w := s.Winrate()
	if usToMove {
		return w
	}
	return 1 - w
}
