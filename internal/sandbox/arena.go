package sandbox

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Arena tournaments as lila runs them (modules/tournament): created, then
// started at their start time, then finished at startsAt + duration
// (StartedOrganizer.processTour); players join and withdraw through the
// API; every ArenaTick the started arenas pair their waiting players
// (StartedOrganizer, every second on lila), where a BOT account that has
// joined an arena allowing bots and is not playing always waits
// (StartedOrganizer.fetchWaitingBots) and other accounts wait for a minute
// after a join with pairMeAsap (WaitingUsers.addApiUser); the games are
// source "arena" with the arena's first-move deadline, and their results
// score as lila's arena.Sheet (arena_sheet.go).

// ArenaSpec describes an arena to create with Server.CreateArena.
type ArenaSpec struct {
	// ID is the tournament id ("" = a fresh 8-character one).
	ID string
	// Name is the full name ("" = "Sandbox Arena").
	Name string
	// CreatedBy is the creator's user name ("" = "lichess").
	CreatedBy string
	// Team is the team the arena belongs to (listed by GET
	// /api/team/{teamId}/arena); "" = none.
	Team string
	// Limit and Increment are the games' clock (nominal; the games run on
	// the server's TimeScale).
	Limit, Increment time.Duration
	// StartIn is how long from now the arena starts (0: at the next tick).
	StartIn time.Duration
	// Duration is how long the arena runs once started, taken literally
	// (not scaled by TimeScale; the API shows it in whole minutes).
	Duration time.Duration
	// Rated makes the games rated.
	Rated bool
	// BotsAllowed is lila's conditions.bots: only then may BOT accounts join.
	BotsAllowed bool
	// Password is the entry code of a private arena ("" = public).
	Password string
	// NoStreak scores every win 2 (lila's noStreak).
	NoStreak bool
	// TeamBattle maps each team of a team battle to its members' names;
	// players then join with the team parameter. nil = no team battle.
	TeamBattle map[string][]string
}

// Arena statuses (lila's tournament Status).
const (
	arenaCreated  = 10
	arenaStarted  = 20
	arenaFinished = 30
)

// apiWaitFor is how long a pairMeAsap join keeps a player waiting
// (WaitingUsers.addApiUser: an ExpireSetMemo of 70 seconds).
const apiWaitFor = 70 * time.Second

// DefaultArenaTick is lila's StartedOrganizer period.
const DefaultArenaTick = time.Second

// arena is the server-side state of one arena (guarded by the server's mu).
type arena struct {
	ArenaSpec
	status      int
	createdAt   time.Time
	startsAt    time.Time
	killed      bool
	players     map[string]*arenaPlayer // by user id
	order       []string                // user ids in join order
	pairings    []*arenaPairing
	byGame      map[string]*arenaPairing
	hadPairings bool
	waiting     map[string]time.Time // waiting since, by user id
}

// arenaPlayer is one player of an arena.
type arenaPlayer struct {
	acc         *account
	team        string
	withdrawn   bool
	apiUntil    time.Time // pairMeAsap waiting expires
	sheet       arenaSheet
	games       []ArenaGame
	perfSum     int // sum of opponents' rating ± 500, for the performance
	colorWhites int // white games minus black games
	lastOpp     string
}

// arenaPairing is one arena game.
type arenaPairing struct {
	gameID       string
	white, black string // user ids
	done         bool
}

func (a *arena) finishesAt() time.Time { return a.startsAt.Add(a.Duration) }

// pairingsClosed is Tournament.pairingsClosed: no new pairing once fewer
// than max(30 s, min(half the clock's limit, 120 s)) are left.
func (a *arena) pairingsClosed(now time.Time) bool {
	closeFor := max(30*time.Second, min(a.Limit/2, 120*time.Second))
	return a.finishesAt().Sub(now) < closeFor
}

// playing reports whether a user is in an unfinished pairing.
func (a *arena) playing(id string) bool {
	for _, p := range a.pairings {
		if !p.done && (p.white == id || p.black == id) {
			return true
		}
	}
	return false
}

