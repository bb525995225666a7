// Package records keeps Outpost's own record of every game it plays: a PGN
// with our engine's evaluation after each of our moves ([%eval 0.25],
// [%eval #3]), the clocks ([%clk]) and the source of moves that did not come
// from a search ({book}, {syzygy}, …), written once when the game ends, one
// file per game or one per day ([records] in the configuration).
//
// The PGN is rendered by the one PGN writer of the analysis code
// (analysis/report.RenderPGN); the tags and clocks come from Lichess's
// export of the game when it is available (so Chess960 and From Position
// games carry Lichess's own Variant, SetUp and FEN tags), otherwise from what
// the daemon knows.
package records

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess/runner"
)

// Game is what a record is made of.
type Game struct {
	ID string
	// ServerPGN is Lichess's export of the game (tags, clocks), "" when
	// it could not be fetched.
	ServerPGN string
	// InitialFEN is the start position, "" for the standard one.
	InitialFEN string
	// Variant is Lichess's variant key (standard, chess960, fromPosition).
	Variant string
	// Moves are the game's moves in UCI.
	Moves []string
	// White and Black name the players; Result is "1-0", "0-1",
	// "1/2-1/2" or "*"; Termination is Lichess's status name.
	White, Black, Result, Termination string
	// Ended is when the game ended (the day of a per-day file).
	Ended time.Time
	// Engine names the engine that played our side.
	Engine string
	// Notes are our moves' evaluations and sources by ply (0-based).
	Notes map[int]runner.MoveNote
}

// Render returns the game's record as PGN (ending with a newline).
func Render(g Game) (string, error) {
	text, _, err := render(g)
	return text, err
}

// render is Render that also returns the warnings of the Lichess export
// the record was made from (analysis.Game.WarningLines; none when it was
// made from the moves).
func render(g Game) (string, []string, error) {
	ag, err := fromServer(g)
	if err != nil {
		if ag, err = fromMoves(g); err != nil {
			return "", nil, fmt.Errorf("records: game %s: %w", g.ID, err)
		}
	}
	warnings := ag.WarningLines()
	if ag.Tag("GameId") == "" && g.ID != "" {
		ag.Tags = append(ag.Tags, analysis.Tag{Name: "GameId", Value: g.ID})
	}
	a := &analysis.Analysis{Game: ag, Plies: make([]analysis.Ply, len(ag.Moves))}
	for i := range ag.Moves {
		m := &ag.Moves[i]
		p := &a.Plies[i]
		p.Ply, p.SAN, p.UCI = ag.StartPly+i+1, m.SAN, m.UCI
		n, ok := g.Notes[i]
		if !ok || (n.UCI != "" && i < len(g.Moves) && n.UCI != g.Moves[i]) {
			continue // not our move, or another move than the one noted was played
		}
		if n.HasScore {
			p.Eval = evalAfter(n, ag.MoverWhite(i), strings.HasSuffix(m.SAN, "#"))
		}
		if n.Source != "" {
			m.Comments = append(m.Comments, n.Source)
		}
	}
	opt := report.PGNOptions{Evals: true, Clocks: true, Status: true, Annotator: annotator(g.Engine)}
	return report.RenderPGN(a, opt) + "\n", warnings, nil
}

func annotator(engine string) string {
	if engine == "" {
		return "Outpost"
	}
	return "Outpost (" + engine + ")"
}

// evalAfter turns our engine's score before our move (our point of view)
// into the eval after it from White's point of view, as [%eval] writes it:
// a mate in n for the mover is a mate in n−1 after its move (none once the
// move mates); a mate against the mover keeps its count.
func evalAfter(n runner.MoveNote, moverWhite, mates bool) *score.Score {
	sign := 1
	if !moverWhite {
		sign = -1
	}
	s := n.Score
	switch {
	case s.Mate > 0:
		if s.Mate == 1 || mates {
			return nil // checkmate on the board: Lichess writes no eval
		}
		e := score.Mate(sign * (s.Mate - 1))
		return &e
	case s.Mate < 0:
		e := score.Mate(sign * s.Mate)
		return &e
	}
	e := score.CP(sign * s.CP)
	return &e
}

// fromServer reads Lichess's export, checking that it is the game played.
func fromServer(g Game) (*analysis.Game, error) {
	if strings.TrimSpace(g.ServerPGN) == "" {
		return nil, fmt.Errorf("no export")
	}
	games, errs := input.ReadPGN(strings.NewReader(g.ServerPGN), "lichess export")
	if len(games) != 1 {
		return nil, fmt.Errorf("export: %d games, errors %v", len(games), errs)
	}
	ag := games[0]
	ucis := make([]string, len(ag.Moves))
	for i, m := range ag.Moves {
		ucis[i] = m.UCI
	}
	if len(g.Moves) > 0 && !sameMoves(ucis, g.Moves, g.InitialFEN, chess960(g.Variant)) {
		return nil, fmt.Errorf("export moves differ from the game's")
	}
	ag.Lichess = nil
	return ag, nil
}

// sameMoves compares two UCI move lists, castling written either way.
func sameMoves(a, b []string, fen string, c960 bool) bool {
	if len(a) != len(b) {
		return false
	}
	if slices.Equal(a, b) {
		return true
	}
	x, err := newBoard(fen, c960)
	if err != nil {
		return false
	}
	for i := range a {
		ma, err1 := x.ParseUCI(a[i])
		mb, err2 := x.ParseUCI(b[i])
		if err1 != nil || err2 != nil || ma != mb {
			return false
		}
		x.Make(ma)
	}
	return true
}

func chess960(variant string) bool { return analysis.IsChess960(variant) }

func newBoard(fen string, c960 bool) (*board.Board, error) {
	if fen == "" || fen == "startpos" {
		fen = board.StartFEN
	}
	return board.FromFENVariant(fen, c960)
}

// fromMoves builds the game from what the daemon knows, when Lichess's
// export is missing.
func fromMoves(g Game) (*analysis.Game, error) {
	c960 := chess960(g.Variant)
	b, err := newBoard(g.InitialFEN, c960)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	ag := &analysis.Game{ID: g.ID, Result: g.Result, StartFEN: g.InitialFEN}
	if ag.Result == "" {
		ag.Result = "*"
	}
	ag.StartPly = 2*(b.FullmoveNumber()-1) + int(b.SideToMove())
	tag := func(k, v string) { ag.Tags = append(ag.Tags, analysis.Tag{Name: k, Value: v}) }
	tag("Event", "Outpost game")
	tag("Site", "?")
	date := "????.??.??"
	if !g.Ended.IsZero() {
		date = g.Ended.UTC().Format("2006.01.02")
	}
	tag("Date", date)
	tag("White", orUnknown(g.White))
	tag("Black", orUnknown(g.Black))
	tag("Result", ag.Result)
	tag("GameId", g.ID)
	switch {
	case c960:
		tag("Variant", "Chess960")
	case g.InitialFEN != "":
		tag("Variant", "From Position")
	}
	if g.InitialFEN != "" {
		tag("FEN", g.InitialFEN)
		tag("SetUp", "1")
	}
	if g.Termination != "" {
		tag("Termination", g.Termination)
	}
	for i, u := range g.Moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, u, err)
		}
		ag.Moves = append(ag.Moves, analysis.Move{SAN: b.SAN(m), UCI: m.String()})
		b.Make(m)
	}
	return ag, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
