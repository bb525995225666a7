package match

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/bots/engine"
)

// PGN renders the game (opening moves included) in PGN with SAN moves and
// the tags Event, White, Black, Result, Opening and Termination (plus SetUp
// and FEN for games that did not start from the initial position), the
// values written by pgn.TagPair (no control character).
func (g Game) PGN() (string, error) {
	var b strings.Builder
	tag := func(k, v string) { b.WriteString(pgn.TagPair(k, v) + "\n") }
	tag("Event", fmt.Sprintf("Outpost match, game %d", g.Index+1))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", string(g.Result))
	if g.Start.StartFEN != "" {
		tag("SetUp", "1")
		tag("FEN", g.Start.StartFEN)
	}
	if g.Opening != "" {
		tag("Opening", g.Opening)
	}
	tag("Termination", g.Reason)
	b.WriteString("\n")

	p, err := engine.Position{StartFEN: g.Start.StartFEN}.Board()
	if err != nil {
		return "", err
	}
	all := append(append([]string(nil), g.Start.Moves...), g.Moves...)
	text, err := p.Movetext(all)
	if err != nil {
		return "", fmt.Errorf("match: pgn: %w", err)
	}
	if text != "" {
		b.WriteString(text)
		b.WriteString(" ")
	}
	b.WriteString(string(g.Result))
	b.WriteString("\n")
	return b.String(), nil
}
