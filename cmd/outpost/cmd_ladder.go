package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/match"
)

// runLadder estimates an engine's Elo against Stockfish's UCI_Elo levels.
func runLadder(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "ladder", "--engine SPEC [--games-per-rung N] [--tc SECONDS] [--rungs LIST]")
	spec := fs.String("engine", "", engineSpecUsage("engine under test"))
	perRung := fs.Int("games-per-rung", 10, "games at each rung visited")
	play := addPlayFlags(fs, "seconds per move, for both engines", "seed for random engines")
	rungList := fs.String("rungs", "", "comma-separated UCI_Elo rungs (default 1350,1600,…,2850)")
	sfPath := fs.String("stockfish", enginepath.Stockfish15, "Stockfish: an engine name (sf15: the native 15.1 build, else Debian's; sf18) or a path")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *spec == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if err := play.check(); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "games-per-rung"); err != nil {
		return err
	}
	rungs, err := parseRungs(*rungList)
	if err != nil {
		return err
	}
	r, err := enginepath.Resolve([]string{*sfPath})
	if err != nil {
		return fmt.Errorf("--stockfish: %w", err)
	}
	path := r.Command[0]
	log := env.logger()
	opponent := func(ctx context.Context, elo int) (engine.Engine, error) {
		return bots.New(ctx, "uci:"+path, bots.WithElo(elo), bots.WithHashMB(16), bots.WithThreads(1), bots.WithLogger(log))
	}
	// The label names the reference engine as it names itself.
	ref, err := opponent(ctx, 1350)
	if err != nil {
		return err
	}
	refName := ref.Name()
	ref.Close()

	out := env.Stdout
	fmt.Fprintf(out, "ladder: %s against %s at %g s/move, %d games per rung\n", *spec, refName, *play.tc, *perRung)
	res, err := match.Ladder(ctx, match.LadderConfig{
		Engine:   play.engines(log)(*spec),
		Opponent: opponent, Rungs: rungs, GamesPerRung: *perRung,
		MoveTime: play.moveTime(), Tolerance: play.overrun(), Concurrency: *play.concurrency, Logger: log,
		OnRung: func(r match.Rung) { r.WriteLine(out) },
	})
	if err != nil {
		return err
	}
	res.WriteSummary(out, refName, *play.tc)
	return nil
}

// parseRungs parses "1350,1600,…"; empty means the default ladder.
func parseRungs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--rungs: %q is not an integer", f)
		}
		if n < minRungElo || n > maxRungElo {
			return nil, fmt.Errorf("--rungs: %d is outside Stockfish's UCI_Elo range %d..%d", n, minRungElo, maxRungElo)
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("--rungs: %d does not increase", n)
		}
		out = append(out, n)
	}
	return out, nil
}
