package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/terminal"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
)

const analyseSynopsis = "[--nodes N | --depth N | --preset quick|lichess|deep] [--threads N] [--workers N] [--hash MB] [--engine CMD] [--lichess-evals] [--format text|json|pgn|html] [--out FILE] [--server URL | --offline] [--ewr [--ewr-threshold 0.1] [--ewr-depth 15] [--ewr-loss -0.1] [--maia RATING] [--ewr-time 60s] [--bot NAME] [--ewr-bot-moves 5] [--ewr-store FILE] [--ewr-engine CMD]] INPUT..."

// analyseFetcher returns the fetcher for Lichess game ids and URLs given as
// inputs (lichess.org, or $OUTPOST_CONFIG's [lichess] url; the token, when
// set, from LICHESS_TOKEN); nil means offline ("not available offline"
// errors). A config that does not load or a server that is not an http(s)
// URL is an error, not a silent fall back to offline.
func analyseFetcher(env *Env, server string, offline bool) (input.Fetcher, error) {
	if offline {
		return nil, nil
	}
	cfg, err := loadConfig(os.Getenv("OUTPOST_CONFIG"))
	if err != nil {
		return nil, fmt.Errorf("OUTPOST_CONFIG: %w", err)
	}
	f, err := lichessFetcher(env, cfg, server)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// runAnalyse implements `outpost analyse`: its flags, then reading the
// inputs, analysis.AnalyseBatch, --ewr's moments and the output.
// Long: twenty flag definitions; the work is in the helpers it calls.
func runAnalyse(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "analyse", analyseSynopsis)
	nodes := fs.Int64("nodes", 0, "nodes per position (default 1000000, Lichess's budget)")
	depth := fs.Int("depth", 0, "depth per position instead of nodes")
	preset := fs.String("preset", "", "budget preset: quick (100k nodes), lichess (1M nodes), lichess-sf15 (1.5M nodes, fresh hash per position, as fishnet 2.6 with Stockfish 15.1), lichess-sf18 (1M nodes in chunks, as fishnet 2.13.0 with Stockfish 18: use --engine sf18), deep (5M nodes)")
	threads := fs.Int("threads", 1, "engine threads per worker")
	workers := fs.Int("workers", 0, "engines run in parallel (default: CPUs / threads)")
	hash := fs.Int("hash", analysis.DefaultHashMB, "engine hash per worker, MB (16: Stockfish's default, as Lichess's fishnet)")
	engine := fs.String("engine", strings.Join(analysis.ComparisonEngine(), " "), "UCI engine command line, or an engine name: sf15 (Stockfish 15.1), sf19 (Stockfish 19), auto (19 when installed, else 15.1)")
	band := fs.Float64("borderline-band", analysis.DefaultBorderlineBand, "re-search plies whose delta is this close to a threshold deeper (negative: off)")
	lichessEvals := fs.Bool("lichess-evals", false, "classify from the evals in the input (Lichess's analysis), no engine")
	format := fs.String("format", "text", "output format: text, json, pgn (Lichess literate PGN) or html (one self-contained report)")
	out := fs.String("out", "", "write the output to FILE instead of stdout")
	server := fs.String("server", "", "Lichess server for game ids and URLs (default: $OUTPOST_CONFIG's [lichess] url, else https://lichess.org)")
	offline := fs.Bool("offline", false, "never fetch games: game ids and URLs are errors")
	cl := addClusterFlags(fs, "NATS URL of an analysis cluster: the positions go to its workers (default: $OUTPOST_CONFIG's cluster.url; none: in-process)")
	ewrFlags := addAnalyseEWRFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkAnalyseLine(fs, *format); err != nil {
		return err
	}
	if err := checkClusterURL(*cl.url); err != nil {
		return err
	}
	if err := checkOutNotInput(*out, fs.Args()); err != nil {
		return err
	}
	if err := checkServerURL("--server", *server); err != nil {
		return err
	}
	if *lichessEvals {
		unused := []string{"nodes", "depth", "preset", "threads", "engine", "borderline-band", "cluster", "creds", "tls-ca"}
		if !*ewrFlags.on {
			unused = append(unused, "workers", "hash") // --ewr's Stockfish engines use them
		}
		if err := refuseUnused(fs, "--lichess-evals", "the input's evals are used and no engine runs", unused...); err != nil {
			return err
		}
	} else if cfg, err := analyseConfig(); err != nil {
		return err
	} else if err := checkClusterCreds(fs, cl, cfg.Cluster.URL); err != nil {
		return err
	}
	ewrParams, err := ewrFlags.params()
	if err != nil {
		return err
	}
	budget, err := analysis.ParseBudget(*nodes, *depth, *preset)
	if err != nil {
		return err
	}
	if budget.ByDate {
		return errors.New("--preset by-date is for outpost compare (it picks the engine per game); here name the preset, e.g. lichess-sf18 with --engine sf18")
	}
	log := env.logger()

	fetcher, err := analyseFetcher(env, *server, *offline)
	if err != nil {
		return err
	}
	run := &analyseRun{env: env, args: fs.Args(), fetcher: fetcher, format: *format, out: *out,
		opt: analysis.BatchOptions{LichessEvals: *lichessEvals,
			Engine: analysis.EngineOptions{Budget: budget, BorderlineBand: *band}},
		finish: func() {}, workers: *workers, hash: *hash, server: *server, offline: *offline}
	if !*lichessEvals {
		if run.opt.Pool, err = analysePool(*engine, *workers, *threads, *hash, log); err != nil {
			return err
		}
		cfg, err := analyseConfig()
		if err != nil {
			return err
		}
		if d := clusterconn.New(cl.apply(cfg.Cluster), "", "outpost-analyse", log); d != nil {
			if err := checkClusterEngine(run.opt.Pool.Command, "--engine", *threads, *hash, "--hash"); err != nil {
				return err
			}
			run.opt.Pool.Dispatcher = d
		}
		run.opt.Engine.Progress, run.finish = terminal.Positions(env.Stderr, "analysing")
	}
	if *ewrFlags.on || *format == "html" {
		return run.all(ctx, ewrFlags, ewrParams)
	}
	return run.stream(ctx)
}

