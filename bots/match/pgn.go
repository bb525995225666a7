package match

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
)

// PGN renders the game (opening moves included) in PGN with SAN moves and
// the tags Event, White, Black, Result, Opening and Termination (plus SetUp
// and FEN for games that did not start from the initial position).
func (g Game) PGN() (string, error) {
	var b strings.Builder
	tag := func(k, v string) {
		v = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", k, v)
	}
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

	p, err := bots.Replay(engine.Position{StartFEN: g.Start.StartFEN})
	if err != nil {
		return "", err
	}
	moveNo := fullMoveNumber(p)
	all := append(append([]string(nil), g.Start.Moves...), g.Moves...)
	for i, m := range all {
		var mv *chess.Move
		for _, v := range p.ValidMoves() {
			if v.String() == m {
				mv = v
			}
		}
		if mv == nil {
			return "", fmt.Errorf("match: pgn: move %d %q is illegal", i+1, m)
		}
		if p.Turn() == chess.White {
			fmt.Fprintf(&b, "%d. ", moveNo)
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", moveNo)
		}
		b.WriteString(chess.AlgebraicNotation{}.Encode(p, mv))
		b.WriteString(" ")
		if p.Turn() == chess.Black {
			moveNo++
		}
		p = p.Update(mv)
	}
	b.WriteString(string(g.Result))
	b.WriteString("\n")
	return b.String(), nil
}

// fullMoveNumber reads the move number from the position's FEN.
func fullMoveNumber(p *chess.Position) int {
	f := strings.Fields(p.String())
	n := 1
	if len(f) == 6 {
		fmt.Sscan(f[5], &n)
	}
	return max(n, 1)
}
