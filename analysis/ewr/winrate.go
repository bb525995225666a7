package ewr

import "github.com/outpostchess/outpost/bots/score"

// winrateFor returns s as the analysing player's winrate (score.Score's
// Winrate, the package's only centipawn → winrate mapping): s is from the
// side to move's view, which is the analysing player when usToMove.
func winrateFor(s score.Score, usToMove bool) float64 {
	w := s.Winrate()
	if usToMove {
		return w
	}
	return 1 - w
}
