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
		OnRung: func(r match.Rung) {
			fmt.Fprintf(out, "  UCI_Elo %4d: +%d -%d =%d  score %.1f%%\n", r.Elo, r.Wins, r.Losses, r.Draws, 100*r.Score())
		},
	})
	if err != nil {
		return err
	}
	label := fmt.Sprintf("%s-equivalent Elo at %g s/move on this machine", strings.ReplaceAll(refName, " ", "-"), *play.tc)
	games := 0
	for _, r := range res.Rungs {
		games += r.Games()
	}
	switch res.Fit.Bound {
	case "above":
		fmt.Fprintf(out, "%s: above %d (won every game; %d games)\n", label, res.Rungs[len(res.Rungs)-1].Elo, games)
	case "below":
		fmt.Fprintf(out, "%s: below %d (lost every game; %d games)\n", label, res.Rungs[len(res.Rungs)-1].Elo, games)
	default:
		fmt.Fprintf(out, "%s: %.0f ± %.0f (95%%, %d games)\n", label, res.Fit.Elo, res.Fit.Error, games)
	}
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
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("--rungs: %d does not increase", n)
		}
		out = append(out, n)
	}
	return out, nil
}
