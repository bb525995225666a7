package sandbox

import (
	"io"
	"net/http"
	"sort"
	"strings"
	"time"
)

// handleTokenTest serves POST /api/token/test: the body is a comma-separated
// list of tokens; the answer maps each to its user and scopes, or null.
func (s *Server) handleTokenTest(w http.ResponseWriter, r *http.Request, _ *account) {
	body, err := io.ReadAll(r.Body) // bounded by MaxRequestBody
	if err != nil {
		writeError(w, http.StatusBadRequest, formProblem(err))
		return
	}
	out := map[string]*tokenInfoJSON{}
	s.mu.Lock()
	for _, tok := range strings.Split(string(body), ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		if a := s.tokens[tok]; a != nil {
			out[tok] = &tokenInfoJSON{UserID: a.id, Scopes: scopes(a)}
		} else {
			out[tok] = nil
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// userJSONFor renders a user's public data (mu held).
func (s *Server) userJSONFor(a *account, base string) userJSON {
	perfs := map[string]perfStatJSON{}
	for _, p := range []string{"bullet", "blitz", "rapid", "classical", "correspondence"} {
		perfs[p] = perfStatJSON{Games: s.countGames(a, p), Rating: a.Rating, RD: 60, Prog: 0}
	}
	seen := a.seenAt
	if seen.Before(a.createdAt) {
		seen = a.createdAt
	}
	u := userJSON{
		ID: a.id, Username: a.Name, Perfs: perfs, Title: a.Title,
		CreatedAt: a.createdAt.UnixMilli(), SeenAt: seen.UnixMilli(),
		PlayTime: playTimeJSON{}, URL: base + "/@/" + a.id,
	}
	for _, id := range s.order {
		if g := s.games[id]; !g.over() && g.colorOf(a) >= 0 {
			u.Playing = base + "/" + g.id
			break
		}
	}
	return u
}

// countGames counts a user's finished games of a speed (mu held).
func (s *Server) countGames(a *account, speed string) int {
	n := 0
	for _, g := range s.games {
		if g.colorOf(a) >= 0 && g.over() && g.speed() == speed {
			n++
		}
	}
	return n
}

// handleAccount serves GET /api/account.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, acc *account) {
	if s.rateLimited(w, apiMeLimitedMsg, acc.id, 1, limitAPIMe) {
		return
	}
	s.mu.Lock()
	u := s.userJSONFor(acc, requestBaseURL(r))
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, u)
}

// handleUser serves GET /api/user/{username}.
func (s *Server) handleUser(w http.ResponseWriter, r *http.Request, _ *account) {
	s.mu.Lock()
	a := s.accounts[strings.ToLower(r.PathValue("username"))]
	var u userJSON
	if a != nil {
		u = s.userJSONFor(a, requestBaseURL(r))
	}
	s.mu.Unlock()
	if a == nil {
		writeError(w, http.StatusNotFound, "Not found.")
		return
	}
	writeJSON(w, http.StatusOK, u)
}

// handleBotUpgrade serves POST /api/bot/account/upgrade: only an account
// that has played no game can become a bot, and it stays one.
func (s *Server) handleBotUpgrade(w http.ResponseWriter, r *http.Request, acc *account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if acc.Bot {
		writeError(w, http.StatusBadRequest, "This account is already a bot account.")
		return
	}
	for _, g := range s.games {
		if g.colorOf(acc) >= 0 {
			writeError(w, http.StatusBadRequest, "This account has played games and cannot be upgraded to a bot account.")
			return
		}
	}
	acc.Bot = true
	acc.Title = "BOT"
	writeOK(w)
}

// handleAccountPlaying serves GET /api/account/playing (nb, default 9).
func (s *Server) handleAccountPlaying(w http.ResponseWriter, r *http.Request, acc *account) {
	nb := min(max(atoiDefault(r.URL.Query().Get("nb"), 9), 1), 50)
	s.mu.Lock()
	playing := []nowPlayingJSON{}
	myTurn := 0
	for _, id := range s.order {
		g := s.games[id]
		s.tick(g, s.now())
		col := g.colorOf(acc)
		if col < 0 || g.over() {
			continue
		}
		info := s.eventInfo(g, col)
		np := nowPlayingJSON{
			GameID: g.id, FullID: info.FullID, Color: info.Color, Fen: info.Fen, HasMoved: info.HasMoved,
			IsMyTurn: info.IsMyTurn, LastMove: info.LastMove, Opponent: info.Opponent, Perf: info.Perf,
			Rated: g.rated, SecondsLeft: int(s.secondsLeft(g, col)), Source: g.source, Speed: info.Speed,
			Variant: info.Variant, Status: g.status,
		}
		if np.IsMyTurn {
			myTurn++
		}
		playing = append(playing, np)
	}
	s.mu.Unlock()
	// The most urgent games first: my turn, then least time left.
	sort.SliceStable(playing, func(i, j int) bool {
		if playing[i].IsMyTurn != playing[j].IsMyTurn {
			return playing[i].IsMyTurn
		}
		return playing[i].SecondsLeft < playing[j].SecondsLeft
	})
	if len(playing) > nb {
		playing = playing[:nb]
	}
	writeJSON(w, http.StatusOK, map[string]any{"nowPlaying": playing, "nbMyTurn": myTurn})
}

// handleBotOnline serves GET /api/bot/online (ndjson; nb, default 100): bots
// with an open event stream.
func (s *Server) handleBotOnline(w http.ResponseWriter, r *http.Request, _ *account) {
	nb := min(max(atoiDefault(r.URL.Query().Get("nb"), 100), 1), 512)
	s.mu.Lock()
	ids := make([]string, 0, len(s.accounts))
	for id, a := range s.accounts {
		if a.Bot && s.online(a) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	sub := newSubscriber()
	for i, id := range ids {
		if i >= nb {
			break
		}
		u := s.userJSONFor(s.accounts[id], requestBaseURL(r))
		u.URL, u.Playing = "", ""
		sub.send(u)
	}
	sub.end()
	s.mu.Unlock()
	s.serveStream(w, r, sub)
}

// handleEventStream serves GET /api/stream/event: it replays the current
// challenges and games, then streams events. A new stream for the same
// token closes the previous one (lila's EventStream: "kill previous one
// if any"); opening it is limited (limitEventStream).
func (s *Server) handleEventStream(w http.ResponseWriter, r *http.Request, acc *account) {
	if s.rateLimited(w, eventStreamLimitedMsg, acc.Token, 1, limitEventStream) {
		return
	}
	sub := newSubscriber()
	s.mu.Lock()
	if old := s.events[acc.Token]; old != nil {
		old.kick()
	}
	s.events[acc.Token] = sub
	for _, c := range s.sortedChallenges() {
		if c.challenger == acc || c.dest == acc {
			sub.send(eventJSON{Type: "challenge", Challenge: s.challengeJSONFor(c, acc), Compat: &compatJSON{Bot: true, Board: true}})
		}
	}
	for _, id := range s.order {
		g := s.games[id]
		s.tick(g, s.now())
		if col := g.colorOf(acc); col >= 0 && !g.over() {
			sub.send(eventJSON{Type: "gameStart", Game: s.eventInfo(g, col)})
		}
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.events[acc.Token] == sub {
			delete(s.events, acc.Token)
		}
	}()
	s.serveStream(w, r, sub)
}

// sortedChallenges lists the pending challenges oldest first (mu held).
func (s *Server) sortedChallenges() []*challenge {
	out := make([]*challenge, 0, len(s.challenges))
	for _, c := range s.challenges {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].createdAt.Equal(out[j].createdAt) {
			return out[i].createdAt.Before(out[j].createdAt)
		}
		return out[i].id < out[j].id
	})
	return out
}

