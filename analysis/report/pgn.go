package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/pgn"
)

// PGNOptions mirror the switches of Lichess's PGN export.
type PGNOptions struct {
	// Evals writes a [%eval] comment on every evaluated move
	// (Lichess's evals=true).
	Evals bool
	// Clocks writes [%clk] (merged into the eval comment as Lichess does).
	Clocks bool
	// EvalInComment prefixes judgement comments with "(a → b) " as the
	// literate export does; false gives the JSON export's wording.
	EvalInComment bool
	// Annotator is written when the game has no Annotator tag ("" = none).
	Annotator string
	// Status adds Lichess's status comment after the last move when the
	// input had none (derived from a mate, the Termination tag, the result).
	Status bool
	// EWR adds a comment with the expected winrate after each move that has
	// a computed moment (after the eval comment); nil writes none, keeping
	// Lichess's literate PGN unchanged.
	EWR EWRSet
}

// DefaultPGNOptions is the literate export with evals and clocks.
var DefaultPGNOptions = PGNOptions{Evals: true, Clocks: true, EvalInComment: true, Annotator: "outpost", Status: true}

// WritePGN writes the analyses as Lichess-style literate PGN, games
// separated by two blank lines.
func WritePGN(w io.Writer, analyses []*analysis.Analysis, opt PGNOptions) error {
	bw := bufio.NewWriter(w)
	for i, a := range analyses {
		if i > 0 {
			bw.WriteString("\n\n")
		}
		bw.WriteString(RenderPGN(a, opt))
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// RenderPGN renders one analysis as Lichess's literate PGN (no final
// newline).
// Long: the tags, then each move with its comments in Lichess's order, written in one pass.
func RenderPGN(a *analysis.Analysis, opt PGNOptions) string {
	g := a.Game
	var b strings.Builder
	result := g.Result
	hasAnnotator := false
	for _, t := range g.Tags {
		if t.Name == "Annotator" {
			hasAnnotator = true
		}
		if t.Name == "Result" && t.Value != "" {
			result = t.Value
		}
	}
	tags := g.Tags
	if !hasAnnotator && opt.Annotator != "" {
		tags = append(append([]analysis.Tag(nil), tags...), analysis.Tag{Name: "Annotator", Value: opt.Annotator})
	}
	for i, t := range tags {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(pgn.TagPair(t.Name, t.Value))
	}
	if len(tags) > 0 {
		b.WriteString("\n\n")
	}
	for i, c := range g.Initial {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("{ " + pgn.CommentText(c) + " }")
		if i == len(g.Initial)-1 {
			b.WriteByte('\n')
		}
	}
	status := ""
	if opt.Status && !hasStatus(g) {
		status = deriveStatus(g, result)
	}
	ewrAt := map[int]string{}
	for _, m := range opt.EWR[a] {
		if c := m.Comment(); c != "" {
			ewrAt[m.Ply] = c
		}
	}
	forceNumber := true
	for i := range a.Plies {
		p := &a.Plies[i]
		m := g.Moves[i]
		if i > 0 {
			b.WriteByte(' ')
		}
		ply := g.StartPly + i + 1
		writeNumber(&b, ply, forceNumber)
		b.WriteString(p.SAN)
		b.WriteString(p.NAG)
		var comments []string
		if c := p.LiterateComment(opt.EvalInComment); c != "" {
			comments = append(comments, c)
		}
		var cmds []string
		if opt.Evals && p.Eval != nil {
			cmds = append(cmds, "[%eval "+p.Eval.String()+"]")
		}
		if opt.Clocks && m.Clock != "" {
			cmds = append(cmds, "[%clk "+m.Clock+"]")
		}
		if len(cmds) > 0 {
			comments = append(comments, strings.Join(cmds, " "))
		}
		if c, ok := ewrAt[p.Ply]; ok {
			comments = append(comments, c)
		}
		comments = append(comments, m.Comments...)
		hasComment := len(comments) > 0
		if m.Opening != "" {
			comments = append(comments, m.Opening)
		}
		if m.Status != "" {
			comments = append(comments, m.Status)
		} else if status != "" && i == len(a.Plies)-1 {
			comments = append(comments, status)
		}
		for _, c := range comments {
			b.WriteString(" { " + pgn.CommentText(c) + " }")
		}
		hasVariation := p.Judgement != analysis.NoJudgement && len(p.Variation) > 0
		if hasVariation {
			b.WriteString(" (")
			writeLine(&b, ply, p.Variation)
			b.WriteString(")")
		}
		forceNumber = hasComment || hasVariation
	}
	if result != "" {
		if len(a.Plies) > 0 || len(g.Initial) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(result)
	}
	return b.String()
}

// writeNumber writes "N. " before a White move, "N... " before a Black
// move when forced (first move, or after a commented/varied White move).
func writeNumber(b *strings.Builder, ply int, force bool) {
	n := (ply + 1) / 2
	if ply%2 == 1 {
		b.WriteString(strconv.Itoa(n) + ". ")
	} else if force {
		b.WriteString(strconv.Itoa(n) + "... ")
	}
}

func writeLine(b *strings.Builder, ply int, sans []string) {
	for i, s := range sans {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeNumber(b, ply+i, i == 0)
		b.WriteString(s)
	}
}

func hasStatus(g *analysis.Game) bool {
	for _, m := range g.Moves {
		if m.Status != "" {
			return true
		}
	}
	return false
}

// deriveStatus writes Lichess's status comment for a game whose input had
// none: from a mating last move, the Termination tag and the result.
func deriveStatus(g *analysis.Game, result string) string {
	winner, loser := "", ""
	switch result {
	case "1-0":
		winner, loser = "White", "Black"
	case "0-1":
		winner, loser = "Black", "White"
	case "1/2-1/2":
		return "The game is a draw."
	default:
		return ""
	}
	if n := len(g.Moves); n > 0 && strings.HasSuffix(g.Moves[n-1].SAN, "#") {
		return winner + " wins by checkmate."
	}
	switch strings.ToLower(g.Tag("Termination")) {
	case "time forfeit":
		return winner + " wins on time."
	case "normal":
		return loser + " resigns."
	case "abandoned":
		return loser + " left the game."
	}
	return winner + " wins."
}
