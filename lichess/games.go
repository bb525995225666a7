package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Game is a game as exported in JSON (GameJson in the spec).
type Game struct {
	ID          string          `json:"id"`
	Rated       bool            `json:"rated"`
	Variant     Variant         `json:"variant"`
	Speed       string          `json:"speed,omitempty"`
	Perf        Perf            `json:"perf"`
	CreatedAt   int64           `json:"createdAt,omitempty"`
	LastMoveAt  int64           `json:"lastMoveAt,omitempty"`
	Status      Status          `json:"status"`
	Source      string          `json:"source,omitempty"`
	Players     GamePlayers     `json:"players"`
	InitialFEN  string          `json:"initialFen,omitempty"`
	Winner      Color           `json:"winner,omitempty"`
	Opening     *Opening        `json:"opening,omitempty"`
	Moves       string          `json:"moves,omitempty"`
	PGN         string          `json:"pgn,omitempty"`
	DaysPerTurn int             `json:"daysPerTurn,omitempty"`
	Analysis    []MoveAnalysis  `json:"analysis,omitempty"`
	Clock       *GameClock      `json:"clock,omitempty"`
	Clocks      []int           `json:"clocks,omitempty"`
	Division    *Division       `json:"division,omitempty"`
	LastFEN     string          `json:"lastFen,omitempty"`
	Tournament  json.RawMessage `json:"arenaTour,omitempty"`
	Swiss       json.RawMessage `json:"swissTour,omitempty"`
}

// GamePlayers are the two sides of a Game.
type GamePlayers struct {
	White GamePlayerInfo `json:"white"`
	Black GamePlayerInfo `json:"black"`
}

// GamePlayerInfo is a side of an exported game. A Lichess AI has AILevel
// set and no User.
type GamePlayerInfo struct {
	User        *LightUser      `json:"user,omitempty"`
	Rating      int             `json:"rating,omitempty"`
	RatingDiff  int             `json:"ratingDiff,omitempty"`
	Name        string          `json:"name,omitempty"`
	Provisional bool            `json:"provisional,omitempty"`
	AILevel     int             `json:"aiLevel,omitempty"`
	Analysis    *PlayerAnalysis `json:"analysis,omitempty"`
	Team        string          `json:"team,omitempty"`
}

// LightUser is a user reference.
type LightUser struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
}

// PlayerAnalysis is one side's summary from Lichess's server analysis.
// Accuracy is present only when requested (and available).
type PlayerAnalysis struct {
	Inaccuracy int  `json:"inaccuracy"`
	Mistake    int  `json:"mistake"`
	Blunder    int  `json:"blunder"`
	ACPL       int  `json:"acpl"`
	Accuracy   *int `json:"accuracy,omitempty"`
}

// MoveAnalysis is the server analysis of one ply: Eval (centipawns, White's
// view) or Mate (moves to mate, negative when Black mates); Best, Variation
// and Judgment only when the move was inaccurate.
type MoveAnalysis struct {
	Eval      *int      `json:"eval,omitempty"`
	Mate      *int      `json:"mate,omitempty"`
	Best      string    `json:"best,omitempty"`
	Variation string    `json:"variation,omitempty"`
	Judgment  *Judgment `json:"judgment,omitempty"`
}

// Judgment names an inaccurate move: Inaccuracy, Mistake or Blunder.
type Judgment struct {
	Name    string `json:"name"`
	Comment string `json:"comment,omitempty"`
}

// Opening is a game's opening.
type Opening struct {
	ECO  string `json:"eco"`
	Name string `json:"name"`
	Ply  int    `json:"ply"`
}

// GameClock is an exported game's clock, in seconds.
type GameClock struct {
	Initial   int `json:"initial"`
	Increment int `json:"increment"`
	TotalTime int `json:"totalTime"`
}

// Division gives the plies where the middlegame and endgame begin (0 when
// absent).
type Division struct {
	Middle int `json:"middle,omitempty"`
	End    int `json:"end,omitempty"`
}

// ExportOptions chooses what a game export includes. Every field is sent
// explicitly, so the zero value asks for the bare moves and tags.
type ExportOptions struct {
	// Evals includes the server analysis ([%eval] comments in PGN, the
	// analysis array in JSON).
	Evals bool
	// Clocks includes clock times ([%clk] in PGN, clocks in centiseconds
	// in JSON).
	Clocks bool
	// Opening includes the opening name.
	Opening bool
	// Accuracy includes each side's accuracy percent (JSON only).
	Accuracy bool
	// Literate adds textual annotations (mistakes, best moves) in PGN.
	Literate bool
	// Division includes the middlegame/endgame plies (JSON only).
	Division bool
	// PGNInJSON adds the full PGN in a pgn field (JSON only).
	PGNInJSON bool
}

func (o ExportOptions) query() url.Values {
	b := strconv.FormatBool
	return url.Values{
		"moves": {"true"}, "tags": {"true"},
		"evals": {b(o.Evals)}, "clocks": {b(o.Clocks)}, "opening": {b(o.Opening)},
		"accuracy": {b(o.Accuracy)}, "literate": {b(o.Literate)}, "division": {b(o.Division)},
		"pgnInJson": {b(o.PGNInJSON)},
	}
}

// ExportGamePGN returns one game as PGN (GET /game/export/{id}).
func (c *Client) ExportGamePGN(ctx context.Context, id string, o ExportOptions) (string, error) {
	if err := checkID("game id", id); err != nil {
		return "", err
	}
	var raw []byte
	r := &request{method: "GET", path: "/game/export/" + url.PathEscape(id), query: o.query(), accept: "application/x-chess-pgn"}
	if err := c.call(ctx, r, &raw); err != nil {
		return "", fmt.Errorf("lichess: export %s: %w", id, err)
	}
	return string(raw), nil
}