// CreateArena creates an arena and returns its id.
func (s *Server) CreateArena(spec ArenaSpec) (string, error) {
	if spec.Limit < 0 || spec.Increment < 0 || spec.Limit+spec.Increment == 0 {
		return "", fmt.Errorf("sandbox: arena clock %v+%v: a real-time clock is needed", spec.Limit, spec.Increment)
	}
	if spec.Duration <= 0 {
		return "", errors.New("sandbox: arena duration: must be positive")
	}
	if spec.Name == "" {
		spec.Name = "Sandbox Arena"
	}
	if spec.CreatedBy == "" {
		spec.CreatedBy = "lichess"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if spec.ID == "" {
		spec.ID = s.newID(8)
	}
	if _, dup := s.arenas[spec.ID]; dup {
		return "", fmt.Errorf("sandbox: arena %s exists already", spec.ID)
	}
	now := s.now()
	a := &arena{ArenaSpec: spec, status: arenaCreated, createdAt: now, startsAt: now.Add(spec.StartIn),
		players: map[string]*arenaPlayer{}, byGame: map[string]*arenaPairing{}, waiting: map[string]time.Time{}}
	s.arenas[spec.ID] = a
	s.arenaOrder = append(s.arenaOrder, spec.ID)
	if !s.arenaLoop && !s.closed {
		s.arenaLoop = true
		go s.arenaOrganizer()
	}
	return spec.ID, nil
}

// StartArena starts an arena not started yet at the next tick.
func (s *Server) StartArena(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arenas[id]
	if a == nil || a.status != arenaCreated {
		return fmt.Errorf("sandbox: start arena %s: no such arena waiting to start", id)
	}
	a.startsAt = s.now()
	return nil
}

// EndArena ends a started arena at the next tick, or deletes one not
// started yet, as lila's TournamentApi.kill (the terminate endpoint) does.
func (s *Server) EndArena(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arenas[id]
	if a == nil {
		return fmt.Errorf("sandbox: end arena %s: no such arena", id)
	}
	a.killed = true
	return nil
}

// arenaOrganizer runs the arenas every ArenaTick until the server closes.
func (s *Server) arenaOrganizer() {
	every := s.cfg.ArenaTick
	if every <= 0 {
		every = DefaultArenaTick
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		var ended []string
		s.mu.Lock()
		for _, id := range s.arenaOrder {
			if s.organize(s.arenas[id]) {
				ended = append(ended, id)
			}
		}
		s.mu.Unlock()
		if h := s.cfg.OnArenaEnd; h != nil {
			for _, id := range ended {
				h(id)
			}
		}
	}
}

// organize advances one arena (mu held) and reports whether it ended now.
func (s *Server) organize(a *arena) bool {
	now := s.now()
	switch a.status {
	case arenaFinished:
		return false
	case arenaCreated:
		if a.killed {
			s.finishArena(a)
			return true
		}
		if now.Before(a.startsAt) {
			return false
		}
		a.status, a.startsAt = arenaStarted, now
	}
	if a.killed || !now.Before(a.finishesAt()) {
		s.finishArena(a)
		return true
	}
	s.pairArenaRound(a, now)
	return false
}

// finishArena ends an arena: games still playing no longer count
// (PairingRepo.removePlaying) and the withdrawn players are back in the
// final standing (PlayerRepo.unWithdraw).
func (s *Server) finishArena(a *arena) {
	a.status = arenaFinished
	kept := a.pairings[:0]
	for _, p := range a.pairings {
		if p.done {
			kept = append(kept, p)
		} else {
			delete(a.byGame, p.gameID)
		}
	}
	a.pairings = kept
	for _, p := range a.players {
		p.withdrawn = false
	}
	a.waiting = map[string]time.Time{}
	s.log.Info().Str("arena", a.ID).Int("games", len(a.pairings)).Msg("arena finished")
}

// pairArenaRound pairs the waiting players of a started arena (mu held),
// as TournamentApi.makePairings: at least two waiting, and either no
// pairing made yet, or two of them waited long enough, or (fewer than 30
// players) the active players are at most 1.5 × the waiting ones.
func (s *Server) pairArenaRound(a *arena, now time.Time) {
	if a.pairingsClosed(now) || len(a.players) < 2 {
		return
	}
	active := 0
	seen := map[string]bool{}
	for _, id := range a.order {
		p := a.players[id]
		if p.withdrawn {
			continue
		}
		active++
		if a.playing(id) || !(p.acc.Bot && a.BotsAllowed || now.Before(p.apiUntil)) {
			continue
		}
		seen[id] = true
		if _, ok := a.waiting[id]; !ok {
			a.waiting[id] = now
		}
	}
	for id := range a.waiting {
		if !seen[id] {
			delete(a.waiting, id)
		}
	}
	n := len(a.waiting)
	if active < 2 || n < 2 {
		return
	}
	wait := s.scaled(arenaWaitFor(a.Limit, a.Increment))
	long := 0
	for _, since := range a.waiting {
		if !since.After(now.Add(-wait)) {
			long++
		}
	}
	if a.hadPairings && long < 2 && !(len(a.players) < 30 && float64(active) <= 1.5*float64(n)) {
		return
	}
	ranks := a.ranks()
	cands := make([]arenaCandidate, 0, n)
	for id, since := range a.waiting {
		cands = append(cands, arenaCandidate{id: id, rank: ranks[id], rating: a.players[id].acc.Rating, since: since})
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].rank < cands[j].rank })
	last := map[string]string{}
	for id, p := range a.players {
		last[id] = p.lastOpp
	}
	for _, pair := range pairArena(cands, last, now.Sub(a.startsAt) < recentlyStartedFor) {
		s.startArenaGame(a, a.players[pair[0].id], a.players[pair[1].id])
		delete(a.waiting, pair[0].id)
		delete(a.waiting, pair[1].id)
	}
}

