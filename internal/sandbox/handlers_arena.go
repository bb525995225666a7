package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The arena API as lila's controllers.Tournament serves it (apiShow,
// apiJoin, apiWithdraw), with controllers.Api's results and games
// streams and the lists by creator and by team.

// arenaClockJSON is the Clock schema.
type arenaClockJSON struct {
	Limit     int `json:"limit"`
	Increment int `json:"increment"`
}

// arenaPerfJSON is an arena's perf.
type arenaPerfJSON struct {
	Key      string `json:"key"`
	Name     string `json:"name"`
	Position int    `json:"position"`
	Icon     string `json:"icon"`
}

// perfPositions order the speeds as lila's perf list does (the spec's
// example has blitz at 1).
var perfPositions = map[string]int{"bullet": 0, "blitz": 1, "rapid": 2, "classical": 3, "ultraBullet": 4}

// arenaSheetJSON is the ArenaSheet schema.
type arenaSheetJSON struct {
	Scores string `json:"scores"`
	Fire   bool   `json:"fire,omitempty"`
}

// arenaStandingPlayerJSON is a line of the standing.
type arenaStandingPlayerJSON struct {
	Name     string         `json:"name"`
	Title    string         `json:"title,omitempty"`
	Rank     int            `json:"rank"`
	Rating   int            `json:"rating"`
	Score    int            `json:"score"`
	Sheet    arenaSheetJSON `json:"sheet"`
	Withdraw bool           `json:"withdraw,omitempty"`
	Team     string         `json:"team,omitempty"`
}

// arenaMeJSON is the "me" object of the full view (the caller's entry).
type arenaMeJSON struct {
	Rank     int    `json:"rank"`
	Withdraw bool   `json:"withdraw"`
	GameID   string `json:"gameId,omitempty"`
}

// arenaTeamBattleJSON is a team battle's teams.
type arenaTeamBattleJSON struct {
	Teams []string `json:"teams"`
}

// arenaFullJSON is the ArenaTournamentFull schema (the fields the sandbox
// knows), as lila's tournament JsonView writes it: startsAt as an ISO date,
// the variant as its key.
type arenaFullJSON struct {
	ID                 string               `json:"id"`
	FullName           string               `json:"fullName"`
	CreatedBy          string               `json:"createdBy"`
	System             string               `json:"system"`
	Rated              bool                 `json:"rated"`
	Berserkable        bool                 `json:"berserkable"`
	Clock              arenaClockJSON       `json:"clock"`
	Minutes            int                  `json:"minutes"`
	Variant            string               `json:"variant"`
	Perf               arenaPerfJSON        `json:"perf"`
	StartsAt           string               `json:"startsAt"`
	SecondsToStart     int                  `json:"secondsToStart,omitempty"`
	SecondsToFinish    int                  `json:"secondsToFinish,omitempty"`
	IsStarted          bool                 `json:"isStarted,omitempty"`
	IsFinished         bool                 `json:"isFinished,omitempty"`
	IsRecentlyFinished bool                 `json:"isRecentlyFinished,omitempty"`
	PairingsClosed     bool                 `json:"pairingsClosed,omitempty"`
	NbPlayers          int                  `json:"nbPlayers"`
	BotsAllowed        bool                 `json:"botsAllowed,omitempty"`
	Private            bool                 `json:"private,omitempty"`
	TeamBattle         *arenaTeamBattleJSON `json:"teamBattle,omitempty"`
	Standing           arenaStandingJSON    `json:"standing"`
	Me                 *arenaMeJSON         `json:"me,omitempty"`
}

// arenaStandingJSON is a page of the standing.
type arenaStandingJSON struct {
	Page    int                       `json:"page"`
	Players []arenaStandingPlayerJSON `json:"players"`
}

