package input

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/pgn"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
)

// Export is the part of a Lichess game export (JSON) that analysis reads,
// whichever way it came: decoded from a file or a stream (DecodeJSONGame),
// or filled by the app from the Lichess client's game, so that a game the
// client fetched is not encoded to JSON and decoded again. Variant is the
// variant's key ("standard", "chess960", "fromPosition"), Status the
// status's name.
type Export struct {
	ID         string `json:"id"`
	Variant    string `json:"-"`
	InitialFen string `json:"initialFen"`
	CreatedAt  int64  `json:"createdAt"` // ms since the epoch
	Status     string `json:"-"`
	Winner     string `json:"winner"`
	Moves      string `json:"moves"`
	Clocks     []int  `json:"clocks"`
	Players    struct {
		White ExportPlayer `json:"white"`
		Black ExportPlayer `json:"black"`
	} `json:"players"`
	Opening  *ExportOpening `json:"opening"`
	Analysis []ExportInfo   `json:"analysis"`
}

// jsonGame is Export as JSON holds it: the variant and the status as a
// string or as an object holding it.
type jsonGame struct {
	Export
	Variant json.RawMessage `json:"variant"`
	Status  json.RawMessage `json:"status"`
}

// ExportOpening is an export's opening: its ECO code, name and the ply
// where it was named.
type ExportOpening struct {
	ECO  string `json:"eco"`
	Name string `json:"name"`
	Ply  int    `json:"ply"`
}

// ExportPlayer is one side of an export: a user, a Lichess AI (AILevel) or
// a name, with Lichess's stated figures when it analysed the game.
type ExportPlayer struct {
	User     *ExportUser  `json:"user"`
	Name     string       `json:"name"`
	AILevel  int          `json:"aiLevel"`
	Rating   int          `json:"rating"`
	Analysis *ExportStats `json:"analysis"`
}

// ExportUser is a player's account.
type ExportUser struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// ExportStats are a side's figures as Lichess's analysis states them.
type ExportStats struct {
	Inaccuracy int  `json:"inaccuracy"`
	Mistake    int  `json:"mistake"`
	Blunder    int  `json:"blunder"`
	ACPL       *int `json:"acpl"`
	Accuracy   *int `json:"accuracy"`
}

// ExportInfo is Lichess's analysis of one ply: the eval after it (cp or
// mate, White's view), and for a judged move the best move (UCI), the
// engine's line (SAN) and the judgement.
type ExportInfo struct {
	Eval      *int            `json:"eval"`
	Mate      *int            `json:"mate"`
	Best      string          `json:"best"`
	Variation string          `json:"variation"`
	Judgment  *ExportJudgment `json:"judgment"`
}

// ExportJudgment names a judged move ("Inaccuracy", "Mistake", "Blunder")
// with Lichess's comment.
type ExportJudgment struct {
	Name    string `json:"name"`
	Comment string `json:"comment"`
}

// ReadJSON reads Lichess game exports in JSON: one object, an array of
// objects, or NDJSON (one object per line, as /api/games/user streams),
// one game at a time within MaxJSONGame and MaxJSONInput. A game that
// cannot be used comes back in errs; the others are returned. An input past
// a limit ends with a *pgn.LimitError as the last element of errs.
func ReadJSON(r io.Reader, source string) (games []*analysis.Game, errs []error) {
	if fatal := readJSONStream(context.Background(), bufio.NewReader(r), source, collect(&games, &errs)); fatal != nil {
		errs = append(errs, fmt.Errorf("%s: %w", source, fatal))
	}
	return games, errs
}

// DecodeJSONGame converts one Lichess JSON game export.
func DecodeJSONGame(raw []byte, source string, index int) (*analysis.Game, error) {
	var jg jsonGame
	if err := json.Unmarshal(raw, &jg); err != nil {
		return nil, exportError(&jg.Export, source, index, fmt.Errorf("JSON: %w", err))
	}
	jg.Export.Variant = jsonVariant(jg.Variant)
	jg.Export.Status = jsonStatus(jg.Status)
	return jg.Export.Game(context.Background(), source, index, nil)
}

// exportError names the game of e in err.
func exportError(e *Export, source string, index int, err error) error {
	desc := fmt.Sprintf("game %d", index)
	if e.ID != "" {
		desc += fmt.Sprintf(" (id %q)", e.ID)
	}
	return &GameError{Source: source, Index: index, Game: desc, Err: err}
}

