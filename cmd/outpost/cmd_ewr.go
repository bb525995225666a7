package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/models"
)

const ewrSynopsis = "[--fen FEN] [--moves \"UCI …\"] [--threshold 0.1] [--depth 15] [--loss -0.1] [--maia 1500] [--opponent-maia 1500] [--json] [--tree SAN] [--store FILE] [--clear-hash [--hash 16]] [--timeout 60s] [--fast | --tree-depth N [--full-depth-mass P]] | --bench [--compare [--compare-save FILE] [--compare-ref FILE] [--compare-only NAMES]]"

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
	storePath := fs.String("store", defaultEWRStore(), "SQLite cache file (\"\" for no cache)")
	fresh := fs.Bool("fresh", false, "recalculate even if the whole result is cached (evaluations stay cached)")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit; when reached the partial result is printed with a warning (0: none)")
	workers := fs.Int("workers", runtime.NumCPU(), "Stockfish engines run in parallel")
	hash := fs.Int("hash", 128, "Stockfish hash per engine, MB (kept across the calculation; with --clear-hash cleared before every search, default 16)")
	clearEach := fs.Bool("clear-hash", false, "clear each engine's hash before every search: every evaluation a function of (position, depth) alone")
	engine := fs.String("engine", strings.Join(analysis.DefaultEngineCommand, " "), "UCI engine command line")
	fast := fs.Bool("fast", false, fmt.Sprintf("fast mode: the trees' positions at depth %d instead of --depth (the legal moves stay at --depth)", ewr.FastTreeDepth))
	treeDepth := fs.Int("tree-depth", 0, "Stockfish depth of the trees' positions (0: --depth; --fast sets it)")
	fullMass := fs.Float64("full-depth-mass", -1, "with --tree-depth or --fast: tree positions at least this likely (cumulative probability 0..1) stay at --depth (default 0: none)")
	margin := fs.Float64("decision-margin", -1, "with --tree-depth or --fast: the analysing player's moves whose tree-depth winrate is within this of the loss threshold are searched again at --depth (0..1; default 0: none)")
	compare := fs.Bool("compare", false, "with --bench: the exact calculation and the fast mode side by side, with the per-move difference")
	save := fs.String("compare-save", "", "with --compare: write every side's result and counts to this file (JSON lines)")
	repeat := fs.Bool("repeat", false, "with --compare: B is A calculated again (the exact calculation; with --fast or --tree-depth that mode on both sides), so max |Δ| is the run-to-run difference; with --compare-ref, A is the earlier run")
	only := fs.String("compare-only", "", "with --compare: only these benchmark positions (names, comma-separated)")
	ref := fs.String("compare-ref", "", "with --compare: take the exact side (A) from a --compare-save file of the same parameters instead of calculating it")
	bench := fs.Bool("bench", false, "benchmark ten typical positions at these parameters: fresh, repeated (result cache), repeated (evaluation cache only), another Maia rating")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "workers", "hash", "max-nodes"); err != nil {
		return err
	}
	if *clearEach && !flagSet(fs, "hash") {
		*hash = 16 // ample for one depth-15 search; a smaller hash clears faster
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	p := ewr.Params{Threshold: *threshold, Depth: *depth, LossThreshold: *loss, Rating: *maia, OpponentRating: *oppMaia, MaxNodes: *maxNodes}
	if !flagSet(fs, "opponent-maia") {
		p.OpponentRating = *maia
	}
	if *fast && flagSet(fs, "tree-depth") {
		return errors.New("--fast and --tree-depth: give one of them")
	}
	if *fast {
		p = p.Fast()
	} else {
		p.TreeDepth = *treeDepth
	}
	if flagSet(fs, "full-depth-mass") {
		p.FullDepthMass = *fullMass
	}
	var marginSet *float64
	if flagSet(fs, "decision-margin") {
		p.DecisionMargin, marginSet = *margin, margin
	}
	if *compare && !*bench {
		return errors.New("--compare needs --bench")
	}
	if (*save != "" || *ref != "" || *only != "" || *repeat) && !*compare {
		return errors.New("--compare-save, --compare-ref, --compare-only and --repeat need --bench --compare")
	}
	var onlyNames []string
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if !slices.ContainsFunc(ewr.BenchPositions, func(bp ewr.BenchPosition) bool { return bp.Name == n }) {
			return fmt.Errorf("--compare-only: no benchmark position %q", n)
		}
		onlyNames = append(onlyNames, n)
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
	calc, closeAll, err := openEWR(ctx, env, ewr.EngineConfig{Command: cmdline, Workers: *workers, HashMB: *hash, ClearEach: *clearEach}, *storePath, *bench)
	if err != nil {
		return err
	}
	defer closeAll()
	if *bench && *compare {
		return runEWRCompare(ctx, env, calc, p, compareFiles{save: *save, ref: *ref, only: onlyNames, margin: marginSet, repeat: *repeat})
	}
	if *bench {
		return runEWRBench(ctx, env, calc, p)
	}
	opt := ewr.Options{Include: splitMoves(*include), TimeLimit: *timeout, SkipResultCache: *fresh}
	prog := newEWRProgress(env.Stderr)
	opt.Progress = prog.event
	res, err := calc.Calculate(ctx, pos, p, opt)
	prog.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
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

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func splitMoves(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
}

// defaultEWRStore is the cache file under the user cache directory.
func defaultEWRStore() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "outpost", "ewr.db")
}