// arenaListJSON is the ArenaTournament schema (lists), with dates in
// milliseconds as lila's ApiJsonView writes them.
type arenaListJSON struct {
	ID             string               `json:"id"`
	CreatedBy      string               `json:"createdBy"`
	System         string               `json:"system"`
	Minutes        int                  `json:"minutes"`
	Clock          arenaClockJSON       `json:"clock"`
	Rated          bool                 `json:"rated"`
	FullName       string               `json:"fullName"`
	NbPlayers      int                  `json:"nbPlayers"`
	Variant        variantJSON          `json:"variant"`
	StartsAt       int64                `json:"startsAt"`
	FinishesAt     int64                `json:"finishesAt"`
	Status         int                  `json:"status"`
	Perf           arenaPerfJSON        `json:"perf"`
	SecondsToStart int                  `json:"secondsToStart,omitempty"`
	BotsAllowed    bool                 `json:"botsAllowed,omitempty"`
	TeamMember     string               `json:"teamMember,omitempty"`
	Private        bool                 `json:"private,omitempty"`
	TeamBattle     *arenaTeamBattleJSON `json:"teamBattle,omitempty"`
}

// arenaResultJSON is a line of GET /api/tournament/{id}/results.
type arenaResultJSON struct {
	Rank        int             `json:"rank"`
	Score       int             `json:"score"`
	Rating      int             `json:"rating"`
	Username    string          `json:"username"`
	Title       string          `json:"title,omitempty"`
	Performance int             `json:"performance"`
	Team        string          `json:"team,omitempty"`
	Sheet       *arenaSheetJSON `json:"sheet,omitempty"`
}

// arenaPageSize is the standing's page size on lila (10 players).
const arenaPageSize = 10

func (a *arena) minutes() int { return int((a.Duration + time.Minute - 1) / time.Minute) }

func (a *arena) perf() arenaPerfJSON {
	speed := speedOf(&timeControl{limit: a.Limit, increment: a.Increment}, 0)
	return arenaPerfJSON{Key: speed, Name: perfName(speed), Position: perfPositions[speed]}
}

func (a *arena) clockJSON() arenaClockJSON {
	return arenaClockJSON{Limit: int(a.Limit / time.Second), Increment: int(a.Increment / time.Second)}
}

func (a *arena) teamBattleJSON() *arenaTeamBattleJSON {
	if a.TeamBattle == nil {
		return nil
	}
	tb := &arenaTeamBattleJSON{Teams: []string{}}
	for t := range a.TeamBattle {
		tb.Teams = append(tb.Teams, t)
	}
	sortStrings(tb.Teams)
	return tb
}

func secondsUntil(t, now time.Time) int { return max(int(t.Sub(now)/time.Second), 0) }

// fullJSON renders the arena for GET /api/tournament/{id} (mu held).
func (s *Server) arenaFullJSON(a *arena, viewer *account, page int) arenaFullJSON {
	now := s.now()
	j := arenaFullJSON{ID: a.ID, FullName: a.Name, CreatedBy: strings.ToLower(a.CreatedBy), System: "arena",
		Rated: a.Rated, Berserkable: false, Clock: a.clockJSON(), Minutes: a.minutes(), Variant: "standard",
		Perf: a.perf(), StartsAt: a.startsAt.UTC().Format(time.RFC3339Nano), NbPlayers: len(a.players),
		BotsAllowed: a.BotsAllowed, Private: a.Password != "", TeamBattle: a.teamBattleJSON()}
	switch a.status {
	case arenaCreated:
		j.SecondsToStart = secondsUntil(a.startsAt, now)
	case arenaStarted:
		j.IsStarted = true
		j.SecondsToFinish = secondsUntil(a.finishesAt(), now)
		j.PairingsClosed = a.pairingsClosed(now)
	case arenaFinished:
		j.IsFinished, j.IsRecentlyFinished = true, true
	}
	ids := a.standing()
	j.Standing = arenaStandingJSON{Page: page, Players: []arenaStandingPlayerJSON{}}
	for i := (page - 1) * arenaPageSize; i < len(ids) && i < page*arenaPageSize; i++ {
		p := a.players[ids[i]]
		j.Standing.Players = append(j.Standing.Players, arenaStandingPlayerJSON{Name: p.acc.Name, Title: p.acc.Title,
			Rank: i + 1, Rating: p.acc.Rating, Score: p.sheet.total, Withdraw: p.withdrawn, Team: p.team,
			Sheet: arenaSheetJSON{Scores: p.sheet.String(), Fire: !a.NoStreak && p.sheet.onFire()}})
	}
	if viewer != nil {
		if p := a.players[viewer.id]; p != nil {
			me := &arenaMeJSON{Rank: a.ranks()[viewer.id], Withdraw: p.withdrawn}
			for _, q := range a.pairings {
				if !q.done && (q.white == viewer.id || q.black == viewer.id) {
					me.GameID = q.gameID
				}
			}
			j.Me = me
		}
	}
	return j
}

