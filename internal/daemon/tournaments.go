package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// Tournaments ([tournaments]): the daemon joins Lichess arenas that admit
// bots, by id or every upcoming one of the listed creators and teams. It
// joins JoinBefore the start (at once, with pairMeAsap, when the arena has
// started), keeps one real-time game slot free while joined (slotsLocked
// counts it until an arena game holds a slot), never berserks (lila's
// TournamentApi.berserk ignores bots, and the BOT API has no berserk), and
// withdraws when the daemon shuts down (every shutdown mode: no new
// pairing; the running arena game then finishes, is aborted or is left as
// the mode says) or when the arena ends. lila pairs a joined bot whenever
// it is not playing (StartedOrganizer.fetchWaitingBots), so the games
// simply arrive as gameStart events with a tournamentId. A bad id, an arena
// closed to bots and a refused join are logged with lila's reason and
// dropped; nothing of it stops the daemon.

// Why the daemon left an arena (Hooks.ArenaLeft).
const (
	ArenaEnded    = "the arena ended"
	ArenaShutdown = "shutting down"
)

// arenaListMax bounds the arenas read from a creator's or a team's list
// each poll: the lists run last starting first, and a creator's next
// arenas are among its latest fifty.
const arenaListMax = 50

// arenaEntry is an arena the daemon follows.
type arenaEntry struct {
	name     string
	joined   bool
	startsAt time.Time
}

// arenaBook is the daemon's tournament state.
type arenaBook struct {
	mu      sync.Mutex
	entries map[string]*arenaEntry // followed arenas by id
	dropped map[string]bool        // arenas given up for good (bad id, refused)
	games   map[string]gameArena   // arena of each arena game seen, by game id
}

// gameArena names the arena of a game.
type gameArena struct{ id, name string }

func newArenaBook() *arenaBook {
	return &arenaBook{entries: map[string]*arenaEntry{}, dropped: map[string]bool{}, games: map[string]gameArena{}}
}

// joinedAny reports whether the daemon is in an arena now.
func (b *arenaBook) joinedAny() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.entries {
		if e.joined {
			return true
		}
	}
	return false
}

// arenaReservedLocked is the slot kept free for the arenas: one while
// joined, unless an arena game already holds a slot (d.mu held).
func (d *Daemon) arenaReservedLocked() int {
	if d.arenas == nil || !d.arenas.joinedAny() {
		return 0
	}
	for _, g := range d.games {
		if g.tournament != "" {
			return 0
		}
	}
	return 1
}

// tournaments follows the configured arenas every Poll until ctx ends (the
// shutdown), then withdraws from those joined.
func (d *Daemon) tournaments(ctx context.Context) {
	t := d.cfg.Tournaments
	tick := time.NewTicker(t.Poll)
	defer tick.Stop()
	for {
		d.pollArenas(ctx)
		select {
		case <-ctx.Done():
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			d.withdrawAll(wctx, ArenaShutdown)
			cancel()
			return
		case <-tick.C:
		}
	}
}

// pollArenas looks at every candidate arena once.
func (d *Daemon) pollArenas(ctx context.Context) {
	for _, id := range d.arenaCandidates(ctx) {
		if ctx.Err() != nil {
			return
		}
		d.followArena(ctx, id)
	}
}

