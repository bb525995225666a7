package syzygy

import "github.com/outpostchess/outpost/bots/board"

// Prober is what a search needs of tables it probes inside its tree (a
// *Tables): WDL probes up to MaxPieces pieces, and Close. The engine given
// one closes it when it is closed.
type Prober interface {
	MaxPieces() int
	ProbeWDL(b *board.Board) (WDL, error)
	Close() error
}

// InSearch reports whether a search probes b with tb: the last move was a
// capture or a pawn move (halfmove clock 0, where the WDL table is exact),
// no castling rights remain and at most tb.MaxPieces() pieces stand. The
// search still checks its own conditions (not the root, enough depth).
func InSearch(tb Prober, b *board.Board) bool {
	return b.HalfmoveClock() == 0 && b.CastlingRights() == 0 && board.Count(b.All()) <= tb.MaxPieces()
}
