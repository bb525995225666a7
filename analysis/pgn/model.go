package pgn

import (
	"fmt"
	"strings"
)

// Tag is one tag pair.
type Tag struct {
	Name, Value string
}

// Node is one move of a line.
type Node struct {
	SAN        string   // the move as written, suffix annotations removed
	NAGs       []int    // numeric annotation glyphs, suffixes mapped ($1..$6)
	Comments   []string // comments after the move, trimmed, in order
	Variations [][]*Node
	Line       int // 1-based source line of the move
}

// Game is one parsed game.
type Game struct {
	Index    int // 1-based index in the input
	Line     int // source line of the game's first token
	Tags     []Tag
	Initial  []string // comments before the first move
	Moves    []*Node  // mainline
	Result   string   // result token ("1-0", "0-1", "1/2-1/2", "*" or "")
	Warnings []string // recoverable oddities (a missing result token, a control character in a tag value)
}

// Tag returns the value of the named tag and whether it is present.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Describe names the game for error messages: index, line and the tags that
// identify it.
func (g *Game) Describe() string {
	return describe(g.Index, g.Line, g.Tags)
}

func describe(index, line int, tags []Tag) string {
	var parts []string
	for _, t := range tags {
		switch t.Name {
		case "Event", "Site", "White", "Black", "Date", "GameId":
			if t.Value != "" && t.Value != "?" {
				parts = append(parts, fmt.Sprintf("%s %q", t.Name, t.Value))
			}
		}
	}
	s := fmt.Sprintf("game %d (line %d", index, line)
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	}
	return s + ")"
}

// SyntaxError is a malformed game: which game, which line, what was wrong.
type SyntaxError struct {
	Index int    // 1-based game index
	Game  string // description of the game (index, first line, tags)
	Line  int    // 1-based line of the offending token
	Msg   string
}

// Error describes the game, the line and what was wrong.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pgn: %s: line %d: %s", e.Game, e.Line, e.Msg)
}