// analyseRun is one `outpost analyse` run once its flags are checked.
type analyseRun struct {
	env     *Env
	args    []string
	fetcher input.Fetcher
	opt     analysis.BatchOptions
	finish  func() // ends the progress bar
	format  string
	out     string
	workers int
	hash    int
	server  string
	offline bool
}

// stream analyses the inputs game by game (app.StreamAnalyses), writing
// each game's report as soon as it is analysed.
func (r *analyseRun) stream(ctx context.Context) (err error) {
	srcs, err := openAnalyseInputs(ctx, r.env, r.args, r.fetcher)
	if err != nil {
		return err
	}
	out, closeOut := analyseOutput(r.env, r.out)
	defer func() {
		if cerr := closeOut(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	return app.StreamAnalyses(ctx, app.Stream{Sources: srcs, Out: out, Format: r.format, Options: r.opt, Finish: r.finish,
		Skipped: func(bad error) { fmt.Fprintf(r.env.Stderr, "outpost analyse: skipped %s\n", bad) },
		Warning: r.env.analyseWarning, Logger: r.env.logger()})
}

// all reads every input, analyses every game, then writes the report: what
// --format html and --ewr need (the page and the expected-winrate moments
// are computed over all the games).
func (r *analyseRun) all(ctx context.Context, ewrFlags *analyseEWRFlags, ewrParams ewr.Params) error {
	env := r.env
	games, skipped, err := readAnalyseInputs(ctx, env, r.args, r.fetcher)
	if err != nil {
		return err
	}
	if len(games) > maxReportGames {
		what := "--format html"
		if *ewrFlags.on {
			what = "--ewr"
		}
		return fmt.Errorf("%s holds every game's analysis until the end: %d games in the input, at most %d (split the input, or use --format text, json or pgn, which stream any number)", what, len(games), maxReportGames)
	}
	if r.format == "html" {
		// the plies are known before any analysis: refuse at once
		key := func(i int) (string, int) {
			g := games[i]
			if g.ID != "" {
				return g.ID, len(g.Moves)
			}
			return fmt.Sprintf("%s#%d", g.Source, g.Index), len(g.Moves)
		}
		if err := htmlreport.CheckPage(len(games), key); err != nil {
			return fmt.Errorf("--format html: %w", err)
		}
	}
	var ewrCalc *analyseEWR
	if *ewrFlags.on && len(games) > 0 {
		if ewrCalc, err = openAnalyseEWR(env, ewrFlags, ewrParams, games); err != nil {
			return err
		}
		defer ewrCalc.close()
	}
	batch, err := analysis.AnalyseBatch(ctx, games, r.opt)
	r.finish()
	if err != nil {
		return err
	}
	analyses, interrupted := batch.Analyses, batch.Interrupted // interrupted: the finished games are still written
	skipped = append(skipped, batch.Skipped...)
	for _, s := range skipped {
		fmt.Fprintf(env.Stderr, "outpost analyse: skipped %s\n", s)
	}
	var moments report.EWRSet // nil: no --ewr
	var ewrErr error          // --ewr could not run: the analyses are still written
	if ewrCalc != nil && interrupted == nil && len(analyses) > 0 {
		n := r.workers
		if n <= 0 {
			n = runtime.NumCPU()
		}
		moments, ewrErr = ewrCalc.run(ctx, env, analyses, ewrCalc.botName(ctx, env, r.server, r.offline), n, r.hash)
		if ewrErr != nil && ctx.Err() != nil {
			interrupted, ewrErr = ewrErr, nil
		}
	}
	if err := writeAnalyseOutput(env, r.out, r.format, analyses, moments, skipped); err != nil {
		return err
	}
	if ewrErr != nil {
		return ewrErr
	}
	if interrupted != nil {
		return fmt.Errorf("interrupted after %d games: %w", len(analyses), interrupted)
	}
	if len(analyses) == 0 {
		return fmt.Errorf("no game analysed (%d skipped)", len(skipped))
	}
	return nil
}

// Bounds of `outpost analyse` (docs/operations.md, "Bounds").
const (
	// maxEngines caps --workers, as `outpost worker --engines`: more
	// engine processes than this only share the same cores (10000 started
	// 242 Stockfish processes before the machine gave out).
	maxEngines = 256
	// maxThreads caps --threads at Stockfish 15.1's own maximum of its
	// Threads option (512; 1000 was sent to the engine as it was).
	maxThreads = 512
	// maxDepth caps --depth: Stockfish stops deepening at 245 plies
	// (MAX_PLY) and depth 99 is already far beyond any analysis that ends
	// (Lichess's server analyses are 1M nodes, about depth 20-25).
	maxDepth = 99
	// maxBorderlineBand caps --borderline-band, a distance in Lichess's
	// winning chances (-1..1) to the judgement thresholds 0.1, 0.2 and 0.3:
	// at 0.1 the bands of neighbouring thresholds touch and every ply is
	// re-searched.
	maxBorderlineBand = 0.1
	// maxReportGames caps the games of --format html and --ewr, which hold
	// every game's analysis until the end (about 1 MB a game: 2275 games
	// peaked at 2.2 GB); text, json and pgn stream and have no such bound.
	maxReportGames = 200
)

// checkAnalyseLine checks the command line before anything runs.
func checkAnalyseLine(fs *flag.FlagSet, format string) error {
	if err := checkMin(fs, 1, "workers", "hash", "threads", "nodes", "depth"); err != nil {
		return err
	}
	if err := checkMax(fs, map[string]int64{"workers": maxEngines, "depth": maxDepth, "threads": maxThreads}); err != nil {
		return err
	}
	if err := checkBorderlineBand(fs); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("no INPUT given: %w", errUsage)
	}
	switch format {
	case "text", "json", "pgn", "html":
		return nil
	}
	return fmt.Errorf("--format %q: want text, json, pgn or html", format)
}

// checkBorderlineBand accepts a --borderline-band in (0, maxBorderlineBand]
// or negative (off); 0 would silently be the default.
func checkBorderlineBand(fs *flag.FlagSet) error {
	if !setFlags(fs)["borderline-band"] {
		return nil
	}
	b := fs.Lookup("borderline-band").Value.(flag.Getter).Get().(float64)
	if math.IsNaN(b) || b == 0 || b > maxBorderlineBand {
		return fmt.Errorf("--borderline-band %v: want a distance in (0, %v] of the winning-chance thresholds, or negative for off", b, maxBorderlineBand)
	}
	return nil
}

// analysePool is the engine pool of --engine, --workers (default: CPUs /
// threads), --threads and --hash.
func analysePool(engine string, workers, threads, hash int, log zerolog.Logger) (analysis.PoolConfig, error) {
	cmdline := strings.Fields(engine)
	if len(cmdline) == 0 {
		return analysis.PoolConfig{}, errors.New("--engine is empty")
	}
	if workers <= 0 {
		workers = max(1, runtime.NumCPU()/threads)
	}
	return analysis.PoolConfig{Command: cmdline, Workers: workers, Threads: threads, HashMB: hash, Logger: log}, nil
}

// readAnalyseInputs reads every input (all resolved first, as
// openAnalyseInputs); unreadable games become messages.
func readAnalyseInputs(ctx context.Context, env *Env, args []string, fetcher input.Fetcher) ([]*analysis.Game, []string, error) {
	srcs, err := openAnalyseInputs(ctx, env, args, fetcher)
	if err != nil {
		return nil, nil, err
	}
	var games []*analysis.Game
	var skipped []string
	for _, src := range srcs {
		gs, errs, err := src.Games(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", src.Name(), err)
		}
		for _, e := range errs {
			skipped = append(skipped, e.Error())
		}
		for _, g := range gs {
			for _, l := range g.WarningLines() {
				env.analyseWarning(g.Source, l)
			}
		}
		games = append(games, gs...)
	}
	return games, skipped, nil
}

// analyseWarning prints a warning of a game read (the game is kept and
// analysed) to standard error: "outpost analyse: g.pgn: game 2 (W–B): no
// result token at the end of the movetext".
func (e *Env) analyseWarning(source, line string) {
	fmt.Fprintf(e.Stderr, "outpost analyse: %s: %s\n", source, line)
}

// openAnalyseInputs resolves every input before any is read, so that a
// missing file or an unknown game id fails the run before anything runs.
func openAnalyseInputs(ctx context.Context, env *Env, args []string, fetcher input.Fetcher) ([]input.GameSource, error) {
	srcs := make([]input.GameSource, 0, len(args))
	for _, arg := range args {
		src, err := input.Open(ctx, arg, env.Stdin, fetcher)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	return srcs, nil
}

// checkOutNotInput refuses an --out that is one of the inputs: the same
// file by name, through a symbolic link or a hard link (os.SameFile), since
// writing the report would truncate the games before they are read. An
// input that is no file (a game id, a URL, "-") is not compared.
func checkOutNotInput(out string, inputs []string) error {
	if out == "" {
		return nil
	}
	of, err := os.Stat(out)
	if err != nil {
		return nil // no such file yet: it cannot be an input
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(of, fi) {
			return fmt.Errorf("--out %s is the input %s: writing the report would destroy it (write to another file)", out, in)
		}
	}
	return nil
}

// analyseOutput is --out (created when first written to) or stdout, and
// the function that closes it.
func analyseOutput(env *Env, path string) (io.Writer, func() error) {
	if path == "" {
		return env.Stdout, func() error { return nil }
	}
	lf := &lazyFile{path: path}
	return lf, lf.close
}

// lazyFile creates its file at the first Write: a run that fails before
// writing anything leaves no empty report behind.
type lazyFile struct {
	path string
	f    *os.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil {
		f, err := os.Create(l.path)
		if err != nil {
			return 0, fmt.Errorf("--out: %w", err)
		}
		l.f = f
	}
	return l.f.Write(p)
}

func (l *lazyFile) close() error {
	if l.f == nil {
		return nil
	}
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// writeAnalyseOutput writes the analyses (with their expected-winrate
// moments when moments is not nil) in format.
func writeAnalyseOutput(env *Env, path, format string, analyses []*analysis.Analysis, moments report.EWRSet, skipped []string) (err error) {
	var w io.Writer = env.Stdout
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("--out: %w", cerr)
			}
		}()
		w = f
	}
	// the report is written as it is rendered, in small pieces
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := app.WriteAnalyses(bw, format, analyses, moments, skipped); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}
