package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/analysis/replay"
)

// ErrUnsupportedVariant marks a game skipped because of its variant.
var ErrUnsupportedVariant = errors.New("unsupported variant")

// GameError is a game that could not be read; the other games are kept.
type GameError struct {
	Source string
	Index  int    // 1-based game index in the source
	Game   string // description (index, line, tags)
	Line   int    // offending line, 0 if unknown
	Err    error
}

// Error describes the game, the line and what was wrong.
func (e *GameError) Error() string {
	s := fmt.Sprintf("%s: %s", e.Source, e.Game)
	if e.Line > 0 {
		s += fmt.Sprintf(": line %d", e.Line)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *GameError) Unwrap() error { return e.Err }

var siteIDRe = regexp.MustCompile(`^https?://(?:[a-z]+\.)?lichess\.(?:org|dev)/([A-Za-z0-9]{8})(?:[A-Za-z0-9]{4})?(?:/.*)?$`)

// ReadPGN reads every game of a PGN stream. Malformed games and games of
// unsupported variants come back in errs (each a *GameError naming the game
// and line); the others are returned in order.
func ReadPGN(r io.Reader, source string) (games []*analysis.Game, errs []error) {
	if fatal := readPGNStream(context.Background(), r, source, collect(&games, &errs)); fatal != nil {
		errs = append(errs, fmt.Errorf("%s: %w", source, fatal))
	}
	return games, errs
}

// FromPGN converts one parsed PGN game, replaying its moves.
// Long: tags, then each move with its eval, clock and judgement comments, in one replay.
func FromPGN(pg *pgn.Game, source string) (*analysis.Game, error) {
	fail := func(line int, err error) error {
		return &GameError{Source: source, Index: pg.Index, Game: pg.Describe(), Line: line, Err: err}
	}
	g := &analysis.Game{Index: pg.Index, Source: source, Initial: pg.Initial, Warnings: slices.Clone(pg.Warnings)}
	for _, t := range pg.Tags {
		g.Tags = append(g.Tags, analysis.Tag{Name: t.Name, Value: t.Value})
	}
	variant, _ := pg.Tag("Variant")
	chess960 := analysis.IsChess960(variant)
	switch strings.ToLower(strings.TrimSpace(variant)) {
	case "", "standard", "from position", "fromposition":
	default:
		if !chess960 {
			return nil, fail(pg.Line, fmt.Errorf("%w %q (only standard chess and Chess960 are analysed)", ErrUnsupportedVariant, variant))
		}
	}
	fen, _ := pg.Tag("FEN")
	board, err := replay.NewVariant(fen, chess960)
	if err != nil {
		return nil, fail(pg.Line, err)
	}
	if fen != "" {
		g.StartFEN = fen
	}
	g.StartPly = board.Ply()
	g.ID = gameID(pg)
	g.White = playerFromTags(pg, "White")
	g.Black = playerFromTags(pg, "Black")
	g.Result = pg.Result
	if tr, ok := pg.Tag("Result"); ok && (g.Result == "" || g.Result == "*") && tr != "" {
		g.Result = tr
	}
	if g.Result == "" {
		g.Result = "*"
	}
	la := &analysis.LichessAnalysis{Plies: make([]analysis.LichessPly, len(pg.Moves))}
	hasLichess := false
	for i, n := range pg.Moves {
		white := board.WhiteToMove()
		mv, err := board.ParseSAN(n.SAN)
		if err != nil {
			return nil, fail(n.Line, fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), n.SAN, err))
		}
		m := analysis.Move{SAN: n.SAN, UCI: mv.UCI}
		lp := &la.Plies[i]
		var jc *judgementComment
		for _, c := range n.Comments {
			ci := parseComment(c)
			if ci.evalErr != nil {
				return nil, fail(n.Line, fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), n.SAN, ci.evalErr))
			}
			if ci.eval != nil {
				lp.Eval = ci.eval
				hasLichess = true
			}
			if ci.clock != "" {
				m.Clock = ci.clock
			}
			switch {
			case ci.judgement != nil:
				jc = ci.judgement
			case ci.opening != "":
				m.Opening = ci.opening
			case ci.status != "":
				m.Status = ci.status
			case ci.text != "":
				m.Comments = append(m.Comments, ci.text)
			}
		}
		if jc != nil {
			hasLichess = true
			la.Literate = true
			if err := applyJudgement(lp, jc, n, white, board); err != nil {
				return nil, fail(n.Line, fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), n.SAN, err))
			}
		}
		g.Moves = append(g.Moves, m)
		board = board.Play(mv)
	}
	if hasLichess {
		g.Lichess = la
		la.Annotator, _ = pg.Tag("Annotator")
		la.White = statedFromTags(pg, "White")
		la.Black = statedFromTags(pg, "Black")
	}
	return g, nil
}

