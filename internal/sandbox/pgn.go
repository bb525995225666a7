package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis/pgn"
)

// exportOptions are the game export flags.
type exportOptions struct {
	clocks, evals, literate, accuracy, pgnInJSON bool
}

// result is the PGN result token of a game.
func (g *game) result() string {
	switch {
	case !g.over() || g.status == "aborted":
		return "*"
	case g.winner == white:
		return "1-0"
	case g.winner == black:
		return "0-1"
	}
	return "1/2-1/2"
}

// termination is the PGN Termination tag of a game.
func (g *game) termination() string {
	switch g.status {
	case "started":
		return "Unterminated"
	case "outoftime":
		return "Time forfeit"
	case "timeout", "noStart", "aborted":
		return "Abandoned"
	}
	return "Normal"
}

// pgn renders the game as Lichess exports it (mu held): tag pairs and
// comments through analysis/pgn, so no control character is written.
func (s *Server) pgn(g *game, opt exportOptions, base string) string {
	var b strings.Builder
	tag := func(k, v string) { b.WriteString(pgn.TagPair(k, v) + "\n") }
	rated := "Casual"
	if g.rated {
		rated = "Rated"
	}
	tag("Event", rated+" "+perfName(g.speed())+" game")
	tag("Site", base+"/"+g.id)
	tag("Date", g.createdAt.UTC().Format("2006.01.02"))
	tag("White", g.players[white].Name)
	tag("Black", g.players[black].Name)
	tag("Result", g.result())
	tag("GameId", g.id)
	tag("UTCDate", g.createdAt.UTC().Format("2006.01.02"))
	tag("UTCTime", g.createdAt.UTC().Format("15:04:05"))
	tag("WhiteElo", strconv.Itoa(g.players[white].Rating))
	tag("BlackElo", strconv.Itoa(g.players[black].Rating))
	if t := g.players[white].Title; t != "" {
		tag("WhiteTitle", t)
	}
	if t := g.players[black].Title; t != "" {
		tag("BlackTitle", t)
	}
	tag("Variant", variantOf(g.variant).Name)
	switch {
	case g.clock != nil:
		tag("TimeControl", fmt.Sprintf("%d+%d", int(g.clock.limit/time.Second), int(g.clock.increment/time.Second)))
	default:
		tag("TimeControl", "-")
	}
	if g.initialFEN != "" {
		tag("FEN", g.initialFEN)
		tag("SetUp", "1")
	}
	tag("Termination", g.termination())
	an := g.analysis
	if !opt.evals {
		an = nil
	}
	if an != nil {
		tag("Annotator", "lichess.org")
	}
	b.WriteString("\n")
	b.WriteString(s.movetext(g, an, opt))
	b.WriteString("\n")
	return b.String()
}

// movetext renders the moves with the requested comments (mu held).
func (s *Server) movetext(g *game, an *Analysis, opt exportOptions) string {
	var parts []string
	needNumber := true
	for i, san := range g.san {
		ply := g.startPly + i
		num := ply/2 + 1
		tok := san
		if ply%2 == 0 {
			tok = fmt.Sprintf("%d. %s", num, san)
		} else if needNumber {
			tok = fmt.Sprintf("%d... %s", num, san)
		}
		needNumber = false
		var ma *MoveAnalysis
		if an != nil && i < len(an.Moves) {
			ma = &an.Moves[i]
		}
		if opt.literate && ma != nil && ma.Judgment != nil {
			tok += glyph(ma.Judgment)
		}
		parts = append(parts, tok)
		if opt.literate && ma != nil && ma.Judgment != nil {
			prev := "0.15" // the eval Lichess assumes before the first move
			if i > 0 {
				prev = literateEval(an.Moves[i-1])
			}
			c := fmt.Sprintf("(%s → %s) %s", prev, literateEval(*ma), ma.Judgment.Comment)
			parts = append(parts, "{ "+pgn.CommentText(c)+" }")
			needNumber = true
		}
		var cmds []string
		if ma != nil {
			if e, ok := pgnEval(*ma); ok {
				cmds = append(cmds, "[%eval "+e+"]")
			}
		}
		if opt.clocks && i < len(g.clocksAfter) {
			cmds = append(cmds, "[%clk "+pgnClock(g.clocksAfter[i])+"]")
		}
		if len(cmds) > 0 {
			parts = append(parts, "{ "+strings.Join(cmds, " ")+" }")
			needNumber = true
		}
		if opt.literate && ma != nil && ma.Judgment != nil && ma.Variation != "" {
			parts = append(parts, "("+numberVariation(ply, ma.Variation)+")")
			needNumber = true
		}
	}
	parts = append(parts, g.result())
	return strings.Join(parts, " ")
}

// numberVariation adds move numbers to a SAN variation starting at ply.
func numberVariation(ply int, variation string) string {
	var out []string
	for i, san := range strings.Fields(variation) {
		p := ply + i
		switch {
		case p%2 == 0:
			out = append(out, fmt.Sprintf("%d. %s", p/2+1, san))
		case i == 0:
			out = append(out, fmt.Sprintf("%d... %s", p/2+1, san))
		default:
			out = append(out, san)
		}
	}
	return strings.Join(out, " ")
}

// pgnClock renders a clock as h:mm:ss.
func pgnClock(d time.Duration) string {
	secs := int(max(d, 0) / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
}