// openEWR starts Maia, the Stockfish pool and the cache. For a benchmark the
// cache is a fresh in-memory database, so the first pass is cold.
func openEWR(ctx context.Context, env *Env, ecfg ewr.EngineConfig, storePath string, bench bool) (*ewr.Calculator, func(), error) {
	var closers []func() error
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			if err := closers[i](); err != nil {
				fmt.Fprintf(env.Stderr, "outpost ewr: closing: %v\n", err)
			}
		}
	}
	cfg, err := models.LoadConfig()
	if err != nil {
		return nil, nil, err
	}
	pred, err := models.NewPredictor(cfg)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, pred.Close)
	ecfg.Logger = env.logger()
	ev, err := ewr.StartEngines(ctx, ecfg)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	closers = append(closers, ev.Close)
	var cache ewr.Cache
	if bench {
		storePath = ":memory:"
	}
	if storePath != "" {
		if storePath != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(storePath), 0o755); err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("cache directory: %w", err)
			}
		}
		st, err := store.Open(ctx, storePath)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		closers = append(closers, st.Close)
		cache = st
	}
	return ewr.New(pred, ev, cache), closeAll, nil
}

// runEWRBench runs the benchmark set cold, then repeated (whole results
// cached), then without the result cache (evaluations cached), then at
// another Maia rating (evaluations shared), and prints the figures.
func runEWRBench(ctx context.Context, env *Env, calc *ewr.Calculator, p ewr.Params) error {
	out := env.Stdout
	fmt.Fprintf(out, "ewr benchmark: %d positions, threshold %g, depth %d, loss %+.2f, Maia %d vs %d, %d CPUs\n",
		len(ewr.BenchPositions), p.Threshold, p.Depth, p.LossThreshold, p.Rating, p.OpponentRating, runtime.NumCPU())
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(out, "load average before: %s", la)
	}
	other := p
	other.Rating = p.Rating + 100
	if other.Rating > ewr.MaxRating {
		other.Rating = p.Rating - 100
	}
	passes := []struct {
		name string
		p    ewr.Params
		opt  ewr.Options
	}{
		{"fresh", p, ewr.Options{}},
		{"repeated (result cache)", p, ewr.Options{}},
		{"repeated (evaluation cache only)", p, ewr.Options{SkipResultCache: true}},
		{fmt.Sprintf("Maia %d instead (evaluations shared)", other.Rating), other, ewr.Options{}},
	}
	for _, pass := range passes {
		fmt.Fprintf(out, "\n%s:\n", pass.name)
		r, err := ewr.RunBench(ctx, calc, pass.p, pass.opt, out)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "median %.2fs per position · total %.1fs (Stockfish %.1fs, Maia %.1fs, other %.1fs) · Stockfish %d evaluations, %d searches, %.1fM nodes · Maia %d positions in %d calls · cache hit rate %.0f%%\n",
			r.Median().Seconds(), r.Total().Seconds(), r.StockfishTime.Seconds(), r.MaiaTime.Seconds(), (r.Total() - r.StockfishTime - r.MaiaTime).Seconds(),
			r.EngineEvals, r.Searches, float64(r.Nodes)/1e6, r.MaiaPositions, r.MaiaCall, 100*r.HitRate())
	}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(out, "load average after: %s", la)
	}
	return nil
}

