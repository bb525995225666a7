package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// exportOptionsFrom reads the export flags of a request with the given
// defaults for clocks and evals.
func exportOptionsFrom(r *http.Request, clocks, evals bool) exportOptions {
	return exportOptions{
		clocks:    boolParam(r, "clocks", clocks),
		evals:     boolParam(r, "evals", evals),
		literate:  boolParam(r, "literate", false),
		accuracy:  boolParam(r, "accuracy", false),
		pgnInJSON: boolParam(r, "pgnInJson", false),
	}
}

// wantsJSON reports whether the Accept header asks for JSON / ndjson.
func wantsJSON(r *http.Request) bool {
	a := r.Header.Get("Accept")
	return strings.Contains(a, "application/json") || strings.Contains(a, "application/x-ndjson")
}

// exportJSON renders a game as GameJson (mu held).
func (s *Server) exportJSON(g *game, opt exportOptions, base string) gameJSON {
	j := gameJSON{
		ID: g.id, Rated: g.rated, Variant: g.variant, Speed: g.speed(), Perf: g.speed(),
		CreatedAt: g.createdAt.UnixMilli(), LastMoveAt: g.lastMoveAt.UnixMilli(), Status: g.status,
		Source: g.source, InitialFen: g.initialFEN, Winner: winnerName(g.winner),
		Moves: strings.Join(g.san, " "),
		Players: map[string]gamePlayerUserJSON{
			"white": {User: lightUser(g.players[white]), Rating: g.players[white].Rating},
			"black": {User: lightUser(g.players[black]), Rating: g.players[black].Rating},
		},
	}
	if g.days > 0 {
		d := g.days
		j.DaysPerTurn = &d
	}
	if a := s.arenas[g.tournamentID]; a != nil {
		j.ArenaTour = &arenaTourJSON{ID: a.ID, Name: a.Name}
	}
	if g.clock != nil {
		lim, inc := int(g.clock.limit/time.Second), int(g.clock.increment/time.Second)
		j.Clock = &exportClockJSON{Initial: lim, Increment: inc, TotalTime: lim + 40*inc}
		if opt.clocks {
			for _, c := range g.clocksAfter {
				j.Clocks = append(j.Clocks, int64(max(c, 0)/(10*time.Millisecond)))
			}
		}
	}
	if g.analysis != nil && opt.evals {
		j.Analysis = g.analysis.movesJSON()
		w, b := j.Players["white"], j.Players["black"]
		w.Analysis = g.analysis.White.playerJSON(opt.accuracy)
		b.Analysis = g.analysis.Black.playerJSON(opt.accuracy)
		j.Players["white"], j.Players["black"] = w, b
	}
	if opt.pgnInJSON {
		j.PGN = s.pgn(g, opt, base)
	}
	return j
}

// lightUser is a LightUser.
func lightUser(a *account) lightUserJSON {
	return lightUserJSON{ID: a.id, Name: a.Name, Title: a.Title}
}

// handleGameExport serves GET /game/export/{gameId}: PGN by default, JSON
// with "Accept: application/json".
func (s *Server) handleGameExport(w http.ResponseWriter, r *http.Request, _ *account) {
	base := requestBaseURL(r)
	s.mu.Lock()
	g := s.games[r.PathValue("gameId")]
	if g == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "Not found.")
		return
	}
	s.tick(g, s.now())
	opt := exportOptionsFrom(r, true, true)
	if wantsJSON(r) {
		j := s.exportJSON(g, opt, base)
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, j)
		return
	}
	pgn := s.pgn(g, opt, base)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-chess-pgn")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_, _ = w.Write([]byte(pgn))
}

// handleUserGames serves GET /api/games/user/{username}: the user's games,
// newest first, as ndjson (Accept: application/x-ndjson) or PGN.
func (s *Server) handleUserGames(w http.ResponseWriter, r *http.Request, _ *account) {
	q := r.URL.Query()
	base := requestBaseURL(r)
	opt := exportOptionsFrom(r, false, false)
	since, until := int64(atoiDefault(q.Get("since"), 0)), int64(atoiDefault(q.Get("until"), 0))
	maxN := atoiDefault(q.Get("max"), 0)
	perfs := map[string]bool{}
	for _, p := range strings.Split(q.Get("perfType"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			perfs[p] = true
		}
	}
	analysedSet := q.Get("analysed") != ""
	analysed := boolParam(r, "analysed", false)
	ongoing, finished := boolParam(r, "ongoing", false), boolParam(r, "finished", true)
	asc := q.Get("sort") == "dateAsc"
	s.mu.Lock()
	user := s.accounts[strings.ToLower(r.PathValue("username"))]
	if user == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "Not found.")
		return
	}
	var games []*game
	for _, id := range s.order {
		g := s.games[id]
		s.tick(g, s.now())
		ms := g.createdAt.UnixMilli()
		switch {
		case g.colorOf(user) < 0,
			since > 0 && ms < since,
			until > 0 && ms > until,
			len(perfs) > 0 && !perfs[g.speed()],
			analysedSet && (g.analysis != nil) != analysed,
			g.over() && !finished,
			!g.over() && !ongoing:
			continue
		}
		games = append(games, g)
	}
	sort.SliceStable(games, func(i, j int) bool {
		if asc {
			return games[i].createdAt.Before(games[j].createdAt)
		}
		return games[i].createdAt.After(games[j].createdAt)
	})
	if maxN > 0 && len(games) > maxN {
		games = games[:maxN]
	}
	sub, pgns := s.exportGames(r, games, opt, base)
	s.mu.Unlock()
	s.serveExport(w, r, sub, pgns)
}