// startArenaGame starts the game of a pairing (mu held): white goes to the
// player who has had white less often (lila's color history), the first of
// the pair on a tie.
func (s *Server) startArenaGame(a *arena, p1, p2 *arenaPlayer) {
	w, b := p1, p2
	if p2.colorWhites < p1.colorWhites {
		w, b = p2, p1
	}
	c := &challenge{
		id: s.newID(8), challenger: w.acc, dest: b.acc, variant: "standard", rated: a.Rated,
		source: SourceArena, tournament: a.ID, clock: &timeControl{limit: a.Limit, increment: a.Increment},
		color: "white", finalColor: "white", status: "accepted", createdAt: s.now(),
	}
	g := s.startGame(c, w.acc, b.acc)
	p := &arenaPairing{gameID: g.id, white: w.acc.id, black: b.acc.id}
	a.pairings = append(a.pairings, p)
	a.byGame[g.id] = p
	a.hadPairings = true
	w.colorWhites++
	b.colorWhites--
	w.lastOpp, b.lastOpp = b.acc.id, w.acc.id
	s.log.Info().Str("arena", a.ID).Str("game", g.id).Str("white", w.acc.Name).Str("black", b.acc.Name).Msg("arena pairing")
}

// arenaGameOver scores a finished arena game (mu held, from finish): an
// aborted game does not count; a noStart game is lost by the player who
// did not move, who is withdrawn (TournamentApi.withdrawNonMover).
func (s *Server) arenaGameOver(g *game) {
	a := s.arenas[g.tournamentID]
	if a == nil {
		return
	}
	p := a.byGame[g.id]
	if p == nil || p.done {
		return
	}
	p.done = true
	if g.status == "aborted" {
		delete(a.byGame, g.id)
		for i, q := range a.pairings {
			if q == p {
				a.pairings = append(a.pairings[:i], a.pairings[i+1:]...)
				break
			}
		}
		return
	}
	for col, id := range []string{p.white, p.black} {
		pl := a.players[id]
		opp := g.players[1-col]
		out := ArenaDraw
		switch g.winner {
		case col:
			out = ArenaWin
		case 1 - col:
			out = ArenaLoss
		}
		ag := ArenaGame{Outcome: out, Plies: g.plies()}
		pl.games = append(pl.games, ag)
		pl.sheet.add(ag, !a.NoStreak)
		perf := opp.Rating
		switch out {
		case ArenaWin:
			perf += 500
		case ArenaLoss:
			perf -= 500
		}
		pl.perfSum += perf
		if g.status == "noStart" && out == ArenaLoss {
			pl.withdrawn = true
		}
	}
}

