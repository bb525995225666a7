package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models"
)

// ewrSetupHint names the command that installs what --ewr needs.
const ewrSetupHint = "install Stockfish, ONNX Runtime and the Maia weights with `make setup` (or `" + models.FetchCommand + "` for Maia alone)"

// Defaults of analyse --ewr.
const (
	defaultEWRMomentTime = 60 * time.Second
	defaultEWRBotMoves   = 5
	accountLookupTimeout = 10 * time.Second
)

// analyseEWRFlags are the expected-winrate flags of `outpost analyse`.
type analyseEWRFlags struct {
	on        *bool
	threshold *float64
	depth     *int
	loss      *float64
	maia      *int
	limit     *time.Duration
	bot       *string
	botMoves  *int
	store     *string
	engine    *string
	fs        *flag.FlagSet
}

// addAnalyseEWRFlags registers the --ewr flags on fs.
func addAnalyseEWRFlags(fs *flag.FlagSet) *analyseEWRFlags {
	return &analyseEWRFlags{
		fs:        fs,
		on:        fs.Bool("ewr", false, "expected winrate (Maia × Stockfish) at each side's worst move and at our bot's moves"),
		threshold: fs.Float64("ewr-threshold", ewr.DefaultThreshold, "--ewr probability threshold: 0.1, 0.01 or 0.001"),
		depth:     fs.Int("ewr-depth", ewr.DefaultDepth, "--ewr Stockfish depth: 15, 20 or 25"),
		loss:      fs.Float64("ewr-loss", ewr.DefaultLossThreshold, "--ewr winrate loss threshold (-1..0)"),
		maia:      fs.Int("maia", 0, "--ewr Maia rating of both players, 1100..1900 (default: each player's game rating, nearest Maia level; 1500 when unrated)"),
		limit:     fs.Duration("ewr-time", defaultEWRMomentTime, "--ewr time limit per moment; when reached the moment is partial (0: none)"),
		bot:       fs.String("bot", "", "--ewr: our bot's Lichess name (default: the configured token's account, unless --offline)"),
		botMoves:  fs.Int("ewr-bot-moves", defaultEWRBotMoves, "--ewr: at most this many of our bot's moves per game, those that lost the most winning chances (0: none)"),
		store:     fs.String("ewr-store", app.DefaultEWRStore(), "--ewr SQLite cache file (\"\" for no cache)"),
		engine:    fs.String("ewr-engine", strings.Join(analysis.DefaultEngineCommand, " "), "--ewr Stockfish: a command line or an engine name (sf15, sf19, auto), as for 'outpost ewr'"),
	}
}

// params validates the flags and returns the calculation's parameters (the
// ratings are set per moment).
func (f *analyseEWRFlags) params() (ewr.Params, error) {
	if !*f.on {
		for _, name := range []string{"ewr-threshold", "ewr-depth", "ewr-loss", "maia", "ewr-time", "bot", "ewr-bot-moves", "ewr-store", "ewr-engine"} {
			if flagSet(f.fs, name) {
				return ewr.Params{}, fmt.Errorf("--%s needs --ewr", name)
			}
		}
		return ewr.Params{}, nil
	}
	p := ewr.DefaultParams()
	p.Threshold, p.Depth, p.LossThreshold = *f.threshold, *f.depth, *f.loss
	if *f.maia != 0 {
		if *f.maia < ewr.MinRating || *f.maia > ewr.MaxRating {
			return p, fmt.Errorf("--maia %d: want a rating from %d to %d", *f.maia, ewr.MinRating, ewr.MaxRating)
		}
		p.Rating, p.OpponentRating = *f.maia, *f.maia
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("--ewr: %w", err)
	}
	if *f.limit < 0 {
		return p, fmt.Errorf("--ewr-time %v: want 0 (none) or a positive duration", *f.limit)
	}
	if *f.botMoves < 0 {
		return p, fmt.Errorf("--ewr-bot-moves %d: want 0 or more", *f.botMoves)
	}
	return p, nil
}

// analyseEWR computes the expected-winrate moments of analysed games.
type analyseEWR struct {
	flags   *analyseEWRFlags
	params  ewr.Params
	pred    *models.Predictor
	cfg     *config.Config
	engine  []string
	closers []func() error
}

