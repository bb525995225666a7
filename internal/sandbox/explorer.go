package sandbox

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// The sandbox's opening explorer (explorer.lichess.org's /masters and
// /lichess, served on the sandbox's own host) answers from a table of
// known positions: positions attached with AttachExplorer, and, for the
// lichess database, every position of the first learnPlies plies of each
// standard game the sandbox saw finish (not aborted), counted under the
// game's speed and the players' mean rating group.

// learnPlies is how deep into each finished game the sandbox's lichess
// database learns (Lichess's explorer indexes whole games; openings are
// what bots ask about).
const learnPlies = 24

// ExplorerMove is one move of a position in the sandbox's explorer table,
// with the results of the games it was played in.
type ExplorerMove struct {
	// UCI is the move (castling as the king's move).
	UCI string
	// White, Draws and Black count the games by result.
	White, Draws, Black int
	// Speed is the games' speed (bullet, blitz, …); "" matches every
	// speeds filter.
	Speed string
	// Rating is the players' mean rating (1500 when zero).
	Rating int
}

// explorerKey is one position of one database.
type explorerKey struct {
	db  string
	fen string // fenKey
}

// AttachExplorer adds moves to the position fen of the explorer database
// db ("masters" or "lichess"). Every move must be legal in fen.
func (s *Server) AttachExplorer(db, fen string, moves []ExplorerMove) error {
	if db != "masters" && db != "lichess" {
		return fmt.Errorf("sandbox: attach explorer: database %q: want masters or lichess", db)
	}
	p, err := newPosition(fen)
	if err != nil {
		return fmt.Errorf("sandbox: attach explorer: %w", err)
	}
	for _, m := range moves {
		if _, ok := p.find(m.UCI); !ok {
			return fmt.Errorf("sandbox: attach explorer: move %q is not legal in %s", m.UCI, fen)
		}
		if m.White < 0 || m.Draws < 0 || m.Black < 0 {
			return fmt.Errorf("sandbox: attach explorer: move %s: negative game count", m.UCI)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := explorerKey{db, fenKey(p.fen())}
	s.explorer[k] = append(s.explorer[k], moves...)
	return nil
}

// learnOpening adds a finished game's opening to the lichess database
// (mu held).
func (s *Server) learnOpening(g *game) {
	if g.status == "aborted" || g.variant == "chess960" || len(g.uci) == 0 {
		return
	}
	p, err := newPosition(g.initialFEN)
	if err != nil {
		return
	}
	rating := (g.players[0].Rating + g.players[1].Rating) / 2
	for i, uci := range g.uci {
		if i >= learnPlies {
			break
		}
		m, ok := p.find(uci)
		if !ok {
			return
		}
		mv := ExplorerMove{UCI: m.String(), Speed: g.speed(), Rating: rating}
		switch g.winner {
		case white:
			mv.White = 1
		case black:
			mv.Black = 1
		default:
			mv.Draws = 1
		}
		k := explorerKey{"lichess", fenKey(p.fen())}
		s.explorer[k] = append(s.explorer[k], mv)
		p.play(m)
	}
}

// explorerRatingGroups are Lichess's rating groups, lowest first.
var explorerRatingGroups = []int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// ratingGroup is the group a mean rating belongs to.
func ratingGroup(r int) int {
	if r == 0 {
		r = 1500
	}
	g := 0
	for _, v := range explorerRatingGroups {
		if r >= v {
			g = v
		}
	}
	return g
}

// explorerFilter is a lookup's speeds and ratings filters (empty: all).
type explorerFilter struct {
	speeds  map[string]bool
	ratings map[int]bool
}

// match reports whether the filter keeps m.
func (f explorerFilter) match(m ExplorerMove) bool {
	if len(f.speeds) > 0 && m.Speed != "" && !f.speeds[m.Speed] {
		return false
	}
	return len(f.ratings) == 0 || f.ratings[ratingGroup(m.Rating)]
}

// parseExplorerFilter reads speeds= and ratings=.
func parseExplorerFilter(r *http.Request) (explorerFilter, error) {
	f := explorerFilter{speeds: map[string]bool{}, ratings: map[int]bool{}}
	for _, sp := range splitList(r.URL.Query().Get("speeds")) {
		switch sp {
		case "ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence":
			f.speeds[sp] = true
		default:
			return f, wireError("Invalid speed: " + sp)
		}
	}
	for _, rs := range splitList(r.URL.Query().Get("ratings")) {
		v, err := strconv.Atoi(rs)
		if err != nil || ratingGroup(v) != v || v < 0 {
			return f, wireError("Invalid rating group: " + rs)
		}
		f.ratings[v] = true
	}
	return f, nil
}

// wireError is an error whose text is Lichess's own answer, written to
// the client as is (hence its capital letter).
type wireError string

func (e wireError) Error() string { return string(e) }

// splitList splits a comma-separated parameter, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// explorerPosition is the position a lookup asks about: fen, then play.
func explorerPosition(r *http.Request) (*position, error) {
	fen := strings.ReplaceAll(r.URL.Query().Get("fen"), "_", " ")
	p, err := newPosition(fen)
	if err != nil {
		return nil, wireError("Invalid fen: " + fen)
	}
	for _, uci := range splitList(r.URL.Query().Get("play")) {
		m, ok := p.find(uci)
		if !ok {
			return nil, wireError("Illegal move: " + uci)
		}
		p.play(m)
	}
	return p, nil
}

// handleExplorerMasters serves GET /masters.
func (s *Server) handleExplorerMasters(w http.ResponseWriter, r *http.Request, _ *account) {
	s.serveExplorer(w, r, "masters")
}

// handleExplorerLichess serves GET /lichess.
func (s *Server) handleExplorerLichess(w http.ResponseWriter, r *http.Request, _ *account) {
	if v := r.URL.Query().Get("variant"); v != "" && v != "standard" {
		writeJSON(w, http.StatusOK, explorerAnswer(nil, 0))
		return // the sandbox knows no variant games
	}
	s.serveExplorer(w, r, "lichess")
}

// serveExplorer answers a lookup in db.
func (s *Server) serveExplorer(w http.ResponseWriter, r *http.Request, db string) {
	p, err := explorerPosition(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	f := explorerFilter{}
	if db == "lichess" {
		if f, err = parseExplorerFilter(r); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	limit := atoiDefault(r.URL.Query().Get("moves"), 12)
	s.mu.Lock()
	rows := append([]ExplorerMove(nil), s.explorer[explorerKey{db, fenKey(p.fen())}]...)
	s.mu.Unlock()
	byMove := map[string]*explorerRow{}
	var order []*explorerRow
	for _, m := range rows {
		if !f.match(m) {
			continue
		}
		row := byMove[m.UCI]
		if row == nil {
			mv, _ := p.find(m.UCI)
			row = &explorerRow{uci: m.UCI, san: p.b.SAN(mv)}
			byMove[m.UCI] = row
			order = append(order, row)
		}
		row.add(m)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].games() > order[j].games() })
	writeJSON(w, http.StatusOK, explorerAnswer(order, limit))
}

// explorerRow sums one move's games.
type explorerRow struct {
	uci, san            string
	white, draws, black int
	ratingSum           int
}

func (r *explorerRow) games() int { return r.white + r.draws + r.black }

func (r *explorerRow) add(m ExplorerMove) {
	n := m.White + m.Draws + m.Black
	r.white += m.White
	r.draws += m.Draws
	r.black += m.Black
	rating := m.Rating
	if rating == 0 {
		rating = 1500
	}
	r.ratingSum += rating * n
}

// explorerAnswer renders rows as Lichess's explorer JSON (at most limit
// moves).
func explorerAnswer(rows []*explorerRow, limit int) map[string]any {
	moves := []map[string]any{}
	var tw, td, tb int
	for i, r := range rows {
		tw, td, tb = tw+r.white, td+r.draws, tb+r.black
		if i >= limit {
			continue
		}
		avg := 0
		if n := r.games(); n > 0 {
			avg = r.ratingSum / n
		}
		moves = append(moves, map[string]any{"uci": r.uci, "san": r.san, "averageRating": avg,
			"white": r.white, "draws": r.draws, "black": r.black, "game": nil, "opening": nil})
	}
	return map[string]any{"white": tw, "draws": td, "black": tb, "moves": moves, "topGames": []any{}, "opening": nil}
}
