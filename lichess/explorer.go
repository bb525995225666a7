package lichess

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ExplorerDB names one of the opening explorer's databases.
type ExplorerDB string

// The explorer's databases this client asks.
const (
	ExplorerMasters ExplorerDB = "masters" // over-the-board games of masters (standard only)
	ExplorerLichess ExplorerDB = "lichess" // rated Lichess games, filterable by speed and rating
)

// ExplorerRatings are the rating groups the lichess database filters by:
// each runs from its value to the next (0 is 0–999, 2500 is 2500 and up).
var ExplorerRatings = []int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// ExplorerQuery asks the opening explorer about one position.
type ExplorerQuery struct {
	// DB is the database; "" means ExplorerMasters.
	DB ExplorerDB
	// FEN is the root position (X-FEN); "" means the standard start.
	FEN string
	// Play are moves in UCI played from FEN before the lookup.
	Play []string
	// Variant is the lichess database's variant key ("" means standard);
	// the masters database only has standard games.
	Variant string
	// Speeds filter the lichess database (bullet, blitz, rapid, …).
	Speeds []string
	// Ratings filter the lichess database by rating group (ExplorerRatings).
	Ratings []int
	// Moves is how many moves to list; 0 means the server's default (12).
	Moves int
}

// Explorer is the opening explorer's answer for a position
// (OpeningExplorerMasters / OpeningExplorerLichess in the spec).
type Explorer struct {
	// White, Draws and Black count the games by result.
	White int `json:"white"`
	Draws int `json:"draws"`
	Black int `json:"black"`
	// Moves are the moves played from the position, most played first.
	Moves []ExplorerMove `json:"moves"`
	// Opening names the position's opening, when it has a name.
	Opening *ExplorerOpening `json:"opening,omitempty"`
}

// ExplorerMove is one move of an explorer answer with its games' results.
type ExplorerMove struct {
	// UCI and SAN are the move.
	UCI string `json:"uci"`
	SAN string `json:"san"`
	// AverageRating is the players' mean rating in those games.
	AverageRating int `json:"averageRating"`
	// White, Draws and Black count the games by result.
	White int `json:"white"`
	Draws int `json:"draws"`
	Black int `json:"black"`
}

// Games returns how many games the move was played in.
func (m ExplorerMove) Games() int { return m.White + m.Draws + m.Black }

// ExplorerOpening is an opening's ECO code and name.
type ExplorerOpening struct {
	ECO  string `json:"eco"`
	Name string `json:"name"`
}

// Explorer looks a position up in the opening explorer (GET /masters or
// /lichess on the explorer host).
func (s *Service) Explorer(ctx context.Context, q ExplorerQuery) (*Explorer, error) {
	db := q.DB
	if db == "" {
		db = ExplorerMasters
	}
	if db != ExplorerMasters && db != ExplorerLichess {
		return nil, fmt.Errorf("lichess: explorer: database %q: want masters or lichess", db)
	}
	v := url.Values{}
	if q.FEN != "" {
		v.Set("fen", q.FEN)
	}
	if len(q.Play) > 0 {
		v.Set("play", strings.Join(q.Play, ","))
	}
	if q.Moves > 0 {
		v.Set("moves", strconv.Itoa(q.Moves))
	}
	if db == ExplorerLichess {
		if q.Variant != "" {
			v.Set("variant", q.Variant)
		}
		if len(q.Speeds) > 0 {
			v.Set("speeds", strings.Join(q.Speeds, ","))
		}
		if len(q.Ratings) > 0 {
			rs := make([]string, len(q.Ratings))
			for i, r := range q.Ratings {
				rs[i] = strconv.Itoa(r)
			}
			v.Set("ratings", strings.Join(rs, ","))
		}
		v.Set("topGames", "0")
		v.Set("recentGames", "0")
	} else {
		if q.Variant != "" && q.Variant != "standard" {
			return nil, fmt.Errorf("lichess: explorer: the masters database has no %s games", q.Variant)
		}
		v.Set("topGames", "0")
	}
	var out Explorer
	if err := s.getJSON(ctx, "/"+string(db), v, &out); err != nil {
		return nil, fmt.Errorf("lichess: explorer %s: %w", db, err)
	}
	return &out, nil
}