// AttachCloudEval makes GET /api/cloud-eval answer ev for the position fen
// of standard chess (and of from-position games, which share its cache).
func (s *Server) AttachCloudEval(fen string, ev CloudEval) error {
	if len(strings.Fields(fen)) < 4 {
		return fmt.Errorf("sandbox: attach cloud eval: FEN %q: want at least 4 fields", fen)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cloudEvals[cloudKey("standard", fen)] = ev
	return nil
}

// handleCloudEval serves GET /api/cloud-eval?fen=…&multiPv=N&variant=V
// from the cache of V's evals (standard when absent).
func (s *Server) handleCloudEval(w http.ResponseWriter, r *http.Request, _ *account) {
	fen := r.URL.Query().Get("fen")
	multiPV := max(atoiDefault(r.URL.Query().Get("multiPv"), 1), 1)
	s.mu.Lock()
	ev, ok := s.cloudEvals[cloudKey(r.URL.Query().Get("variant"), fen)]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "No cloud evaluation available for that position")
		return
	}
	pvs := []map[string]any{}
	for i, pv := range ev.PVs {
		if i >= multiPV {
			break
		}
		m := map[string]any{"moves": pv.Moves}
		if pv.Mate != nil {
			m["mate"] = *pv.Mate
		} else if pv.CP != nil {
			m["cp"] = *pv.CP
		} else {
			m["cp"] = 0
		}
		pvs = append(pvs, m)
	}
	writeJSON(w, http.StatusOK, map[string]any{"fen": fen, "knodes": ev.Knodes, "depth": ev.Depth, "pvs": pvs})
}

// ErrNoGame is returned for an unknown game id.
var ErrNoGame = errors.New("no such game")

// AttachAnalysis attaches a computer analysis to a finished game; game
// export then returns it (evals, judgments, player summaries).
func (s *Server) AttachAnalysis(gameID string, a Analysis) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[gameID]
	if g == nil {
		return fmt.Errorf("sandbox: attach analysis to %s: %w", gameID, ErrNoGame)
	}
	if !g.over() {
		return fmt.Errorf("sandbox: attach analysis to %s: the game is not over", gameID)
	}
	if err := a.validate(g.plies()); err != nil {
		return fmt.Errorf("sandbox: attach analysis to %s: %w", gameID, err)
	}
	a.Moves = append([]MoveAnalysis(nil), a.Moves...)
	g.analysis = &a
	return nil
}

// ExportPGN returns a game as game export would give it with evals, clocks
// and literate comments.
func (s *Server) ExportPGN(gameID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[gameID]
	if g == nil {
		return "", fmt.Errorf("sandbox: export %s: %w", gameID, ErrNoGame)
	}
	return s.pgn(g, exportOptions{clocks: true, evals: true, literate: true}, s.baseURL), nil
}

// exportGames renders games for a games export (called with mu held): as
// ndjson lines on a finished subscriber when the request wants JSON, else
// as PGN texts.
func (s *Server) exportGames(r *http.Request, games []*game, opt exportOptions, base string) (*subscriber, []string) {
	sub := newSubscriber()
	var pgns []string
	for _, g := range games {
		if wantsJSON(r) {
			sub.send(s.exportJSON(g, opt, base))
		} else {
			pgns = append(pgns, s.pgn(g, opt, base))
		}
	}
	sub.end()
	return sub, pgns
}

// serveExport writes what exportGames rendered (without mu).
func (s *Server) serveExport(w http.ResponseWriter, r *http.Request, sub *subscriber, pgns []string) {
	if wantsJSON(r) {
		s.serveStream(w, r, sub)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_, _ = w.Write([]byte(strings.Join(pgns, "\n\n")))
}