// compareFiles are --compare's optional flags.
type compareFiles struct {
	save, ref string
	only      []string
	// margin is --decision-margin when given (it overrides the fast
	// mode's).
	margin *float64
	// repeat is --repeat: the same parameters on both sides.
	repeat bool
}

// runEWRCompare runs the benchmark positions with the exact calculation
// (A) and the fast mode (B) alternately on the same engines and prints
// both with the per-move difference.
func runEWRCompare(ctx context.Context, env *Env, calc *ewr.Calculator, p ewr.Params, cf compareFiles) error {
	savePath, refPath := cf.save, cf.ref
	out := env.Stdout
	exact := p
	exact.TreeDepth = 0
	fast := p // --tree-depth as given (equal to --depth: exact against exact)
	if p.TreeDepth == 0 {
		fast = p.Fast()
		if cf.margin != nil {
			fast.DecisionMargin = *cf.margin
		}
	}
	fmt.Fprintf(out, "ewr benchmark, side by side: %d positions, threshold %g, loss %+.2f, Maia %d vs %d, %d engines\n",
		len(ewr.BenchPositions), p.Threshold, p.LossThreshold, p.Rating, p.OpponentRating, runtime.NumCPU())
	treeDepth := fast.TreeDepth
	if treeDepth == 0 {
		treeDepth = fast.Depth
	}
	mass := ""
	if fast.IsFast() && fast.FullDepthMass > 0 {
		mass = fmt.Sprintf(" (positions of cumulative probability ≥ %g at depth %d)", fast.FullDepthMass, fast.Depth)
	}
	if fast.IsFast() && fast.DecisionMargin > 0 {
		mass += fmt.Sprintf(" (the analysing player's moves within %g of the threshold again at depth %d)", fast.DecisionMargin, fast.Depth)
	}
	if cf.repeat {
		exact, fast = p, p
		mode := "exact (depth %d everywhere)"
		if p.IsFast() {
			mode = "the fast mode (trees at depth %d" + mass + ")"
			fmt.Fprintf(out, "A and B: "+mode+", calculated twice (run-to-run difference)\n", p.TreeDepth)
		} else {
			fmt.Fprintf(out, "A and B: "+mode+", calculated twice (run-to-run difference)\n", p.Depth)
		}
	} else {
		fmt.Fprintf(out, "A: exact (depth %d everywhere) · B: legal moves at depth %d, trees at depth %d%s\n", exact.Depth, fast.Depth, treeDepth, mass)
	}
	load := func() string {
		la, err := os.ReadFile("/proc/loadavg")
		if err != nil {
			return "?"
		}
		return strings.Join(strings.Fields(string(la))[:3], " ")
	}
	fmt.Fprintf(out, "load average before: %s\n", load())
	opt := ewr.CompareOptions{Load: load, Out: out, Only: cf.only}
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
		defer f.Close()
		enc := json.NewEncoder(f)
		opt.Record = func(cs ewr.CompareSide) error { return enc.Encode(cs) }
	}
	r, err := ewr.RunCompare(ctx, calc, exact, fast, opt)
	if err != nil {
		return err
	}
	printCompareSummary(out, r, cf.repeat)
	fmt.Fprintf(out, "load average after: %s\n", load())
	return nil
}

