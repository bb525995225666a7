// Package book reads Polyglot opening books (.bin) and plays from them.
//
// A Polyglot book is a file of 16-byte big-endian entries sorted by key:
// key (uint64, the Polyglot Zobrist hash of a position, see Key), move
// (uint16), weight (uint16) and learn (uint32). Book maps a file into
// memory and finds a position's entries by binary search on the key;
// Source turns one or more books into a movesource.Source that picks a move
// by weight (best, weighted random or uniform random), within a maximum
// depth and above a minimum weight.
//
// Chess960: positions are hashed like standard ones (the four castling
// rights of the format), which the format defines when every castling right
// belongs to the outermost rook on its side; castling moves are stored king
// takes rook, as Polyglot writes castling in standard chess too. A position
// where a right belongs to an inner rook has no key in the format (Key
// returns ErrUnhashable) and is out of book.
package book
