package pgn

// ResultOf is the PGN result of a Lichess game from its winner ("white",
// "black" or "") and status name (Lichess's API names: "mate", "draw",
// "aborted", ...). It is the one result rule of the program, lila's
// (modules/game PgnDump.result): a game with a winner is "1-0" or "0-1";
// a finished game without one is a draw; a game not finished — "created",
// "started", "aborted" (Game.finished is status >= Mate in lila's
// chess.Status order, and Aborted comes before it) or no status at all —
// is "*". A status name this program does not know is taken as finished:
// lila adds only finishing statuses after Mate.
func ResultOf(winner, status string) string {
	switch winner {
	case "white":
		return "1-0"
	case "black":
		return "0-1"
	}
	switch status {
	case "", "created", "started", "aborted":
		return "*"
	}
	return "1/2-1/2"
}