// arenaListJSON renders the arena for the lists (mu held).
func (s *Server) arenaListJSON(a *arena) arenaListJSON {
	j := arenaListJSON{ID: a.ID, CreatedBy: strings.ToLower(a.CreatedBy), System: "arena", Minutes: a.minutes(),
		Clock: a.clockJSON(), Rated: a.Rated, FullName: a.Name, NbPlayers: len(a.players), Variant: variantOf("standard"),
		StartsAt: a.startsAt.UnixMilli(), FinishesAt: a.finishesAt().UnixMilli(), Status: a.status, Perf: a.perf(),
		BotsAllowed: a.BotsAllowed, TeamMember: a.Team, Private: a.Password != "", TeamBattle: a.teamBattleJSON()}
	if a.status == arenaCreated {
		j.SecondsToStart = secondsUntil(a.startsAt, s.now())
	}
	return j
}

// handleArenaShow serves GET /api/tournament/{id}.
func (s *Server) handleArenaShow(w http.ResponseWriter, r *http.Request, acc *account) {
	page := max(atoiDefault(r.URL.Query().Get("page"), 1), 1)
	s.mu.Lock()
	a := s.arenas[r.PathValue("id")]
	if a == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	j := s.arenaFullJSON(a, acc, page)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, j)
}

// handleArenaJoin serves POST /api/tournament/{id}/join (form: password,
// team, pairMeAsap): 200 {"ok":true}, or 400 {"error": lila's JoinResult}.
func (s *Server) handleArenaJoin(w http.ResponseWriter, r *http.Request, acc *account) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBody)
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid form")
		return
	}
	pairMe, _ := strconv.ParseBool(r.PostForm.Get("pairMeAsap"))
	s.mu.Lock()
	msg := s.joinArena(s.arenas[r.PathValue("id")], acc, r.PostForm.Get("password"), r.PostForm.Get("team"), pairMe)
	s.mu.Unlock()
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	writeOK(w)
}

