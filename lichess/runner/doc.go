// Package runner plays one Lichess game: it follows the game stream, asks an
// engine for a move whenever it is our turn (with limits taken from the real
// clock), answers draw offers, resigns lost positions, aborts games whose
// opponent never moves, claims victory when the opponent is gone, talks in
// the chat and answers chat commands.
//
// Its one promise above all: it never sends two different moves at the same
// ply. Each move is reserved in a Journal before the request goes out; after
// a lost answer, a reconnection or a restart the reserved move (and only it)
// is sent again, which Lichess either plays or refuses as "not your turn".
package runner
