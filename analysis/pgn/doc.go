// Package pgn reads PGN text (many games per file) into syntax trees: tags,
// mainline moves with their NAGs, comments and nested variations, and the
// result. It is purely syntactic (no chess rules) and forgiving about what
// real exports contain: move numbers with one or three dots, suffix
// annotations (!?, ??), $NAGs, {} and ; comments, % escape lines, a BOM,
// CRLF line ends. A syntax error names the game (its index, first line and
// tags) and the line, and the reader resynchronises at the next game, so one
// bad game never loses the others. A control character in a tag value is
// kept with a warning (Game.Warnings); the writers (TagPair, CommentText)
// replace control characters, so no PGN Outpost writes holds one.
package pgn
