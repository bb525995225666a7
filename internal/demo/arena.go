package demo

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// The arena demo (outpost run --sandbox --arena N): instead of a sparring
// partner's challenges, the sandbox holds an arena that admits bots, N
// sparring bots join it, and the daemon plays it through [tournaments]
// until it ends.

// arenaEnded is why the daemon leaves an arena that ended.
const arenaEnded = daemon.ArenaEnded

// DefaultArenaDuration is the demo arena's length when none is given.
const DefaultArenaDuration = 5 * time.Minute

// arenaPoll is how often the demo's daemon looks at its arena: often, so
// that it notices the end at once (a live daemon polls every
// [tournaments] poll).
const arenaPoll = 200 * time.Millisecond

// arenaBotName names the i-th arena sparring bot.
func arenaBotName(i int) string { return fmt.Sprintf("ArenaBot%d", i+1) }

// addArenaBots adds the arena's sparring bots to opt.Bots and turns the
// human sparring partner off.
func (opt *Options) addArenaBots() {
	if opt.Arena <= 0 {
		return
	}
	opt.NoSparring = true
	bots := append([]SparringBot(nil), opt.Bots...)
	for i := 0; i < opt.Arena; i++ {
		// Ratings spread around the bot's 1500, so that the ranking and
		// the pairing weights have something to tell apart.
		bots = append(bots, SparringBot{Name: arenaBotName(i), Rating: 1400 + 50*i, Engine: opt.Sparring,
			ResignAfter: opt.SparringResignAfter, inArena: true})
	}
	opt.Bots = bots
}

// createArena creates the demo arena and points the daemon's
// configuration at it; it returns the arena's id ("" without an arena).
func (opt *Options) createArena(srv *sandbox.Server, tc config.TimeControl, cfg *config.Config) (string, error) {
	if opt.Arena <= 0 {
		return "", nil
	}
	dur := opt.ArenaDuration
	if dur <= 0 {
		dur = DefaultArenaDuration
	}
	id, err := srv.CreateArena(sandbox.ArenaSpec{Name: "Sandbox Bot Arena", Limit: tc.Base, Increment: tc.Increment,
		Duration: dur, BotsAllowed: true, StartIn: opt.ArenaStartIn})
	if err != nil {
		return "", fmt.Errorf("demo: create the arena: %w", err)
	}
	cfg.Tournaments.Enabled = true
	cfg.Tournaments.Arenas = append(append([]string(nil), cfg.Tournaments.Arenas...), id)
	cfg.Tournaments.Poll = arenaPoll
	cfg.Matchmaking.Enabled = false
	return id, nil
}

// joinArena has a sparring bot join the demo arena.
func (b *sparBot) joinArena(ctx context.Context) {
	if !b.spec.inArena || b.arena == "" {
		return
	}
	if err := b.client.JoinArena(ctx, b.arena, lichess.ArenaJoin{PairMeAsap: true}); err != nil && ctx.Err() == nil {
		b.log.Error().Err(err).Str("arena", b.arena).Msg("join the arena")
	}
}

// printArena writes the arena's final standing.
func printArena(w io.Writer, srv *sandbox.Server, id string) *sandbox.ArenaInfo {
	info, err := srv.InspectArena(id)
	if err != nil {
		fmt.Fprintf(w, "arena %s: %v\n", id, err)
		return nil
	}
	fmt.Fprintf(w, "\nArena %s: %d games, final standing (lila's scoring; sheet most recent first)\n", id, len(info.Games))
	for _, p := range info.Standing {
		fire := ""
		if p.Fire {
			fire = " (on fire)"
		}
		fmt.Fprintf(w, "%3d. %-12s %3d  %s%s\n", p.Rank, p.Name, p.Score, p.Sheet, fire)
	}
	return &info
}