// arenaCandidates are the configured arenas, the followed ones, and the
// creators' and teams' upcoming or started ones that admit bots.
func (d *Daemon) arenaCandidates(ctx context.Context) []string {
	t := d.cfg.Tournaments
	set := map[string]bool{}
	for _, id := range t.Arenas {
		set[id] = true
	}
	d.arenas.mu.Lock()
	for id := range d.arenas.entries {
		set[id] = true
	}
	d.arenas.mu.Unlock()
	add := func(a *lichess.Arena, err error, from string) bool {
		if err != nil {
			d.log.Warn().Err(err).Str("from", from).Msg("tournaments: list arenas")
			return false
		}
		if a.BotsAllowed && a.State() != lichess.ArenaFinished {
			set[a.ID] = true
		}
		return true
	}
	for _, u := range t.Creators {
		for a, err := range d.api.ArenasCreatedBy(ctx, u, arenaListMax, lichess.ArenaCreated, lichess.ArenaStarted) {
			if !add(a, err, u) {
				break
			}
		}
	}
	for _, team := range t.Teams {
		for a, err := range d.api.TeamArenas(ctx, team, "", arenaListMax) {
			if !add(a, err, team) {
				break
			}
		}
	}
	d.arenas.mu.Lock()
	defer d.arenas.mu.Unlock()
	out := make([]string, 0, len(set))
	for id := range set {
		if !d.arenas.dropped[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// followArena reads one arena and joins or leaves it as its state says.
func (d *Daemon) followArena(ctx context.Context, id string) {
	log := d.log.With().Str("arena", id).Logger()
	a, err := d.api.Arena(ctx, id, 0)
	switch {
	case errors.Is(err, lichess.ErrNotFound):
		log.Error().Msg("tournaments: no such arena on the server (check [tournaments] arenas); ignored from now on")
		d.dropArena(id, "no such arena")
		return
	case err != nil:
		if ctx.Err() == nil {
			log.Warn().Err(err).Msg("tournaments: read the arena; trying again at the next poll")
		}
		return
	}
	d.arenas.mu.Lock()
	e := d.arenas.entries[id]
	if e == nil {
		e = &arenaEntry{}
		d.arenas.entries[id] = e
	}
	e.name, e.startsAt = a.FullName, a.StartsAt.Time
	joined := e.joined
	d.arenas.mu.Unlock()
	state := a.State()
	switch {
	case state == lichess.ArenaFinished:
		if joined {
			d.leaveArena(ctx, id, ArenaEnded)
		}
		d.dropArena(id, "")
	case !a.BotsAllowed:
		log.Error().Str("name", a.FullName).Msg("tournaments: the arena does not admit BOT accounts (its conditions do not allow bots); ignored from now on")
		d.dropArena(id, "closed to bots")
	case joined && a.Me != nil && a.Me.Withdraw && state == lichess.ArenaStarted && !a.PairingsClosed:
		// lila withdrew us (a game without our first move): back in.
		log.Warn().Msg("tournaments: withdrawn by the server; joining again")
		d.joinArena(ctx, a)
	case !joined && d.wantsToJoin(a):
		d.joinArena(ctx, a)
	}
}

// wantsToJoin: not stopping, the arena started (pairings still open) or
// starting within JoinBefore.
func (d *Daemon) wantsToJoin(a *lichess.Arena) bool {
	d.mu.Lock()
	stopping := d.stopping
	d.mu.Unlock()
	if stopping {
		return false
	}
	switch a.State() {
	case lichess.ArenaStarted:
		return !a.PairingsClosed
	case lichess.ArenaCreated:
		return time.Duration(a.SecondsToStart)*time.Second <= d.cfg.Tournaments.JoinBefore
	}
	return false
}

// joinArena joins with the entry code and team the configuration gives.
func (d *Daemon) joinArena(ctx context.Context, a *lichess.Arena) {
	t := d.cfg.Tournaments
	j := lichess.ArenaJoin{Password: t.EntryCodes[a.ID], PairMeAsap: a.State() == lichess.ArenaStarted}
	if a.TeamBattle != nil && t.Team != "" {
		j.Team = t.Team
	}
	log := d.log.With().Str("arena", a.ID).Str("name", a.FullName).Logger()
	err := d.api.JoinArena(ctx, a.ID, j)
	var apiErr *lichess.APIError
	switch {
	case errors.As(err, &apiErr) && (apiErr.Status == 400 || apiErr.Status == 403 || apiErr.Status == 404):
		log.Error().Str("reason", apiErr.Message).Msg("tournaments: the server refused to let us join; ignored from now on")
		d.dropArena(a.ID, apiErr.Message)
		return
	case err != nil:
		if ctx.Err() == nil {
			log.Warn().Err(err).Msg("tournaments: join; trying again at the next poll")
		}
		return
	}
	d.arenas.mu.Lock()
	if e := d.arenas.entries[a.ID]; e != nil {
		e.joined = true
	}
	d.arenas.mu.Unlock()
	log.Info().Bool("started", a.State() == lichess.ArenaStarted).Msg("tournaments: joined the arena")
	if h := d.hooks.ArenaJoined; h != nil {
		h(a.ID)
	}
}

// leaveArena withdraws from a joined arena.
func (d *Daemon) leaveArena(ctx context.Context, id, why string) {
	err := d.api.WithdrawArena(ctx, id)
	if err != nil {
		d.log.Warn().Err(err).Str("arena", id).Msg("tournaments: withdraw")
	}
	d.arenas.mu.Lock()
	if e := d.arenas.entries[id]; e != nil {
		e.joined = false
	}
	d.arenas.mu.Unlock()
	d.log.Info().Str("arena", id).Str("why", why).Msg("tournaments: left the arena")
	if h := d.hooks.ArenaLeft; h != nil {
		h(id, why)
	}
}

// dropArena stops following an arena; why, when set, is kept for the log.
func (d *Daemon) dropArena(id, why string) {
	d.arenas.mu.Lock()
	defer d.arenas.mu.Unlock()
	delete(d.arenas.entries, id)
	d.arenas.dropped[id] = true
	if why != "" {
		d.log.Debug().Str("arena", id).Str("why", why).Msg("tournaments: dropped")
	}
}

// withdrawAll withdraws from every joined arena.
func (d *Daemon) withdrawAll(ctx context.Context, why string) {
	d.arenas.mu.Lock()
	var ids []string
	for id, e := range d.arenas.entries {
		if e.joined {
			ids = append(ids, id)
		}
	}
	d.arenas.mu.Unlock()
	sort.Strings(ids)
	for _, id := range ids {
		d.leaveArena(ctx, id, why)
	}
}

// noteArenaGame remembers the arena of a game that started ("" for a game
// outside arenas, so that its summary needs no export to know it).
func (d *Daemon) noteArenaGame(gameID, arenaID string) {
	if d.arenas == nil {
		return
	}
	d.arenas.mu.Lock()
	defer d.arenas.mu.Unlock()
	name := ""
	if e := d.arenas.entries[arenaID]; e != nil {
		name = e.name
	}
	d.arenas.games[gameID] = gameArena{id: arenaID, name: name}
}

// arenaOfGame names the arena of a finished game: from memory, else (after
// a restart) from the game's export (arenaTour); ok is false for a game
// outside arenas.
func (d *Daemon) arenaOfGame(ctx context.Context, gameID string) (ga gameArena, ok bool) {
	if d.arenas == nil {
		return gameArena{}, false
	}
	d.arenas.mu.Lock()
	ga, seen := d.arenas.games[gameID]
	d.arenas.mu.Unlock()
	if seen && (ga.id == "" || ga.name != "") {
		return ga, ga.id != ""
	}
	// Not seen starting (a restart), or its arena's name unknown: the
	// export's arenaTour names it.
	g, err := d.api.ExportGame(ctx, gameID, lichess.ExportOptions{})
	if err != nil || len(g.Tournament) == 0 {
		return ga, ga.id != ""
	}
	var tour struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(g.Tournament, &tour); err != nil || tour.ID == "" {
		return ga, ga.id != ""
	}
	return gameArena{id: tour.ID, name: tour.Name}, true
}

// withArenaLine adds the line naming the arena to an arena game's summary.
func (d *Daemon) withArenaLine(ctx context.Context, gameID string, lines []string) []string {
	ga, ok := d.arenaOfGame(ctx, gameID)
	if !ok {
		return lines
	}
	name := ga.name
	if name == "" {
		name = "Arena"
	}
	line := fmt.Sprintf("%s: %s/tournament/%s", name, strings.TrimRight(d.api.BaseURL(), "/"), ga.id)
	if len(line) > 140 {
		line = line[:140]
	}
	return append([]string{line}, lines...)
}
