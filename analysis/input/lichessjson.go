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

// jsonGame is the part of Lichess's game export JSON that analysis needs.
type jsonGame struct {
	ID         string          `json:"id"`
	Variant    json.RawMessage `json:"variant"`
	InitialFen string          `json:"initialFen"`
	CreatedAt  int64           `json:"createdAt"` // ms since the epoch
	Status     json.RawMessage `json:"status"`
	Winner     string          `json:"winner"`
	Moves      string          `json:"moves"`
	Clocks     []int           `json:"clocks"`
	Players    struct {
		White jsonPlayer `json:"white"`
		Black jsonPlayer `json:"black"`
	} `json:"players"`
	Opening *struct {
		ECO  string `json:"eco"`
		Name string `json:"name"`
		Ply  int    `json:"ply"`
	} `json:"opening"`
	Analysis []jsonInfo `json:"analysis"`
}

type jsonPlayer struct {
	User *struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	} `json:"user"`
	Name     string `json:"name"`
	AILevel  int    `json:"aiLevel"`
	Rating   int    `json:"rating"`
	Analysis *struct {
		Inaccuracy int  `json:"inaccuracy"`
		Mistake    int  `json:"mistake"`
		Blunder    int  `json:"blunder"`
		ACPL       *int `json:"acpl"`
		Accuracy   *int `json:"accuracy"`
	} `json:"analysis"`
}

type jsonInfo struct {
	Eval      *int   `json:"eval"`
	Mate      *int   `json:"mate"`
	Best      string `json:"best"`
	Variation string `json:"variation"`
	Judgment  *struct {
		Name    string `json:"name"`
		Comment string `json:"comment"`
	} `json:"judgment"`
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
	fail := func(err error) error {
		desc := fmt.Sprintf("game %d", index)
		if jg.ID != "" {
			desc += fmt.Sprintf(" (id %q)", jg.ID)
		}
		return &GameError{Source: source, Index: index, Game: desc, Err: err}
	}
	if err := json.Unmarshal(raw, &jg); err != nil {
		return nil, fail(fmt.Errorf("JSON: %w", err))
	}
	variant := jsonVariant(jg.Variant)
	switch variant {
	case "", "standard", "fromPosition", "fromposition", "chess960":
	default:
		return nil, fail(fmt.Errorf("%w %q (only standard chess and Chess960 are analysed)", ErrUnsupportedVariant, variant))
	}
	board, err := replay.NewVariant(jg.InitialFen, variant == "chess960")
	if err != nil {
		return nil, fail(err)
	}
	g := &analysis.Game{Index: index, Source: source, ID: jg.ID, StartPly: board.Ply()}
	if jg.InitialFen != "" && strings.TrimSpace(jg.InitialFen) != replay.StandardFEN {
		g.StartFEN = jg.InitialFen
	}
	g.White = jsonPlayerInfo(jg.Players.White)
	g.Black = jsonPlayerInfo(jg.Players.Black)
	status := jsonStatus(jg.Status)
	g.Result = pgn.ResultOf(jg.Winner, status)
	g.Tags = jsonTags(&jg, g, variant)
	sans := strings.Fields(jg.Moves)
	if len(jg.Analysis) > len(sans) {
		return nil, fail(fmt.Errorf("%d analysis entries for %d moves", len(jg.Analysis), len(sans)))
	}
	var la *analysis.LichessAnalysis
	if len(jg.Analysis) > 0 {
		la = &analysis.LichessAnalysis{Plies: make([]analysis.LichessPly, len(sans)), Literate: true}
	}
	for i, san := range sans {
		white := board.WhiteToMove()
		mv, err := board.ParseSAN(san)
		if err != nil {
			return nil, fail(fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), san, err))
		}
		m := analysis.Move{SAN: san, UCI: mv.UCI}
		if i < len(jg.Clocks) && jg.Clocks[i] >= 0 {
			m.Clock = formatClock(jg.Clocks[i])
		}
		if jg.Opening != nil && jg.Opening.Ply == i+1 && jg.Opening.Name != "" {
			m.Opening = strings.TrimSpace(jg.Opening.ECO + " " + jg.Opening.Name)
		}
		if la != nil && i < len(jg.Analysis) {
			if err := applyJSONInfo(&la.Plies[i], jg.Analysis[i], board); err != nil {
				return nil, fail(fmt.Errorf("move %d%s %s: %w", board.FullMove(), dots(white), san, err))
			}
		}
		g.Moves = append(g.Moves, m)
		board = board.Play(mv)
	}
	if n := len(g.Moves); n > 0 {
		g.Moves[n-1].Status = statusText(status, jg.Winner, board.Checkmate())
	}
	if la != nil {
		la.White = jsonStated(jg.Players.White)
		la.Black = jsonStated(jg.Players.Black)
		g.Lichess = la
	}
	return g, nil
}

func applyJSONInfo(lp *analysis.LichessPly, in jsonInfo, board *replay.Board) error {
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

func jsonPlayerInfo(p jsonPlayer) analysis.PlayerInfo {
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

func jsonStated(p jsonPlayer) *analysis.StatedFigures {
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

func jsonTags(jg *jsonGame, g *analysis.Game, variant string) []analysis.Tag {
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