// ranks is the standing's rank of every player (mu held): by score, then
// rating, then join order.
func (a *arena) ranks() map[string]int {
	ids := a.standing()
	out := make(map[string]int, len(ids))
	for i, id := range ids {
		out[id] = i + 1
	}
	return out
}

// standing is the user ids ranked (mu held).
func (a *arena) standing() []string {
	ids := append([]string(nil), a.order...)
	sort.SliceStable(ids, func(i, j int) bool {
		pi, pj := a.players[ids[i]], a.players[ids[j]]
		if pi.sheet.total != pj.sheet.total {
			return pi.sheet.total > pj.sheet.total
		}
		return pi.acc.Rating > pj.acc.Rating
	})
	return ids
}

// ArenaStanding is one line of an arena's standing, for tests.
type ArenaStanding struct {
	Name      string
	Rank      int
	Score     int
	Sheet     string // lila's scores string, most recent first
	Fire      bool
	Games     []ArenaGame // in the order played
	Withdrawn bool
}

// ArenaInfo is an arena's state, for tests.
type ArenaInfo struct {
	ID       string
	Status   int // 10 created, 20 started, 30 finished
	Standing []ArenaStanding
	Games    []string // game ids in pairing order
}

// InspectArena returns an arena's state.
func (s *Server) InspectArena(id string) (ArenaInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arenas[id]
	if a == nil {
		return ArenaInfo{}, fmt.Errorf("sandbox: arena %s: no such arena", id)
	}
	info := ArenaInfo{ID: a.ID, Status: a.status}
	for i, uid := range a.standing() {
		p := a.players[uid]
		info.Standing = append(info.Standing, ArenaStanding{Name: p.acc.Name, Rank: i + 1, Score: p.sheet.total,
			Sheet: p.sheet.String(), Fire: !a.NoStreak && p.sheet.onFire(), Games: append([]ArenaGame(nil), p.games...),
			Withdrawn: p.withdrawn})
	}
	for _, p := range a.pairings {
		info.Games = append(info.Games, p.gameID)
	}
	return info, nil
}

// joinArena joins acc to an arena, as TournamentApi.join (mu held); it
// returns lila's JoinResult error text, or "".
func (s *Server) joinArena(a *arena, acc *account, password, team string, pairMeAsap bool) string {
	if a == nil || a.status == arenaFinished {
		return "This tournament no longer exists"
	}
	prev := a.players[acc.id]
	if prev == nil && a.Password != "" && !entryCodeOK(a.Password, acc.id, password) {
		return "Wrong entry code"
	}
	if prev == nil && acc.Bot && !a.BotsAllowed {
		return "Tournament restrictions"
	}
	if a.TeamBattle != nil && prev == nil {
		members, ok := a.TeamBattle[team]
		if !ok || !containsFold(members, acc.Name) {
			return "Missing team"
		}
	}
	if prev == nil {
		prev = &arenaPlayer{acc: acc, team: team}
		a.players[acc.id] = prev
		a.order = append(a.order, acc.id)
	}
	prev.withdrawn = false
	if pairMeAsap && !a.playing(acc.id) {
		prev.apiUntil = s.now().Add(apiWaitFor)
	}
	return ""
}

// withdrawArena withdraws acc (TournamentApi.withdraw, mu held): removed
// from an arena not started, paused in a started one.
func (s *Server) withdrawArena(a *arena, acc *account) {
	p := a.players[acc.id]
	if p == nil {
		return
	}
	switch a.status {
	case arenaCreated:
		delete(a.players, acc.id)
		a.order = removeString(a.order, acc.id)
	case arenaStarted:
		p.withdrawn = true
		p.apiUntil = time.Time{}
		delete(a.waiting, acc.id)
	}
}

func removeString(list []string, v string) []string {
	out := list[:0]
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