// ExportGame returns one game as JSON (GET /game/export/{id}).
func (c *Client) ExportGame(ctx context.Context, id string, o ExportOptions) (*Game, error) {
	if err := checkID("game id", id); err != nil {
		return nil, err
	}
	var g Game
	r := &request{method: "GET", path: "/game/export/" + url.PathEscape(id), query: o.query(), accept: "application/json"}
	if err := c.call(ctx, r, &g); err != nil {
		return nil, fmt.Errorf("lichess: export %s: %w", id, err)
	}
	return &g, nil
}

// UserGamesParams filters and shapes a user's game export.
type UserGamesParams struct {
	ExportOptions
	// Since and Until bound the games' start time (zero: unbounded).
	Since, Until time.Time
	// Max is how many games at most (0: all).
	Max int
	// Analysed keeps only games with (true) or without (false) a server
	// analysis; nil keeps both.
	Analysed *bool
	// Rated keeps only rated (true) or casual (false) games; nil keeps both.
	Rated *bool
	// PerfTypes keeps games of these speeds or variants (e.g. blitz, rapid).
	PerfTypes []string
	// Vs keeps games against this opponent.
	Vs string
	// Color keeps games played as this side.
	Color Color
	// Ongoing includes ongoing games.
	Ongoing bool
}

func (p UserGamesParams) query() (url.Values, error) {
	q := p.ExportOptions.query()
	if !p.Since.IsZero() {
		q.Set("since", strconv.FormatInt(p.Since.UnixMilli(), 10))
	}
	if !p.Until.IsZero() {
		q.Set("until", strconv.FormatInt(p.Until.UnixMilli(), 10))
	}
	if p.Max < 0 {
		return nil, fmt.Errorf("max %d: want 0 (all) or more", p.Max)
	}
	if p.Max > 0 {
		q.Set("max", strconv.Itoa(p.Max))
	}
	if p.Analysed != nil {
		q.Set("analysed", strconv.FormatBool(*p.Analysed))
	}
	if p.Rated != nil {
		q.Set("rated", strconv.FormatBool(*p.Rated))
	}
	if len(p.PerfTypes) > 0 {
		q.Set("perfType", strings.Join(p.PerfTypes, ","))
	}
	if p.Vs != "" {
		q.Set("vs", p.Vs)
	}
	switch p.Color {
	case "":
	case White, Black:
		q.Set("color", string(p.Color))
	default:
		return nil, fmt.Errorf("color %q: want white or black", p.Color)
	}
	if p.Ongoing {
		q.Set("ongoing", "true")
	}
	return q, nil
}

// UserGames streams a user's games as JSON, most recent first (GET
// /api/games/user/{username}, ndjson). Iteration stops at the end, at the
// first error (yielded with a nil game), or when the loop breaks. A
// malformed line is skipped and logged.
func (c *Client) UserGames(ctx context.Context, username string, p UserGamesParams) iter.Seq2[*Game, error] {
	return func(yield func(*Game, error) bool) {
		if err := checkID("username", username); err != nil {
			yield(nil, err)
			return
		}
		q, err := p.query()
		if err != nil {
			yield(nil, fmt.Errorf("lichess: games of %s: %w", username, err))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		r := &request{method: "GET", path: "/api/games/user/" + url.PathEscape(username), query: q, accept: "application/x-ndjson"}
		stopped := false
		err = c.readNDJSON(ctx, r, func(line []byte) error {
			var g Game
			if err := json.Unmarshal(line, &g); err != nil || g.ID == "" {
				c.log.Warn().Str("path", r.path).Msg("skipping malformed game line")
				return nil
			}
			if !yield(&g, nil) {
				stopped = true
				return errStop
			}
			return nil
		})
		if err != nil && !stopped {
			yield(nil, fmt.Errorf("lichess: games of %s: %w", username, err))
		}
	}
}

// errStop ends readNDJSON early when the consumer stops iterating.
var errStop = fmt.Errorf("stop")

// CloudEval is a cached cloud evaluation of a position.
type CloudEval struct {
	FEN    string `json:"fen"`
	Depth  int    `json:"depth"`
	KNodes int    `json:"knodes"`
	PVs    []PV   `json:"pvs"`
}

// PV is one principal variation: Moves in UCI, and CP (centipawns, White's
// view) or Mate.
type PV struct {
	Moves string `json:"moves"`
	CP    *int   `json:"cp,omitempty"`
	Mate  *int   `json:"mate,omitempty"`
}

// CloudEval returns Lichess's cached evaluation of a position (GET
// /api/cloud-eval); multiPV 0 means 1, variant "" means standard. A position
// not in the cache gives an error matching ErrNotFound.
func (c *Client) CloudEval(ctx context.Context, fen string, multiPV int, variant string) (*CloudEval, error) {
	if strings.TrimSpace(fen) == "" {
		return nil, fmt.Errorf("lichess: cloud eval: empty FEN")
	}
	q := url.Values{"fen": {fen}}
	if multiPV > 0 {
		q.Set("multiPv", strconv.Itoa(multiPV))
	}
	if variant != "" {
		q.Set("variant", variant)
	}
	var ev CloudEval
	if err := c.call(ctx, &request{method: "GET", path: "/api/cloud-eval", query: q}, &ev); err != nil {
		return nil, fmt.Errorf("lichess: cloud eval: %w", err)
	}
	return &ev, nil
}