// maxStatusIDs is how many users GET /api/users/status reports at most.
const maxStatusIDs = 100

// handleUsersStatus serves GET /api/users/status: for each known id of
// ids (comma-separated, the first 100), id, name, title, and online and
// playing when true (Lichess leaves false flags out); withGameIds adds the
// playingId of the game being played, withGameMetas (which disables
// withGameIds) a playing object with its id, clock and variant. Unknown ids
// are left out. The sandbox has no network signal, so withSignal adds
// nothing, as Lichess does for a user without one.
func (s *Server) handleUsersStatus(w http.ResponseWriter, r *http.Request, _ *account) {
	q := r.URL.Query()
	ids := strings.Split(q.Get("ids"), ",")
	if strings.TrimSpace(q.Get("ids")) == "" {
		fieldErrors{"ids": {msgRequired}}.write(w)
		return
	}
	if len(ids) > maxStatusIDs {
		ids = ids[:maxStatusIDs]
	}
	metas := boolParam(r, "withGameMetas", false)
	gameIDs := boolParam(r, "withGameIds", false) && !metas
	s.mu.Lock()
	out := []userStatusJSON{}
	for _, id := range ids {
		a := s.accounts[strings.ToLower(strings.TrimSpace(id))]
		if a == nil {
			continue
		}
		st := userStatusJSON{ID: a.id, Name: a.Name, Title: a.Title, Online: s.online(a)}
		if g := s.playingGame(a); g != nil {
			st.Playing = true
			switch {
			case gameIDs:
				st.PlayingID = g.id
			case metas:
				st.PlayingMeta = &playingMetaJSON{ID: g.id, Variant: g.variant}
				if g.clock != nil {
					st.PlayingMeta.Clock = showClock(int(g.clock.limit/time.Second), int(g.clock.increment/time.Second))
				}
			}
		}
		out = append(out, st)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// playingGame is a game the user is playing now, the oldest first (mu held).
func (s *Server) playingGame(a *account) *game {
	for _, id := range s.order {
		if g := s.games[id]; !g.over() && g.colorOf(a) >= 0 {
			return g
		}
	}
	return nil
}
