package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/terminal"
)

const ewrSynopsis = "[--fen FEN] [--moves \"UCI …\"] [--threshold 0.1] [--depth 15] [--loss -0.1] [--maia 1500] [--opponent-maia 1500] [--json] [--tree SAN] [--store FILE] [--clear-hash [--hash 16]] [--timeout 60s] [--exact | --fast | --tree-depth N [--full-depth-mass P] [--decision-margin M] [--volatility V]] | --bench [--compare [--bench-set holdout] [--compare-save FILE] [--compare-ref FILE] [--compare-only NAMES]]"

// runEWR implements `outpost ewr`: expected winrate of every reasonable
// move for a human of a given rating (Maia × Stockfish).
// Long: sixteen flag definitions; the calculation is analysis/ewr's.
func runEWR(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "ewr", ewrSynopsis)
	fen := fs.String("fen", "", "position to analyse, or the start position of --moves (default: standard start)")
	moves := fs.String("moves", "", "moves played from --fen, in UCI, space- or comma-separated (Maia sees the history)")
	threshold := fs.Float64("threshold", ewr.DefaultThreshold, "probability threshold: 0.1, 0.01 or 0.001")
	depth := fs.Int("depth", ewr.DefaultDepth, "Stockfish depth: 15, 20 or 25")
	loss := fs.Float64("loss", ewr.DefaultLossThreshold, "winrate loss threshold (-1..0): moves must keep base winrate + this")
	maia := fs.Int("maia", ewr.DefaultRating, "Maia rating of the side to move (1100..1900)")
	oppMaia := fs.Int("opponent-maia", 0, "Maia rating of the opponent (1100..1900; default: --maia)")
	maxNodes := fs.Int("max-nodes", ewr.DefaultMaxNodes, "node limit of all trees together")
	include := fs.String("include", "", "moves (UCI) to analyse even if they fail the loss filter")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	tree := fs.String("tree", "", "print this move's tree (SAN or UCI) after the table")
	storePath := fs.String("store", app.DefaultEWRStore(), "SQLite cache file (\"\" for no cache)")
	fresh := fs.Bool("fresh", false, "recalculate even if the whole result is cached (evaluations stay cached)")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit; when reached the partial result is printed with a warning (0: none)")
	workers := fs.Int("workers", runtime.NumCPU(), "Stockfish engines run in parallel")
	hash := fs.Int("hash", 128, "Stockfish hash per engine, MB (default 16, cleared before every search, in the settle mode and with --clear-hash; else 128, kept across the calculation)")
	clearEach := fs.Bool("clear-hash", false, "clear each engine's hash before every search: every evaluation a function of (position, depth) alone (always in the default, settle, mode; an option with --exact and --fast)")
	engine := fs.String("engine", strings.Join(analysis.DefaultEngineCommand(), " "), "UCI engine command line")
	exact := fs.Bool("exact", false, "the exact calculation, the reference: every position at --depth (default: the settle mode — trees towards --depth, ended at depth 12 or 13 when settled; within 1 pp of the exact calculation on the benchmarks, with --clear-hash)")
	fast := fs.Bool("fast", false, fmt.Sprintf("fast mode: the trees' positions at depth %d instead of --depth (the legal moves stay at --depth)", ewr.FastTreeDepth))
	treeDepth := fs.Int("tree-depth", 0, "Stockfish depth of the trees' positions (0: --depth; --fast sets it)")
	fullMass := fs.Float64("full-depth-mass", -1, "with --tree-depth or --fast: tree positions at least this likely (cumulative probability 0..1) stay at --depth (default 0: none)")
	margin := fs.Float64("decision-margin", -1, "with --tree-depth or --fast: the analysing player's moves whose tree-depth winrate is within this of the loss threshold are searched again at --depth (0..1; default 0: none)")
	volatility := fs.Float64("volatility", -1, "with --tree-depth or --fast and --clear-hash: the settle rule — tree positions searched towards --depth, ended at the tree depth when cumulative probability × their winrate's change over the two iterations before is at most this (and, with --decision-margin, clear of the threshold) (0..1; default 0: none)")
	compare := fs.Bool("compare", false, "with --bench: the exact calculation and the fast mode side by side, with the per-move difference")
	save := fs.String("compare-save", "", "with --compare: write every side's result and counts to this file (JSON lines)")
	repeat := fs.Bool("repeat", false, "with --compare: B is A calculated again (the exact calculation; with --fast or --tree-depth that mode on both sides), so max |Δ| is the run-to-run difference; with --compare-ref, A is the earlier run")
	only := fs.String("compare-only", "", "with --compare: only these benchmark positions (names, comma-separated)")
	set := fs.String("bench-set", "standard", "with --bench --compare: the positions, "+strings.Join(ewr.BenchSets, " or ")+" (a second set of ten from real games)")
	ref := fs.String("compare-ref", "", "with --compare: take the exact side (A) from a --compare-save file of the same parameters instead of calculating it")
	bench := fs.Bool("bench", false, "benchmark ten typical positions at these parameters: fresh, repeated (result cache), repeated (evaluation cache only), another Maia rating")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "workers", "hash", "max-nodes"); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	p := ewr.Params{Threshold: *threshold, Depth: *depth, LossThreshold: *loss, Rating: *maia, OpponentRating: *oppMaia, MaxNodes: *maxNodes}
	if !flagSet(fs, "opponent-maia") {
		p.OpponentRating = *maia
	}
	mode, err := ewrMode(fs, *exact, *fast)
	if err != nil {
		return err
	}
	if mode == "" {
		p.TreeDepth = *treeDepth // a variant of --tree-depth
	} else {
		p, _ = p.WithMode(mode)
	}
	if ewr.ModeClearsHash(mode) && mode != "" {
		if flagSet(fs, "clear-hash") && !*clearEach {
			return errors.New("--clear-hash=false: the settle mode (the default) needs it; give --exact or --fast for a calculation that keeps the hash")
		}
		*clearEach = true
	}
	if *clearEach && !flagSet(fs, "hash") {
		*hash = ewr.ClearHashMB
	}
	if flagSet(fs, "full-depth-mass") {
		p.FullDepthMass = *fullMass
	}
	var marginSet *float64
	if flagSet(fs, "decision-margin") {
		p.DecisionMargin, marginSet = *margin, margin
	}
	if flagSet(fs, "volatility") {
		if !*clearEach {
			return errors.New("--volatility needs --clear-hash: a search ended early is reproducible only from a cleared hash")
		}
		p.Volatility = *volatility
	}
	if *compare && !*bench {
		return errors.New("--compare needs --bench")
	}
	if (*save != "" || *ref != "" || *only != "" || *repeat) && !*compare {
		return errors.New("--compare-save, --compare-ref, --compare-only and --repeat need --bench --compare")
	}
	positions, ok := ewr.BenchSet(*set)
	if !ok {
		return fmt.Errorf("--bench-set %q: use %s", *set, strings.Join(ewr.BenchSets, " or "))
	}
	if flagSet(fs, "bench-set") && !*compare {
		return errors.New("--bench-set needs --bench --compare")
	}
	onlyNames, err := ewr.BenchPositionNamesOf(positions, *only)
	if err != nil {
		return fmt.Errorf("--compare-only: %w", err)
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if *workers < 1 {
		return fmt.Errorf("--workers %d: want at least 1", *workers)
	}
	cmdline := strings.Fields(*engine)
	if len(cmdline) == 0 {
		return errors.New("--engine is empty")
	}
	pos := ewr.Position{StartFEN: *fen, Moves: splitMoves(*moves)}
	if *bench {
		*storePath = ":memory:" // a fresh cache: the first pass is cold
	}
	calc, closeAll, err := app.OpenEWR(ctx, app.EWROptions{Engines: ewr.EngineConfig{Command: cmdline, Workers: *workers, HashMB: *hash, ClearEach: *clearEach},
		StorePath: *storePath, Logger: env.logger(), Warn: env.Stderr})
	if err != nil {
		return err
	}
	defer closeAll()
	if *bench && *compare {
		opt := ewr.CompareReportOptions{Machine: ewrMachine(), Only: onlyNames, Positions: positions, Margin: marginSet, Repeat: *repeat, ClearHash: *clearEach}
		return runEWRCompare(ctx, env, calc, p, opt, *save, *ref)
	}
	if *bench {
		return ewr.BenchReport(ctx, env.Stdout, calc, p, ewrMachine())
	}
	opt := ewr.Options{Include: splitMoves(*include), TimeLimit: *timeout, SkipResultCache: *fresh}
	var finish func()
	opt.Progress, finish = terminal.EWR(env.Stderr)
	res, err := calc.Calculate(ctx, pos, p, opt)
	finish()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return fmt.Errorf("writing the result: %w", err)
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(env.Stderr, "outpost ewr: warning: %s\n", w)
		}
		return nil
	}
	if err := ewr.WriteTable(env.Stdout, res); err != nil {
		return err
	}
	if *tree != "" {
		fmt.Fprintln(env.Stdout)
		return ewr.WriteTree(env.Stdout, res, *tree)
	}
	return nil
}

