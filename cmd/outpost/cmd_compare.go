package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/duration"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/terminal"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
)

const compareSynopsis = "(--user NAME [--since 30d] [--max 50] [--server URL] | --pgn FILE | --bot [--max 50]) [--preset P | --nodes N] [--workers N] [--threads N] [--engine CMD] [--store FILE] [--config FILE] [--last] [--json] [--detect-period]"

// runCompare implements `outpost compare`; the runs are internal/comparerun's.
// Long: eighteen flag definitions and three modes (--bot, --last, a run).
func runCompare(ctx context.Context, env *Env, args []string) (err error) {
	fs := newFlags(env, "compare", compareSynopsis)
	cfgPath := configFlag(fs, "configuration file (TOML): [lichess] url, [store] path, [analysis] hash, [compare] defaults and engine")
	user := fs.String("user", "", "Lichess user whose analysed games are compared")
	pgnFile := fs.String("pgn", "", "compare offline: a PGN or JSON file carrying Lichess's analysis")
	sinceS := fs.String("since", "", `how far back games are fetched, e.g. "30d" (default: the config's compare.since, 30d)`)
	maxGames := fs.Int("max", 0, "games at most (default: the config's compare.max_games, 50)")
	server := fs.String("server", "", "Lichess base URL, e.g. an outpost sandbox (default: the config's lichess.url, else https://lichess.org)")
	preset := fs.String("preset", "", "budget preset: quick, lichess (1M nodes), lichess-sf15, lichess-sf16, lichess-sf16-2.8, lichess-sf17.1, lichess-sf18, deep, or by-date (each game with the preset and engine of its period of Lichess's analysis); a lichess-sfN preset runs its engine sfN unless --engine is given (default: the config's compare preset, by-date)")
	detect := fs.Bool("detect-period", false, "detect each game's period of Lichess's analysis from its evals (each obtainable period's method on 5 positions past ply 16); with by-date, the detected period's preset and engine run")
	nodes := fs.Int64("nodes", 0, "nodes per position instead of a preset")
	workers := fs.Int("workers", 0, "engines run in parallel (default: CPUs / threads)")
	threads := fs.Int("threads", 1, "engine threads per worker")
	hash := fs.Int("hash", 0, "engine hash per worker, MB (default: the config's analysis.hash_mb)")
	engine := fs.String("engine", "", "UCI engine command line, or an engine name: sf15 (Stockfish 15.1), sf16, sf17.1, sf18, sf19 (Stockfish 19), auto (19 when installed, else 15.1); by-date and the lichess-sfN presets run their own engine instead, except with this flag (default: the config's compare.engine, Stockfish 15.1)")
	band := fs.Float64("borderline-band", 0, fmt.Sprintf("re-search plies whose delta is this close to a threshold deeper (negative: off; default %v, off for the games whose preset and engine reproduce Lichess's engine run exactly)", analysis.DefaultBorderlineBand))
	storePath := fs.String("store", "", "SQLite file of the runs (default: the config's store.path)")
	trend := fs.Int("trend", comparerun.DefaultTrendRuns, "runs shown in the trend, this one included")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	cl := addClusterFlags(fs, "NATS URL of an analysis cluster: the positions go to its workers (default: the config's cluster.url; none: in-process)")
	last := fs.Bool("last", false, "print the newest stored report (e.g. of a scheduled run) without running anything")
	bot := fs.Bool("bot", false, "list the bot's own games as the daemon verified them against Lichess ([verify]: cloud evals, Lichess's server analysis), from the store; no network, no engine")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "workers", "hash", "threads", "max", "trend"); err != nil {
		return err
	}
	if *bot {
		if *user != "" || *pgnFile != "" || fs.NArg() > 0 {
			fmt.Fprintln(env.Stderr, "outpost compare: --bot takes no --user, --pgn or arguments")
			return errUsage
		}
		return printBotVerifications(ctx, env, *cfgPath, *storePath, *maxGames, *asJSON)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "outpost compare: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return errUsage
	}
	if (*user == "") == (*pgnFile == "") {
		fmt.Fprintln(env.Stderr, "outpost compare: give exactly one of --user, --pgn and --bot")
		fs.Usage()
		return errUsage
	}
	if err := checkClusterURL(*cl.url); err != nil {
		return err
	}
	if err := checkServerURL("--server", *server); err != nil {
		return err
	}
	if *pgnFile != "" {
		if err := refuseUnused(fs, "--pgn", "the games come from the file, not from Lichess", "since", "max", "server"); err != nil {
			return err
		}
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	if err := checkClusterCreds(fs, cl, cfg.Cluster.URL); err != nil {
		return err
	}
	budget, err := compareBudget(fs, cfg.Compare, *nodes, *preset)
	if err != nil {
		return err
	}
	cmdline := cfg.Compare.Engine
	if *engine != "" {
		cmdline = strings.Fields(*engine)
	}
	if *threads < 1 {
		return fmt.Errorf("--threads %d: want at least 1", *threads)
	}
	n := *workers
	if n <= 0 {
		n = max(1, runtime.NumCPU() / *threads)
	}
	hashMB := cfg.Analysis.HashMB
	if *hash > 0 {
		hashMB = *hash
	}
	path := cfg.Store.Path
	if *storePath != "" {
		path = *storePath
	}
	log := env.logger()
	if *last {
		return printLastCompare(ctx, env, path, comparerun.Request{File: *pgnFile, User: *user}, *trend, *asJSON)
	}
	dispatcher := clusterconn.New(cl.apply(cfg.Cluster), "", "outpost-compare", log)
	pick := comparerun.PickEngine(budget, cmdline, *engine != "")
	cmdline = pick.Command
	if dispatcher == nil {
		if cmdline, err = pick.Resolve(presetSource(fs), log); err != nil {
			if pick.Preset != "" {
				return err
			}
			return fmt.Errorf("--engine: %w", err)
		}
	} else if err := checkClusterEngine(cmdline, "--engine (or compare.engine)", *threads, hashMB, "--hash (or analysis.hash_mb)"); err != nil {
		return err // with a cluster, each worker resolves the engine name on its machine
	}

	req := comparerun.Request{File: *pgnFile, User: *user, Since: cfg.Compare.Since, Max: cfg.Compare.MaxGames}
	if *user != "" {
		if req.Fetcher, err = lichessFetcher(env, cfg, *server); err != nil {
			return err
		}
		if *sinceS != "" {
			if req.Since, err = duration.Parse(*sinceS); err != nil {
				return fmt.Errorf("--since: %w", err)
			}
		}
		if *maxGames < 0 {
			return fmt.Errorf("--max %d: want 1 or more", *maxGames)
		}
		if *maxGames > 0 {
			req.Max = *maxGames
		}
	}
	src, err := req.Source()
	if err != nil {
		return fmt.Errorf("--pgn or --user: %w", err)
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer closeOnReturn(&err, "the store", st.Close)
	if *user != "" && !*asJSON {
		if note := standInNote(*server, cfg.Lichess.URL); note != "" {
			fmt.Fprintln(env.Stdout, note)
		}
	}
	bar, finish := terminal.Positions(env.Stderr, "comparing")
	c := &comparerun.Comparer{
		Store:          st,
		Pool:           analysis.PoolConfig{Command: cmdline, Workers: n, Threads: *threads, HashMB: hashMB, Logger: log, Dispatcher: asDispatcher(dispatcher)},
		Budget:         budget,
		BorderlineBand: *band,
		Progress:       bar,
		ProgressDone:   finish,
		TrendRuns:      *trend,
		Logger:         log,
		DetectPeriod:   *detect,
		EngineFrom:     pick.From,
		PresetEngine:   pick.Preset != "",
	}
	return c.Execute(ctx, src, *asJSON, env.Stdout)
}

// standInNote is the line heading a comparison of games fetched from a
// server other than lichess.org (server, else the config's url): the
// sandbox's stand-in, whose analysis the report's "Lichess" columns then
// are. "" for Lichess.
func standInNote(server, configURL string) string {
	if server == "" {
		server = configURL
	}
	if a := verify.AgainstURL(server); a != verify.Lichess {
		return fmt.Sprintf("Compared with %s at %s, not Lichess: below, \"Lichess\" stands for its analysis.", a.Name(), server)
	}
	return ""
}

// printLastCompare prints the newest finished run stored for the user or
// file.
func printLastCompare(ctx context.Context, env *Env, path string, req comparerun.Request, trend int, asJSON bool) (err error) {
	st, err := openExistingStore(ctx, path)
	if err != nil {
		return err
	}
	defer closeOnReturn(&err, "the store", st.Close)
	return comparerun.WriteLast(ctx, st, req.Key(), trend, asJSON, env.Stdout)
}

// presetSource names where the preset came from, for errors: the flag,
// else the config key.
func presetSource(fs *flag.FlagSet) string {
	if setFlags(fs)["preset"] {
		return "--preset"
	}
	return "compare.preset"
}

// compareBudget picks the budget: --nodes, --preset, else the config's
// [compare] nodes or preset.
func compareBudget(fs *flag.FlagSet, cc config.CompareConfig, nodes int64, preset string) (analysis.Budget, error) {
	set := setFlags(fs)
	switch {
	case set["nodes"] && set["preset"]:
		return analysis.Budget{}, errors.New("use only one of --nodes and --preset")
	case set["nodes"]:
		if nodes == 0 {
			return analysis.Budget{}, errors.New("--nodes 0: want a positive number")
		}
		return analysis.ParseBudget(nodes, 0, "")
	case set["preset"]:
		return analysis.ParseBudget(0, 0, preset)
	}
	return daemon.CompareBudget(cc)
}

// lichessFetcher returns a fetcher of Lichess games (with Lichess's
// analysis) for server, else the config's lichess.url. It also serves
// `outpost analyse` for game ids and URLs: analyseFetcher can return
// lichessFetcher(env, config.Default(), "") (an input.Fetcher).
func lichessFetcher(env *Env, cfg *config.Config, server string) (*comparerun.Fetcher, error) {
	c, err := compareClient(env, cfg, server)
	if err != nil {
		return nil, err
	}
	return comparerun.NewFetcher(c), nil
}

// compareClient builds the Lichess client: server, else the config's
// lichess.url; the token (LICHESS_TOKEN or lichess.token_file) is optional
// because exported games are public.
func compareClient(env *Env, cfg *config.Config, server string) (*lichess.Client, error) {
	source := "--server"
	if server == "" {
		server, source = cfg.Lichess.URL, "lichess.url"
	}
	token, err := lichess.LoadToken(os.Getenv, cfg.Lichess.TokenFile)
	if err != nil && !errors.Is(err, lichess.ErrNoToken) {
		return nil, err
	}
	c, err := lichess.New(daemon.ClientOptions(cfg, server, token, env.logger()))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return c, nil
}
