package svgboard

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// StartFEN is the standard initial position.
const StartFEN = board.StartFEN

// PositionFENs plays UCI moves from startFEN ("" for the standard start) and
// returns the FEN after each move (len(moves) entries). An illegal move is
// an error naming it and its index.
func PositionFENs(startFEN string, moves []string) ([]string, error) {
	if startFEN == "" {
		startFEN = StartFEN
	}
	b, err := board.FromFEN(startFEN)
	if err != nil {
		return nil, fmt.Errorf("board: start position: %w", err)
	}
	out := make([]string, 0, len(moves))
	for i, m := range moves {
		if err := b.MakeUCI(m); err != nil {
			return out, fmt.Errorf("board: move %d: %w", i+1, err)
		}
		out = append(out, b.FEN())
	}
	return out, nil
}

// Line is a variation played out: the UCI of each move and the FEN after it.
type Line struct {
	UCI  []string
	FENs []string
}

// PlaySAN plays SAN moves from fen and returns the line. It stops at the
// first move that does not parse or is illegal and reports it with the
// moves played so far.
func PlaySAN(fen string, sans []string) (Line, error) {
	var l Line
	if fen == "" {
		fen = StartFEN
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		return l, fmt.Errorf("board: line start %q: %w", fen, err)
	}
	for i, s := range sans {
		s = strings.TrimRight(s, "!?")
		m, err := b.ParseSAN(s)
		if err != nil {
			return l, fmt.Errorf("board: line move %d %q: %w", i+1, s, err)
		}
		b.Make(m)
		l.UCI = append(l.UCI, m.String())
		l.FENs = append(l.FENs, b.FEN())
	}
	return l, nil
}

// MoveSquares splits a UCI move into its from and to squares ("e7e8q" →
// "e7", "e8"); ok is false when it is not a UCI move.
func MoveSquares(uci string) (from, to string, ok bool) {
	if len(uci) < 4 {
		return "", "", false
	}
	from, to = uci[:2], uci[2:4]
	if _, err := squareIndex(from); err != nil {
		return "", "", false
	}
	if _, err := squareIndex(to); err != nil {
		return "", "", false
	}
	return from, to, true
}