// openAnalyseEWR checks up front that everything --ewr needs is installed
// (so that a missing piece is one clear error before any analysis): the
// Stockfish executable of --ewr-engine, ONNX Runtime and the Maia weights
// of every level the games need.
func openAnalyseEWR(env *Env, f *analyseEWRFlags, p ewr.Params, games []*analysis.Game) (*analyseEWR, error) {
	r, err := enginepath.Resolve(strings.Fields(*f.engine))
	if err != nil {
		return nil, fmt.Errorf("--ewr-engine: %w", err)
	}
	if r.Notice != "" {
		fmt.Fprintf(env.Stderr, "outpost analyse: --ewr-engine: %s\n", r.Notice)
	}
	engine := r.Command
	if _, err := exec.LookPath(engine[0]); err != nil {
		return nil, fmt.Errorf("--ewr needs Stockfish: %s not found (%s)", engine[0], ewrSetupHint)
	}
	cfg, err := analyseConfig()
	if err != nil {
		return nil, err
	}
	mc := models.Config{Dir: cfg.Models.Dir, Library: cfg.Models.ORTLibrary, Maia2Model: cfg.Models.Maia2Model, Threads: cfg.Models.Threads}
	if mc, err = mc.WithEnv(os.Getenv); err != nil {
		return nil, err
	}
	pred, err := models.NewPredictor(mc)
	if err != nil {
		return nil, fmt.Errorf("--ewr needs Maia: %w", err)
	}
	e := &analyseEWR{flags: f, params: p, pred: pred, cfg: cfg, engine: engine, closers: []func() error{pred.Close}}
	var levels []string
	for _, lv := range maiaLevels(games, *f.maia) {
		levels = append(levels, models.Maia1Name(lv))
	}
	if err := pred.Load(levels...); err != nil {
		e.close(env)
		return nil, fmt.Errorf("--ewr needs Maia: %w", err)
	}
	return e, nil
}

// maiaLevels returns the Maia levels the games need, ascending: override
// when set, else each player's rating's nearest level.
func maiaLevels(games []*analysis.Game, override int) []int {
	seen := map[int]bool{}
	if override != 0 {
		seen[ewr.NearestMaiaRating(override)] = true
	}
	for _, g := range games {
		if override == 0 {
			seen[ewr.NearestMaiaRating(g.White.Rating)] = true
			seen[ewr.NearestMaiaRating(g.Black.Rating)] = true
		}
	}
	out := make([]int, 0, len(seen))
	for lv := range seen {
		out = append(out, lv)
	}
	sort.Ints(out)
	return out
}

// analyseConfig is $OUTPOST_CONFIG's configuration, else the defaults.
func analyseConfig() (*config.Config, error) {
	return loadConfig(os.Getenv("OUTPOST_CONFIG"))
}

func (e *analyseEWR) close(env *Env) {
	for i := len(e.closers) - 1; i >= 0; i-- {
		if err := e.closers[i](); err != nil {
			fmt.Fprintf(env.Stderr, "outpost analyse: closing --ewr engines: %v\n", err)
		}
	}
	e.closers = nil
}

// botName is our bot's name: --bot, else the account of the configured
// token (not offline); "" when neither is known.
func (e *analyseEWR) botName(ctx context.Context, env *Env, server string, offline bool) string {
	if *e.flags.bot != "" || offline {
		return *e.flags.bot
	}
	if _, err := lichess.LoadToken(os.Getenv, e.cfg.Lichess.TokenFile); err != nil {
		if !errors.Is(err, lichess.ErrNoToken) {
			fmt.Fprintf(env.Stderr, "outpost analyse: warning: our bot's account not read (pass --bot NAME): %v\n", err)
		}
		return ""
	}
	c, err := compareClient(env, e.cfg, server)
	if err != nil {
		fmt.Fprintf(env.Stderr, "outpost analyse: warning: our bot's account not read (pass --bot NAME): %v\n", err)
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, accountLookupTimeout)
	defer cancel()
	u, err := c.Account(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "outpost analyse: warning: our bot's account not read (pass --bot NAME): %v\n", err)
		return ""
	}
	return u.Username
}

// run starts Stockfish and computes every game's moments (see moments).
// An error starting Stockfish or the cache returns no moments.
func (e *analyseEWR) run(ctx context.Context, env *Env, analyses []*analysis.Analysis, bot string, workers, hash int) (report.EWRSet, error) {
	total := 0
	for _, a := range analyses {
		total += len(momentPlies(a, bot, *e.flags.botMoves))
	}
	if total == 0 {
		return e.moments(ctx, env, nil, analyses, bot)
	}
	calc, err := e.calculator(ctx, env, workers, hash)
	if err != nil {
		return nil, err
	}
	return e.moments(ctx, env, calc, analyses, bot)
}