// Game converts the export into an analysis game, Lichess's analysis
// attached when it has one; source and index name it in messages. boards,
// when they hold the position before each of the export's moves and the
// one after the last (an analysis's Boards of the same moves), are used
// instead of replaying the moves; the caller checks that the moves are the
// same (the SAN is still read on each board). Otherwise the moves are
// replayed, and the replay counted in ctx (analysis.CountReplay).
func (e *Export) Game(ctx context.Context, source string, index int, boards []*replay.Board) (*analysis.Game, error) {
	fail := func(err error) error { return exportError(e, source, index, err) }
	switch e.Variant {
	case "", "standard", "fromPosition", "fromposition", "chess960":
	default:
		return nil, fail(fmt.Errorf("%w %q (only standard chess and Chess960 are analysed)", ErrUnsupportedVariant, e.Variant))
	}
	sans := strings.Fields(e.Moves)
	if len(boards) != len(sans)+1 {
		b, err := replay.NewVariant(e.InitialFen, e.Variant == "chess960")
		if err != nil {
			return nil, fail(err)
		}
		boards = []*replay.Board{b}
		analysis.CountReplay(ctx)
	}
	board := boards[0]
	g := &analysis.Game{Index: index, Source: source, ID: e.ID, StartPly: board.Ply()}
	if e.InitialFen != "" && strings.TrimSpace(e.InitialFen) != replay.StandardFEN {
		g.StartFEN = e.InitialFen
	}
	g.White = jsonPlayerInfo(e.Players.White)
	g.Black = jsonPlayerInfo(e.Players.Black)
	g.Result = pgn.ResultOf(e.Winner, e.Status)
	g.Tags = jsonTags(e, g, e.Variant)
	if len(e.Analysis) > len(sans) {
		return nil, fail(fmt.Errorf("%d analysis entries for %d moves", len(e.Analysis), len(sans)))
	}
	var la *analysis.LichessAnalysis
	if len(e.Analysis) > 0 {
		la = &analysis.LichessAnalysis{Plies: make([]analysis.LichessPly, len(sans)), Literate: true}
	}
	for i, san := range sans {
		white := board.WhiteToMove()
		mv, err := board.ParseSAN(san)
		if err != nil {
			return nil, fail(fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), san, err))
		}
		m := analysis.Move{SAN: san, UCI: mv.UCI}
		if i < len(e.Clocks) && e.Clocks[i] >= 0 {
			m.Clock = formatClock(e.Clocks[i])
		}
		if e.Opening != nil && e.Opening.Ply == i+1 && e.Opening.Name != "" {
			m.Opening = strings.TrimSpace(e.Opening.ECO + " " + e.Opening.Name)
		}
		if la != nil && i < len(e.Analysis) {
			if err := applyJSONInfo(&la.Plies[i], e.Analysis[i], board); err != nil {
				return nil, fail(fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), san, err))
			}
		}
		g.Moves = append(g.Moves, m)
		if i+1 < len(boards) {
			board = boards[i+1]
		} else {
			board = board.Play(mv)
		}
	}
	if n := len(g.Moves); n > 0 {
		g.Moves[n-1].Status = statusText(e.Status, e.Winner, board.Checkmate())
	}
	if la != nil {
		la.White = jsonStated(e.Players.White)
		la.Black = jsonStated(e.Players.Black)
		g.Lichess = la
	}
	return g, nil
}

func applyJSONInfo(lp *analysis.LichessPly, in ExportInfo, board *replay.Board) error {
	switch {
	case in.Mate != nil && *in.Mate != 0:
		e := score.Mate(*in.Mate)
		lp.Eval = &e
	case in.Eval != nil:
		e := score.CP(*in.Eval)
		lp.Eval = &e
	}
	if in.Best != "" {
		m, err := board.ParseUCI(in.Best)
		if err != nil {
			return fmt.Errorf("best move: %w", err)
		}
		lp.BestUCI, lp.BestSAN = m.UCI, m.SAN
	}
	if in.Variation != "" {
		lp.Variation = strings.Fields(in.Variation)
		if lp.BestSAN == "" {
			lp.BestSAN = lp.Variation[0]
		} else {
			lp.BestSAN = lp.Variation[0] // Lichess's own spelling
		}
	}
	if in.Judgment != nil {
		j, err := analysis.ParseJudgement(in.Judgment.Name)
		if err != nil {
			return err
		}
		lp.Judgement = j
		lp.Comment = in.Judgment.Comment
		if jc := parseComment(in.Judgment.Comment).judgement; jc != nil {
			lp.Mate = jc.mate
			if lp.BestSAN == "" && jc.best != "" {
				lp.BestSAN = jc.best
			}
		}
	}
	return nil
}