// handleArenaWithdraw serves POST /api/tournament/{id}/withdraw.
func (s *Server) handleArenaWithdraw(w http.ResponseWriter, r *http.Request, acc *account) {
	s.mu.Lock()
	a := s.arenas[r.PathValue("id")]
	if a != nil {
		s.withdrawArena(a, acc)
	}
	s.mu.Unlock()
	if a == nil {
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	writeOK(w)
}

// handleArenaResults serves GET /api/tournament/{id}/results (ndjson; nb,
// sheet).
func (s *Server) handleArenaResults(w http.ResponseWriter, r *http.Request, _ *account) {
	q := r.URL.Query()
	nb := atoiDefault(q.Get("nb"), 0)
	withSheet, _ := strconv.ParseBool(q.Get("sheet"))
	s.mu.Lock()
	a := s.arenas[r.PathValue("id")]
	if a == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	sub := newSubscriber()
	for i, id := range a.standing() {
		if nb > 0 && i >= nb {
			break
		}
		p := a.players[id]
		line := arenaResultJSON{Rank: i + 1, Score: p.sheet.total, Rating: p.acc.Rating, Username: p.acc.Name,
			Title: p.acc.Title, Team: p.team, Performance: p.acc.Rating}
		if n := len(p.games); n > 0 {
			line.Performance = p.perfSum / n
		}
		if withSheet {
			line.Sheet = &arenaSheetJSON{Scores: p.sheet.String(), Fire: !a.NoStreak && p.sheet.onFire()}
		}
		sub.send(line)
	}
	sub.end()
	s.mu.Unlock()
	s.serveStream(w, r, sub)
}

// handleArenaGames serves GET /api/tournament/{id}/games (ndjson or PGN;
// player), most recent first.
func (s *Server) handleArenaGames(w http.ResponseWriter, r *http.Request, _ *account) {
	opt := exportOptionsFrom(r, false, false)
	player := strings.ToLower(r.URL.Query().Get("player"))
	s.mu.Lock()
	a := s.arenas[r.PathValue("id")]
	if a == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	var games []*game
	for i := len(a.pairings) - 1; i >= 0; i-- {
		p := a.pairings[i]
		g := s.games[p.gameID]
		if g == nil || (player != "" && p.white != player && p.black != player) {
			continue
		}
		games = append(games, g)
	}
	sub, pgns := s.exportGames(r, games, opt, s.baseURL)
	s.mu.Unlock()
	s.serveExport(w, r, sub, pgns)
}

// handleArenasCreatedBy serves GET /api/user/{username}/tournament/created
// (ndjson; status repeated, nb), last starting first.
func (s *Server) handleArenasCreatedBy(w http.ResponseWriter, r *http.Request, _ *account) {
	user := strings.ToLower(r.PathValue("username"))
	s.serveArenaList(w, r, func(a *arena) bool { return strings.EqualFold(a.CreatedBy, user) }, "nb", r.URL.Query()["status"])
}

// handleTeamArenas serves GET /api/team/{teamId}/arena (ndjson; max,
// status by name: created, started, finished).
func (s *Server) handleTeamArenas(w http.ResponseWriter, r *http.Request, _ *account) {
	team := r.PathValue("teamId")
	var statuses []string
	if st := r.URL.Query().Get("status"); st != "" {
		statuses = []string{map[string]string{"created": "10", "started": "20", "finished": "30"}[st]}
	}
	s.serveArenaList(w, r, func(a *arena) bool {
		_, inBattle := a.TeamBattle[team]
		return a.Team == team || inBattle
	}, "max", statuses)
}

// serveArenaList streams the arenas that keep selects, in the statuses
// asked for (status ids as strings; none = all), last starting first.
func (s *Server) serveArenaList(w http.ResponseWriter, r *http.Request, keep func(*arena) bool, limitKey string, statuses []string) {
	limit := atoiDefault(r.URL.Query().Get(limitKey), 0)
	want := map[int]bool{}
	for _, st := range statuses {
		if n, err := strconv.Atoi(st); err == nil {
			want[n] = true
		}
	}
	s.mu.Lock()
	var list []*arena
	for _, id := range s.arenaOrder {
		a := s.arenas[id]
		if keep(a) && (len(want) == 0 || want[a.status]) {
			list = append(list, a)
		}
	}
	sortArenasByStart(list)
	sub := newSubscriber()
	for i, a := range list {
		if limit > 0 && i >= limit {
			break
		}
		sub.send(s.arenaListJSON(a))
	}
	sub.end()
	s.mu.Unlock()
	s.serveStream(w, r, sub)
}

// entryCodeOK checks an arena's entry code as TournamentApi.join does: the
// code itself, or the user-specific HMAC-SHA256(code, user id) in hex.
func entryCodeOK(code, userID, given string) bool {
	if subtle.ConstantTimeCompare([]byte(code), []byte(given)) == 1 {
		return true
	}
	mac := hmac.New(sha256.New, []byte(code))
	mac.Write([]byte(userID))
	return subtle.ConstantTimeCompare([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(given)) == 1
}

// arenaRoutes are the tournament operations, with Lichess's paths.
func (s *Server) arenaRoutes() []route {
	return []route{
		{"GET", "/api/tournament/{id}", authOptional, s.handleArenaShow},
		{"POST", "/api/tournament/{id}/join", authUser, s.handleArenaJoin},
		{"POST", "/api/tournament/{id}/withdraw", authUser, s.handleArenaWithdraw},
		{"GET", "/api/tournament/{id}/results", authOptional, s.handleArenaResults},
		{"GET", "/api/tournament/{id}/games", authOptional, s.handleArenaGames},
		{"GET", "/api/user/{username}/tournament/created", authOptional, s.handleArenasCreatedBy},
		{"GET", "/api/team/{teamId}/arena", authOptional, s.handleTeamArenas},
	}
}

// sortStrings sorts in place.
func sortStrings(list []string) { sort.Strings(list) }

// sortArenasByStart orders arenas last starting first, as lila's lists.
func sortArenasByStart(list []*arena) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].startsAt.After(list[j].startsAt) })
}