// moments computes every game's moments with calc (which may be nil when
// there are none). A moment that fails is kept with its error and a
// warning. Cancelling ctx returns the games finished so far with ctx's
// error.
func (e *analyseEWR) moments(ctx context.Context, env *Env, calc *ewr.Calculator, analyses []*analysis.Analysis, bot string) (report.EWRSet, error) {
	plies := make([][]momentPly, len(analyses))
	total := 0
	for i, a := range analyses {
		plies[i] = momentPlies(a, bot, *e.flags.botMoves)
		total += len(plies[i])
	}
	set := report.EWRSet{}
	tty := isTerminal(env)
	done := 0
	for i, a := range analyses {
		g := ewr.GameOf(a)
		if *e.flags.maia != 0 {
			g.WhiteRating, g.BlackRating = *e.flags.maia, *e.flags.maia
		}
		ms := []report.EWRMoment{}
		for _, mp := range plies[i] {
			done++
			if tty {
				fmt.Fprintf(env.Stderr, "expected winrate %d/%d: game %s, ply %d\n", done, total, gameName(a), mp.ply)
			}
			prog := newEWRProgress(env.Stderr)
			m, err := ewr.AnalyseMoment(ctx, calc, g, mp.ply, e.params, ewr.Options{TimeLimit: *e.flags.limit, Progress: prog.event})
			prog.finish()
			if err != nil {
				if ctx.Err() != nil {
					return set, ctx.Err()
				}
				fmt.Fprintf(env.Stderr, "outpost analyse: warning: expected winrate of game %s at ply %d not computed: %v\n", gameName(a), mp.ply, err)
				ms = append(ms, report.FailedEWRMoment(a, mp.ply, mp.kind, err))
				continue
			}
			rm := report.NewEWRMoment(m, mp.kind)
			for _, w := range rm.Warnings {
				fmt.Fprintf(env.Stderr, "outpost analyse: warning: expected winrate of game %s at %s: %s\n", gameName(a), rm.Label, w)
			}
			ms = append(ms, rm)
		}
		set[a] = ms
	}
	return set, nil
}

// calculator starts the Stockfish engines and opens the cache.
func (e *analyseEWR) calculator(ctx context.Context, env *Env, workers, hash int) (*ewr.Calculator, error) {
	ev, err := ewr.StartEngines(ctx, ewr.EngineConfig{Command: e.engine, Workers: workers, HashMB: hash, Logger: env.logger()})
	if err != nil {
		return nil, fmt.Errorf("--ewr needs Stockfish: %w (%s)", err, ewrSetupHint)
	}
	e.closers = append(e.closers, ev.Close)
	var cache ewr.Cache
	if path := *e.flags.store; path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("--ewr-store: %w", err)
		}
		st, err := store.Open(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("--ewr-store: %w", err)
		}
		e.closers = append(e.closers, st.Close)
		cache = st
	}
	return ewr.New(e.pred, ev, cache), nil
}

func isTerminal(env *Env) bool {
	f, ok := env.Stderr.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func gameName(a *analysis.Analysis) string {
	if a.ID != "" {
		return a.ID
	}
	return fmt.Sprintf("%s#%d", a.Source, a.Index)
}

type momentPly struct {
	ply  int
	kind string
}

// momentPlies lists the plies of a game's moments in game order: each
// side's worst judgement (ewr.CriticalPlies), then up to botMoves of the
// moves of the player named bot (case-insensitive; none when bot is ""),
// those that lost the most winning chances first.
func momentPlies(a *analysis.Analysis, bot string, botMoves int) []momentPly {
	var out []momentPly
	taken := map[int]bool{}
	for _, ply := range ewr.CriticalPlies(a) {
		out = append(out, momentPly{ply, report.EWRCritical})
		taken[ply] = true
	}
	if bot != "" && botMoves > 0 {
		botWhite := strings.EqualFold(a.Players.White.Name, bot)
		botBlack := strings.EqualFold(a.Players.Black.Name, bot)
		var cand []*analysis.Ply
		for i := range a.Plies {
			p := &a.Plies[i]
			if taken[p.Ply] || (p.White() && !botWhite) || (!p.White() && !botBlack) {
				continue
			}
			cand = append(cand, p)
		}
		sort.SliceStable(cand, func(i, j int) bool { return deltaOf(cand[i]) > deltaOf(cand[j]) })
		for _, p := range cand[:min(botMoves, len(cand))] {
			out = append(out, momentPly{p.Ply, report.EWRBot})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ply < out[j].ply })
	return out
}

func deltaOf(p *analysis.Ply) float64 {
	if p.Delta == nil {
		return 0
	}
	return *p.Delta
}
