package sandbox

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxChatLength is Lichess's chat message limit.
const maxChatLength = 140

// playerGame returns the game gameId of the request and acc's color in it.
// A game acc does not play is "not found" (mu held).
func (s *Server) playerGame(r *http.Request, acc *account) (*game, int, *apiError) {
	g := s.games[r.PathValue("gameId")]
	if g == nil {
		return nil, -1, notFound("No such game")
	}
	col := g.colorOf(acc)
	if col < 0 {
		return nil, -1, notFound("No such game")
	}
	return g, col, nil
}

// handleGameStream serves /api/{bot,board}/game/stream/{gameId}: gameFull
// first, then gameState, chatLine and opponentGone lines until the game ends.
func (s *Server) handleGameStream(w http.ResponseWriter, r *http.Request, acc *account) {
	s.mu.Lock()
	g, col, err := s.playerGame(r, acc)
	if err != nil {
		s.mu.Unlock()
		writeError(w, err.status, err.msg)
		return
	}
	s.tick(g, s.now())
	sub := newSubscriber()
	sub.color = col
	full := s.fullJSON(g)
	if fen, ok := s.faults.initialFEN(r.URL.Path); ok {
		full.InitialFen = fen
	}
	sub.send(full)
	if g.over() {
		sub.end()
	} else {
		g.subs[sub] = true
		s.streamOpened(g, col)
		opp := 1 - col
		if g.goneSent[opp] {
			secs := 0
			if !g.claimSent[opp] {
				left := g.leftAt[opp].Add(s.cfg.GoneAfter + s.cfg.ClaimWinAfter).Sub(s.now())
				secs = ceilSeconds(left)
			}
			sub.send(opponentGoneJSON{Type: "opponentGone", Gone: true, ClaimWinInSeconds: &secs})
		}
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if g.subs[sub] {
			delete(g.subs, sub)
			s.streamClosed(g, col)
		}
	}()
	s.serveStream(w, r, sub)
}

// handleMove serves POST /api/{bot,board}/game/{gameId}/move/{move}.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, acc *account) {
	offer := boolParam(r, "offeringDraw", false)
	s.mu.Lock()
	g, _, err := s.playerGame(r, acc)
	var id string
	var plies int
	if err == nil {
		err = s.move(g, acc, r.PathValue("move"), offer)
		id, plies = g.id, g.plies()
	}
	s.mu.Unlock()
	if h := s.cfg.OnMove; h != nil && err == nil {
		h(id, plies)
	}
	writeResult(w, err)
}

// handleAbort serves POST …/abort.
func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withGame(w, r, acc, func(g *game) *apiError { return s.abort(g, acc) })
}

// handleResign serves POST …/resign.
func (s *Server) handleResign(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withGame(w, r, acc, func(g *game) *apiError { return s.resign(g, acc) })
}

// handleDraw serves POST …/draw/{accept} (yes/true offers or accepts, no/false declines).
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withAnswer(w, r, acc, func(g *game, yes bool) *apiError { return s.draw(g, acc, yes) })
}

// handleTakeback serves POST …/takeback/{accept}: yes proposes a takeback
// or accepts the opponent's proposal; no declines it (or withdraws one's
// own).
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withAnswer(w, r, acc, func(g *game, yes bool) *apiError { return s.takebackAnswer(g, acc, yes) })
}

// withAnswer reads the path's {accept} (yes/true or no/false) and runs
// answer with it on the request's game, as withGame does; any other
// {accept} is a 400.
func (s *Server) withAnswer(w http.ResponseWriter, r *http.Request, acc *account, answer func(g *game, yes bool) *apiError) {
	yes, ok := parseYesNo(r.PathValue("accept"))
	if !ok {
		writeError(w, http.StatusBadRequest, "accept must be yes or no")
		return
	}
	s.withGame(w, r, acc, func(g *game) *apiError { return answer(g, yes) })
}

// handleClaimVictory serves POST …/claim-victory.
func (s *Server) handleClaimVictory(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withGame(w, r, acc, func(g *game) *apiError { return s.claim(g, acc, true) })
}

// handleClaimDraw serves POST …/claim-draw.
func (s *Server) handleClaimDraw(w http.ResponseWriter, r *http.Request, acc *account) {
	s.withGame(w, r, acc, func(g *game) *apiError { return s.claim(g, acc, false) })
}

// withGame runs fn on the request's game under the lock and writes the result.
func (s *Server) withGame(w http.ResponseWriter, r *http.Request, acc *account, fn func(*game) *apiError) {
	s.mu.Lock()
	g, _, err := s.playerGame(r, acc)
	if err == nil {
		err = fn(g)
	}
	s.mu.Unlock()
	writeResult(w, err)
}

// parseYesNo reads a yes/no/true/false path value.
func parseYesNo(v string) (yes, ok bool) {
	switch strings.ToLower(v) {
	case "yes", "true":
		return true, true
	case "no", "false":
		return false, true
	}
	return false, false
}

// handleChatPost serves POST …/chat (form room=player|spectator, text).
func (s *Server) handleChatPost(w http.ResponseWriter, r *http.Request, acc *account) {
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, formProblem(err))
		return
	}
	room, text := r.Form.Get("room"), strings.TrimSpace(r.Form.Get("text"))
	if room != "player" && room != "spectator" {
		writeError(w, http.StatusBadRequest, "room must be player or spectator")
		return
	}
	if text == "" {
		writeError(w, http.StatusBadRequest, "text is required")
		return
	}
	if utf8.RuneCountInString(text) > maxChatLength {
		text = string([]rune(text)[:maxChatLength])
	}
	s.withGame(w, r, acc, func(g *game) *apiError {
		line := ChatLine{Room: room, User: acc.Name, Text: text, Time: s.now()}
		g.chat = append(g.chat, line)
		s.broadcast(g, chatLineJSON{Type: "chatLine", Room: room, Username: acc.Name, Text: text})
		return nil
	})
}

// handleChatGet serves GET …/chat: the player room as one JSON array.
func (s *Server) handleChatGet(w http.ResponseWriter, r *http.Request, acc *account) {
	s.mu.Lock()
	g, _, err := s.playerGame(r, acc)
	var lines []map[string]string
	if err == nil {
		lines = []map[string]string{}
		for _, l := range g.chat {
			if l.Room == "player" {
				lines = append(lines, map[string]string{"text": l.Text, "user": l.User})
			}
		}
	}
	s.mu.Unlock()
	if err != nil {
		writeError(w, err.status, err.msg)
		return
	}
	// Lichess answers one JSON array; the spec files it as ndjson.
	writeJSONType(w, http.StatusOK, "application/x-ndjson", lines)
}

// atoiDefault parses an integer query parameter with a default.
func atoiDefault(v string, def int) int {
	n, err := strconv.Atoi(v)
	if err != nil {
		return def
	}
	return n
}