func jsonVariant(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	key, ok := stringOrObject[variantObject](raw)
	if !ok {
		return "?"
	}
	return key
}

func jsonStatus(raw json.RawMessage) string {
	name, _ := stringOrObject[statusObject](raw)
	return name
}

// variantObject and statusObject are the object forms of a game's
// "variant" ({"key":…}) and "status" ({"name":…}).
type (
	variantObject struct {
		Key string `json:"key"`
	}
	statusObject struct {
		Name string `json:"name"`
	}
)

func (v variantObject) text() string { return v.Key }
func (s statusObject) text() string  { return s.Name }

// stringOrObject reads a field Lichess writes as a plain string or as an
// object O holding the string; ok is false when raw is neither.
func stringOrObject[O interface{ text() string }](raw json.RawMessage) (s string, ok bool) {
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var o O
	if json.Unmarshal(raw, &o) == nil {
		return o.text(), true
	}
	return "", false
}

func jsonPlayerInfo(p ExportPlayer) analysis.PlayerInfo {
	var pi analysis.PlayerInfo
	switch {
	case p.User != nil:
		pi.Name, pi.Title = p.User.Name, p.User.Title
	case p.AILevel > 0:
		pi.Name = fmt.Sprintf("Stockfish level %d", p.AILevel)
	default:
		pi.Name = p.Name
	}
	pi.Rating = p.Rating
	return pi
}

func jsonStated(p ExportPlayer) *analysis.StatedFigures {
	if p.Analysis == nil {
		return nil
	}
	a := p.Analysis
	return &analysis.StatedFigures{Accuracy: a.Accuracy, ACPL: a.ACPL, Inaccuracy: a.Inaccuracy, Mistake: a.Mistake, Blunder: a.Blunder}
}

func colourName(c string) string {
	if c == "white" {
		return "White"
	}
	return "Black"
}

func other(c string) string {
	if c == "white" {
		return "black"
	}
	return "white"
}

// statusText renders Lichess's status comment for the last move.
func statusText(status, winner string, mate bool) string {
	switch {
	case mate && winner != "":
		return colourName(winner) + " wins by checkmate."
	case status == "resign" && winner != "":
		return colourName(other(winner)) + " resigns."
	case status == "outoftime" && winner != "":
		return colourName(winner) + " wins on time."
	case status == "timeout" && winner != "":
		return colourName(other(winner)) + " left the game."
	case status == "stalemate":
		return "Draw by stalemate."
	case status == "draw" || status == "outoftime":
		return "The game is a draw."
	case winner != "":
		return colourName(winner) + " wins."
	}
	return ""
}

func formatClock(centis int) string {
	s := centis / 100
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

func jsonTags(jg *Export, g *analysis.Game, variant string) []analysis.Tag {
	tags := []analysis.Tag{
		{Name: "Event", Value: "Lichess game"},
		{Name: "Site", Value: "https://lichess.org/" + jg.ID},
		{Name: "White", Value: g.White.Name},
		{Name: "Black", Value: g.Black.Name},
		{Name: "Result", Value: g.Result},
		{Name: "GameId", Value: jg.ID},
	}
	if jg.CreatedAt > 0 {
		t := time.UnixMilli(jg.CreatedAt).UTC()
		tags = append(tags, analysis.Tag{Name: "UTCDate", Value: t.Format("2006.01.02")},
			analysis.Tag{Name: "UTCTime", Value: t.Format("15:04:05")})
	}
	switch {
	case variant == "chess960":
		tags = append(tags, analysis.Tag{Name: "Variant", Value: "Chess960"},
			analysis.Tag{Name: "FEN", Value: jg.InitialFen}, analysis.Tag{Name: "SetUp", Value: "1"})
	case g.StartFEN != "" || variant == "fromPosition":
		tags = append(tags, analysis.Tag{Name: "Variant", Value: "From Position"},
			analysis.Tag{Name: "FEN", Value: jg.InitialFen}, analysis.Tag{Name: "SetUp", Value: "1"})
	}
	return tags
}
