package input

import (
	"regexp"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
)

var (
	evalCmdRe = regexp.MustCompile(`\[%eval\s+([^\],\s]+)(?:,[^\]]*)?\]`)
	clkCmdRe  = regexp.MustCompile(`\[%clk\s+([^\]\s]+)\s*\]`)
	anyCmdRe  = regexp.MustCompile(`\[%[a-zA-Z]+[^\]]*\]`)
	// "(0.28 → -0.56) Inaccuracy. Ne4 was best." and older/JSON variants.
	judgementRe = regexp.MustCompile(`^(?:\(([^()]+?) → ([^()]+?)\) )?(Inaccuracy|Mistake|Blunder|Checkmate is now unavoidable|Lost forced checkmate sequence|Not the best checkmate sequence)\.(?: (\S+) was best\.| Best move was (\S+)\.)?$`)
	openingRe   = regexp.MustCompile(`^[A-E][0-9]{2} \S.*$`)
	statusRe    = regexp.MustCompile(`^(?:(?:White|Black) (?:wins|resigns|wins by checkmate|wins on time|wins by [a-z ]+|is victorious|leaves the game|left the game|time out|didn't move|ran out of time)[^{}]*|The game is a draw|Draw(?: by [a-z ]+)?|Stalemate|Game was aborted|Game aborted|Cheat detected|Insufficient material|Time out|Draw by stalemate|Draw by repetition)\.?$`)
)

// commentInfo is what one PGN comment says.
type commentInfo struct {
	eval      *score.Score
	evalErr   error
	clock     string
	judgement *judgementComment
	opening   string
	status    string
	text      string // anything else
}

type judgementComment struct {
	text       string // the whole comment
	name       string // "Inaccuracy"... or the mate text
	prev, cur  string // "(a → b)" parts, "" if absent
	best       string // SAN of "X was best." / "Best move was X."
	mate       analysis.MateKind
	judgedName analysis.Judgement // from the name ("" for mate texts)
}

func parseComment(c string) commentInfo {
	var ci commentInfo
	rest := c
	if m := evalCmdRe.FindStringSubmatch(rest); m != nil {
		e, err := score.Parse(m[1])
		if err != nil {
			ci.evalErr = err
		} else {
			ci.eval = &e
		}
		rest = strings.Replace(rest, m[0], "", 1)
	}
	if m := clkCmdRe.FindStringSubmatch(rest); m != nil {
		ci.clock = m[1]
		rest = strings.Replace(rest, m[0], "", 1)
	}
	rest = strings.TrimSpace(anyCmdRe.ReplaceAllString(rest, ""))
	if rest == "" {
		return ci
	}
	if m := judgementRe.FindStringSubmatch(rest); m != nil {
		j := &judgementComment{text: rest, prev: m[1], cur: m[2], name: m[3], best: m[4]}
		if j.best == "" {
			j.best = m[5]
		}
		switch j.name {
		case "Checkmate is now unavoidable":
			j.mate = analysis.MateCreated
		case "Lost forced checkmate sequence":
			j.mate = analysis.MateLost
		default:
			j.judgedName, _ = analysis.ParseJudgement(j.name)
		}
		ci.judgement = j
		return ci
	}
	switch {
	case openingRe.MatchString(rest) && !strings.Contains(rest, "\n"):
		ci.opening = rest
	case statusRe.MatchString(rest):
		ci.status = rest
	default:
		ci.text = rest
	}
	return ci
}

// parseAdviceEval parses one side of "(a → b)": "0.80", "-3.99" or
// "Mate in N". moverMates says whose mate an unsigned "Mate in N" is.
func parseAdviceEval(s string, whiteMates bool) (*score.Score, bool) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutPrefix(s, "Mate in "); ok {
		e, err := score.Parse("#" + n)
		if err != nil {
			return nil, false
		}
		if e.Mate < 0 {
			e.Mate = -e.Mate
		}
		if !whiteMates {
			e.Mate = -e.Mate
		}
		return &e, true
	}
	e, err := score.Parse(s)
	if err != nil || strings.HasPrefix(s, "#") {
		return nil, false
	}
	return &e, true
}