// ewrMode returns the calculation's mode from --exact, --fast and
// --tree-depth: the settle mode by default, "" for a variant given by
// --tree-depth; giving more than one is an error.
func ewrMode(fs interface{ Visit(func(*flag.Flag)) }, exact, fast bool) (string, error) {
	n, mode := 0, ewr.DefaultMode
	if exact {
		n, mode = n+1, ewr.ModeExact
	}
	if fast {
		n, mode = n+1, ewr.ModeFast
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "tree-depth" {
			n, mode = n+1, ""
		}
	})
	if n > 1 {
		return "", errors.New("--exact, --fast and --tree-depth: give one of them")
	}
	return mode, nil
}

// splitMoves splits a list of UCI moves at blanks and commas.
func splitMoves(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
}

// ewrMachine is the machine the benchmarks report: its CPUs and
// /proc/loadavg.
func ewrMachine() ewr.Machine {
	return ewr.Machine{CPUs: runtime.NumCPU(), LoadAvg: func() (string, error) {
		la, err := os.ReadFile("/proc/loadavg")
		return string(la), err
	}}
}

// runEWRCompare opens --compare-ref and --compare-save and runs the
// side-by-side benchmark.
func runEWRCompare(ctx context.Context, env *Env, calc *ewr.Calculator, p ewr.Params, opt ewr.CompareReportOptions, savePath, refPath string) (err error) {
	if refPath != "" {
		refs, err := readCompareRef(refPath)
		if err != nil {
			return err
		}
		opt.Reference = refs
	}
	if savePath != "" {
		f, err := os.Create(savePath)
		if err != nil {
			return fmt.Errorf("--compare-save: %w", err)
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("--compare-save: %w", cerr)
			}
		}()
		opt.Save = f
	}
	return ewr.CompareReport(ctx, env.Stdout, calc, p, opt)
}

// readCompareRef reads the A sides of a --compare-save file by position.
func readCompareRef(path string) (map[string]ewr.CompareSide, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--compare-ref: %w", err)
	}
	defer f.Close()
	refs, err := ewr.ReadCompareReference(f)
	if err != nil {
		return nil, fmt.Errorf("--compare-ref %s: %w", path, err)
	}
	return refs, nil
}