func applyJudgement(lp *analysis.LichessPly, jc *judgementComment, n *pgn.Node, white bool, board *replay.Board) error {
	lp.Comment = jc.text
	lp.Mate = jc.mate
	lp.Judgement = jc.judgedName
	if jc.mate != analysis.NoMateCase {
		for _, nag := range n.NAGs {
			if j := analysis.JudgementFromNAG(nag); j != analysis.NoJudgement {
				lp.Judgement = j
			}
		}
		if lp.Judgement == analysis.NoJudgement {
			return fmt.Errorf("mate judgement %q without a ?!, ? or ?? NAG", jc.name)
		}
	}
	if jc.prev != "" {
		// an unsigned "Mate in N": created → the mover gets mated; lost →
		// the mover had the mate before and (if still mate) gets mated now
		prevWhiteMates := white
		if jc.mate == analysis.MateCreated {
			prevWhiteMates = !white
		}
		p, ok := parseAdviceEval(jc.prev, prevWhiteMates)
		c, ok2 := parseAdviceEval(jc.cur, !white)
		if !ok || !ok2 {
			return fmt.Errorf("cannot read the evals of comment %q", jc.text)
		}
		lp.CommentPrev, lp.CommentCur = p, c
	}
	if len(n.Variations) > 0 {
		lp.Variation = nil
		for _, v := range n.Variations[0] {
			lp.Variation = append(lp.Variation, strings.TrimRight(v.SAN, "!?"))
		}
	}
	switch {
	case len(lp.Variation) > 0:
		lp.BestSAN = lp.Variation[0]
	case jc.best != "":
		lp.BestSAN = jc.best
	}
	if lp.BestSAN != "" {
		m, err := board.ParseSAN(lp.BestSAN)
		if err != nil {
			return fmt.Errorf("best move: %w", err)
		}
		lp.BestUCI = m.UCI
	}
	return nil
}

func dots(white bool) string {
	if white {
		return "."
	}
	return "..."
}

func gameID(pg *pgn.Game) string {
	if id, ok := pg.Tag("GameId"); ok && id != "" {
		return id
	}
	if site, ok := pg.Tag("Site"); ok {
		if m := siteIDRe.FindStringSubmatch(site); m != nil {
			return m[1]
		}
	}
	return ""
}

func playerFromTags(pg *pgn.Game, side string) analysis.PlayerInfo {
	var p analysis.PlayerInfo
	p.Name, _ = pg.Tag(side)
	if elo, ok := pg.Tag(side + "Elo"); ok {
		p.Rating, _ = strconv.Atoi(elo)
	}
	p.Title, _ = pg.Tag(side + "Title")
	return p
}

var summaryFieldRe = regexp.MustCompile(`['"]?([a-zA-Z]+)['"]?\s*:\s*(-?[0-9]+)`)

// statedFromTags reads per-player figures from tags: <Side>ACPL,
// <Side>Accuracy, or a <Side>AnalysisSummary dict
// ("{'inaccuracy':2,'mistake':1,'blunder':3,'acpl':90}").
func statedFromTags(pg *pgn.Game, side string) *analysis.StatedFigures {
	var s analysis.StatedFigures
	found := false
	set := func(key string, v int) {
		switch strings.ToLower(key) {
		case "acpl":
			s.ACPL, found = &v, true
		case "accuracy":
			s.Accuracy, found = &v, true
		case "inaccuracy":
			s.Inaccuracy, found = v, true
		case "mistake":
			s.Mistake, found = v, true
		case "blunder":
			s.Blunder, found = v, true
		}
	}
	if sum, ok := pg.Tag(side + "AnalysisSummary"); ok {
		for _, m := range summaryFieldRe.FindAllStringSubmatch(sum, -1) {
			v, err := strconv.Atoi(m[2])
			if err == nil {
				set(m[1], v)
			}
		}
	}
	for _, key := range []string{"ACPL", "Accuracy"} {
		if val, ok := pg.Tag(side + key); ok {
			if f, err := strconv.ParseFloat(val, 64); err == nil {
				set(key, int(f+0.5))
			}
		}
	}
	if !found {
		return nil
	}
	return &s
}
