package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis/comparerun"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/demo"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/internal/web"
	"github.com/outpostchess/outpost/lichess"
)

func runRun(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "run", "[--config FILE] [--sandbox [--games N] [--tc BASE+INC] [--sparring ENGINE] [--variant standard|chess960|fromPosition] [--fen FEN] [--time-scale X]]")
	cfgPath := configFlag(fs, "configuration file (TOML); default: built-in defaults")
	sb := fs.Bool("sandbox", false, "run against an embedded Lichess sandbox with a sparring partner (offline demo)")
	games := fs.Int("games", 0, "with --sandbox: exit 0 once this many games are over and summarised (0 = run until killed)")
	tc := fs.String("tc", "1+0", "with --sandbox: the sparring partner's time control, MINUTES+SECONDS")
	sparring := fs.String("sparring", "easy", "with --sandbox: the sparring partner's engine")
	variant := fs.String("variant", "standard", "with --sandbox: the sparring partner's variant: standard, chess960 (a random start position, or --fen) or fromPosition (with --fen)")
	fen := fs.String("fen", "", "with --sandbox: the start position of the sparring partner's challenges")
	timeScale := fs.Float64("time-scale", 1, "with --sandbox: run real-time games on clocks scaled by this factor, 0.01 to 1: initial time, increment and first-move deadline (0.1 plays --tc 3+2 on 18 s + 0.2 s clocks; the speed stays the time control's)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 0, "games"); err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	var secrets []string
	var token lichess.Token
	if !*sb {
		var err error
		if token, err = lichess.LoadToken(os.Getenv, cfg.Lichess.TokenFile); err != nil {
			return err
		}
		secrets = append(secrets, string(token))
	}
	closeLog, err := withLogFile(env, cfg, secrets...)
	if err != nil {
		return err
	}
	defer closeLog()
	if *sb {
		o := demoOptions{games: *games, tc: *tc, sparring: *sparring, variant: *variant, fen: *fen, timeScale: *timeScale}
		if err := o.check(); err != nil {
			fmt.Fprintf(env.Stderr, "outpost run: %v\n", err)
			fs.Usage()
			return errUsage
		}
		return runSandboxDemo(ctx, env, cfg, o)
	}
	return runLive(ctx, env, cfg, *cfgPath, token)
}

// runLive runs the daemon against Lichess (cfg's [lichess]) with its
// store, summaries, verification, console and scheduled comparisons.
func runLive(ctx context.Context, env *Env, cfg *config.Config, cfgPath string, token lichess.Token) error {
	log := env.logger()
	st, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return err
	}
	defer st.Close()
	copt := daemon.ClientOptions(cfg, cfg.Lichess.URL, token, log)
	if err := daemon.PersistLockouts(ctx, st, &copt, log); err != nil {
		return err
	}
	client, err := lichess.New(copt)
	if err != nil {
		return err
	}
	sum := postgame.FromConfig(cfg, "", log)
	defer sum.Close()
	maia, pred, closeMaia := maiaOption(cfg, log)
	defer closeMaia()
	sum.WithConfigEWR(cfg, pred, st, cfg.Summary.EWRTimeout, log)
	dopt := daemon.Options{Config: cfg, Client: client, Store: st,
		Engines: daemon.NewEngineFactory(cfg, log, maia...), Summariser: sum, Logger: log}
	if err := verify.Attach(&dopt, cfg, client, st, log); err != nil {
		return err
	}
	d, err := daemon.New(dopt)
	if err != nil {
		return err
	}
	if cfg.Web.Enabled {
		if err := addConsole(ctx, env, cfg, cfgPath, st, d); err != nil {
			return err
		}
	}
	if cfg.Compare.Enabled {
		if err := addCompareSchedule(cfg, client, st, log, d); err != nil {
			return err
		}
	}
	return d.Run(ctx)
}

// addCompareSchedule runs the scheduled comparisons ([compare]) in the
// daemon's background.
func addCompareSchedule(cfg *config.Config, client *lichess.Client, st *store.Store, log zerolog.Logger, d *daemon.Daemon) error {
	schedule, err := daemon.CompareSchedule(cfg.Compare, cfg.Analysis)
	if err != nil {
		return err
	}
	sched, err := comparerun.NewScheduler(comparerun.SchedulerConfig{Compare: schedule,
		Client: client, Store: st, Logger: log})
	if err != nil {
		return err
	}
	d.AddBackground(sched.RunBackground)
	return nil
}

