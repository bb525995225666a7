package bots

import (
	"sort"

	"github.com/outpostchess/outpost/bots/board"
)

// LegalMoves returns the legal moves of b in UCI, sorted.
func LegalMoves(b *board.Board) []string {
	var ms []string
	for _, m := range b.LegalMoves() {
		ms = append(ms, m.String())
	}
	sort.Strings(ms)
	return ms
}