// printCompareSummary prints the totals of a side-by-side run.
func printCompareSummary(out io.Writer, r ewr.CompareRun, repeat bool) {
	la, lb := "A exact:", "B fast: "
	if repeat {
		la, lb = "A run 1:", "B run 2:"
	}
	fmt.Fprintf(out, la+" median %.2fs, max %.2fs, %d searches, %.1fM nodes\n", r.A.Median().Seconds(), r.A.MaxTime().Seconds(), r.A.Searches, float64(r.A.Nodes)/1e6)
	fmt.Fprintf(out, lb+" median %.2fs, max %.2fs, %d searches, %.1fM nodes (%.2f× fewer nodes, median %.2f× faster)\n",
		r.B.Median().Seconds(), r.B.MaxTime().Seconds(), r.B.Searches, float64(r.B.Nodes)/1e6,
		float64(r.A.Nodes)/math.Max(1, float64(r.B.Nodes)), r.A.Median().Seconds()/math.Max(1e-9, r.B.Median().Seconds()))
	fmt.Fprintf(out, lb+" first ranking at most %.1fs, longest silence %.1fs (targets: 3 s, 2 s)\n",
		slices.Max(append([]time.Duration{0}, r.B.FirstRanking...)).Seconds(), slices.Max(append([]time.Duration{0}, r.B.MaxGap...)).Seconds())
	fmt.Fprintf(out, "B against A: %d moves, max |Δ| %.2f pp, mean %.2f pp, %d over 1 pp; same best move in %d of %d positions\n",
		r.Moves, 100*r.MaxDiff, 100*r.MeanDiff, r.Over1pp, r.SameBest, len(r.A.Times))
}

// ewrProgress draws the two phases as a progress bar with status lines
// when stderr is a terminal, and nothing otherwise.
type ewrProgress struct {
	w     io.Writer
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	phase ewr.Phase
}

func newEWRProgress(w io.Writer) *ewrProgress {
	f, ok := w.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return &ewrProgress{}
	}
	return &ewrProgress{w: w}
}

func (p *ewrProgress) event(e ewr.Event) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Phase == ewr.PhaseDone {
		return
	}
	if p.bar == nil || e.Phase != p.phase {
		if p.bar != nil {
			_ = p.bar.Finish()
		}
		p.phase = e.Phase
		max := e.Total
		if e.Phase == ewr.PhaseTrees || max <= 0 {
			max = -1
		}
		p.bar = progressbar.NewOptions(max,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(phaseTitle(e.Phase)),
			progressbar.OptionShowCount(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	if e.Message != "" {
		p.bar.Describe(e.Message)
	} else if len(e.Ranking) > 0 {
		top := e.Ranking[0]
		what := "best so far"
		if e.Provisional {
			what = "Stockfish's best so far"
		}
		p.bar.Describe(fmt.Sprintf("%s %s %s %.1f%%", phaseTitle(e.Phase), what, top.SAN, 100*top.ExpectedWinrate))
	}
	if e.Phase != ewr.PhaseTrees && e.Total > 0 && p.bar.GetMax() != e.Total {
		p.bar.ChangeMax(e.Total)
	}
	_ = p.bar.Set(e.Done)
}

func (p *ewrProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

func phaseTitle(ph ewr.Phase) string {
	switch ph {
	case ewr.PhaseFilter:
		return "Evaluating legal moves with Stockfish..."
	case ewr.PhaseTrees:
		return "Generating Maia trees..."
	}
	return "Evaluating positions with Stockfish..."
}

// readCompareRef reads the A sides of a --compare-save file by position.
func readCompareRef(path string) (map[string]ewr.CompareSide, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--compare-ref: %w", err)
	}
	defer f.Close()
	out := map[string]ewr.CompareSide{}
	dec := json.NewDecoder(f)
	for n := 1; ; n++ {
		var cs ewr.CompareSide
		if err := dec.Decode(&cs); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("--compare-ref %s: record %d: %w", path, n, err)
		}
		if cs.Side == "A" && cs.Result != nil {
			out[cs.Position] = cs
		}
	}
}