// addConsole runs the web console ([web]) next to the daemon's games.
func addConsole(ctx context.Context, env *Env, cfg *config.Config, cfgPath string, st *store.Store, d *daemon.Daemon) error {
	token, err := web.ReadAccessToken(cfg.Web.AccessTokenFile)
	if err != nil {
		return err
	}
	if !web.IsLoopback(cfg.Web.Addr) && token == "" {
		return fmt.Errorf("web.addr %s is not a loopback address: set web.access_token_file", cfg.Web.Addr)
	}
	lazy := newLazyEWR(ctx, env, cfg.Analysis.Engine, 1, cfg.Store.Path)
	opt := web.Options{Store: st, Status: d, Calculator: lazy, ConfigPath: cfgPath, AccessToken: token, Addr: cfg.Web.Addr, Logger: env.logger()}
	if mon := clusterconn.NewMonitor(cfg.Cluster, "outpost-console"); mon != nil {
		d.AddBackground(func(ctx context.Context) { <-ctx.Done(); mon.Close() })
		opt.Cluster = mon.Status
	}
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	log := env.logger()
	d.AddBackground(func(ctx context.Context) {
		defer lazy.Close()
		log.Info().Str("addr", cfg.Web.Addr).Msg("web console listening")
		if err := srv.ListenAndServe(ctx, cfg.Web.Addr); err != nil && ctx.Err() == nil {
			log.Error().Err(err).Msg("web console stopped")
		}
	})
	return nil
}

// demoOptions are the --sandbox flags.
type demoOptions struct {
	games    int
	tc       string
	sparring string
	variant  string // standard, chess960 or fromPosition
	fen      string
	// timeScale multiplies the sandbox's real-time clocks and first-move
	// deadlines (sandbox.Config.TimeScale); 1 is Lichess's real time.
	timeScale float64
}

// Bounds of --time-scale: below 0.01 a bullet game's clock is a fraction of
// a second, less than the network-lag reserve the bot keeps; above 1 the
// sandbox would run slower than Lichess, which no test or demo needs.
const (
	minTimeScale = 0.01
	maxTimeScale = 1
)

// check validates the variant, start position and time-scale flags.
func (o *demoOptions) check() error {
	if !(o.timeScale >= minTimeScale && o.timeScale <= maxTimeScale) { // NaN too
		return fmt.Errorf("--time-scale %v: want %v to %v (1 = Lichess's real clocks)", o.timeScale, minTimeScale, maxTimeScale)
	}
	switch o.variant {
	case "standard", "":
		if o.fen != "" {
			o.variant = "fromPosition"
		}
	case "chess960":
		if _, ok := board.Chess960Number(o.fen); o.fen != "" && !ok {
			return fmt.Errorf("--fen %q: not a Chess960 start position", o.fen)
		}
	case "fromPosition":
		if o.fen == "" {
			return errors.New("--variant fromPosition needs --fen")
		}
	default:
		return fmt.Errorf("--variant %q: want standard, chess960 or fromPosition", o.variant)
	}
	if o.fen != "" {
		if _, err := board.FromFENVariant(o.fen, o.variant == "chess960"); err != nil {
			return fmt.Errorf("--fen: %w", err)
		}
	}
	return nil
}

// runSandboxDemo runs the daemon against an embedded sandbox and prints each
// finished game's PGN and chat transcript.
func runSandboxDemo(ctx context.Context, env *Env, cfg *config.Config, o demoOptions) error {
	log := env.logger()
	sum := postgame.FromConfig(cfg, demo.BotName, log)
	defer sum.Close()
	maia, pred, closeMaia := maiaOption(cfg, log)
	defer closeMaia()
	// A demo of N games exists to show its summaries: each waits for its
	// expected-winrate line however busy the machine (the calculation ends
	// on its own, and Ctrl-C ends the wait); an open-ended sandbox run
	// keeps the daemon's bound, [summary] ewr_timeout.
	bound := cfg.Summary.EWRTimeout
	if o.games > 0 {
		bound = 0
	}
	sum.WithConfigEWR(cfg, pred, nil, bound, log)
	variant := o.variant
	if variant == "standard" || variant == "fromPosition" {
		variant = "" // the sandbox makes a game with a FEN fromPosition
	}
	dopt := demo.Options{Config: cfg, Games: o.games, TC: o.tc, Sparring: o.sparring,
		SparringVariant: variant, SparringFEN: o.fen,
		Out: env.Stdout, Summariser: sum, Logger: log, EngineOptions: maia}
	dopt.Sandbox.TimeScale = o.timeScale
	if cfg.Verify.Enabled {
		fish := sandboxFishnet(cfg, demoFishnetNodes, demoCloudDepth)
		defer fish.Close()
		dopt.Sandbox.Analyser = fish
	}
	res, err := demo.Run(ctx, dopt)
	if err != nil {
		if o.games == 0 && ctx.Err() != nil {
			return nil // interrupted an open-ended run: a normal end
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "\n%d games played; store and PGNs in %s\n", len(res.Summary), res.StoreDir)
	return nil
}
