// Package chat turns a game's analysis into a few short chat lines (one per
// side, each of at most MaxLineLen characters), as the daemon posts after a
// game: each side's accuracy and counts, and its worst moment with its NAG.
package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/outpostchess/outpost/analysis"
)

// MaxLineLen is the longest line of a chat summary (Lichess's game chat
// takes 140 characters).
const MaxLineLen = 140

// Summary returns the chat lines for a: one per side. Each line is at most
// MaxLineLen characters; less important parts are dropped to fit.
func Summary(a *analysis.Analysis) []string {
	lines := []string{
		sideLine(a, true),
		sideLine(a, false),
	}
	return lines
}

func sideLine(a *analysis.Analysis, white bool) string {
	p, side := a.Players.White, "White"
	if !white {
		p, side = a.Players.Black, "Black"
	}
	name := p.Name
	if utf8.RuneCountInString(name) > 30 {
		name = string([]rune(name)[:30])
	}
	who := side
	if name != "" {
		who = side + " " + name
	}
	acc := ""
	if p.Accuracy != nil {
		acc = fmt.Sprintf(" %d%% accuracy", *p.Accuracy)
	}
	acpl := ""
	if p.ACPL != nil {
		acpl = fmt.Sprintf(", ACPL %d", *p.ACPL)
	}
	counts := plural(p.Inaccuracy, "inaccuracy", "inaccuracies") + ", " + plural(p.Mistake, "mistake", "mistakes") + ", " + plural(p.Blunder, "blunder", "blunders")
	short := fmt.Sprintf("%d?! %d? %d??", p.Inaccuracy, p.Mistake, p.Blunder)
	worst, worstShort := worstMoment(a, white)
	candidates := []string{
		who + ":" + acc + acpl + ", " + counts + worst,
		who + ":" + acc + acpl + ", " + short + worst,
		who + ":" + acc + ", " + short + worst,
		who + ":" + acc + ", " + short + worstShort,
		side + ":" + acc + ", " + short + worstShort,
	}
	for _, c := range candidates {
		c = strings.Replace(c, ":, ", ": ", 1)
		if utf8.RuneCountInString(c) <= MaxLineLen {
			return c
		}
	}
	return string([]rune(candidates[len(candidates)-1])[:MaxLineLen])
}

// worstMoment describes the side's worst judged move (analysis.Worst's
// rule, the one of the expected-winrate line).
func worstMoment(a *analysis.Analysis, white bool) (long, short string) {
	best := a.Worst(func(p *analysis.Ply) bool { return p.White() == white })
	if best == nil {
		return ". No mistakes.", ""
	}
	move := best.Label() + best.NAG
	long = ". Worst: " + move + " (" + best.EvalChange + ")"
	if best.MateCase != "" {
		long += " " + best.Verdict().Mate.Text()
	}
	if best.BestSAN != nil {
		long += ", " + *best.BestSAN + " was best"
	}
	return long + ".", ". Worst: " + move
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
