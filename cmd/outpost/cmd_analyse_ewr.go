package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/terminal"
	"github.com/outpostchess/outpost/lichess"
)

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
		engine:    fs.String("ewr-engine", strings.Join(analysis.DefaultEngineCommand(), " "), "--ewr Stockfish: a command line or an engine name (sf15, sf19, auto), as for 'outpost ewr'"),
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
	flags  *analyseEWRFlags
	params ewr.Params
	cfg    *config.Config
	parts  *app.EWRParts
}

// openAnalyseEWR checks up front that everything --ewr needs is installed
// (app.OpenEWRParts) for the Maia levels the games need.
func openAnalyseEWR(env *Env, f *analyseEWRFlags, p ewr.Params, games []*analysis.Game) (*analyseEWR, error) {
	cfg, err := analyseConfig()
	if err != nil {
		return nil, err
	}
	parts, err := app.OpenEWRParts(cfg, *f.engine, ewr.MaiaLevels(games, *f.maia), env.Stderr)
	if err != nil {
		return nil, err
	}
	return &analyseEWR{flags: f, params: p, cfg: cfg, parts: parts}, nil
}

// analyseConfig is $OUTPOST_CONFIG's configuration, else the defaults.
func analyseConfig() (*config.Config, error) {
	return loadConfig(os.Getenv("OUTPOST_CONFIG"))
}

// close stops Maia and the engines.
func (e *analyseEWR) close() {
	if e.parts != nil {
		e.parts.Close()
	}
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

// ewrRun is the moments' selection and reporting of these flags: our
// bot's moves of bot, a line per moment on a terminal, warnings on stderr.
func (e *analyseEWR) ewrRun(env *Env, bot string) report.EWRRun {
	tty := terminal.Is(env.Stderr)
	return report.EWRRun{Params: e.params, Rating: *e.flags.maia, Bot: bot, BotMoves: *e.flags.botMoves, TimeLimit: *e.flags.limit,
		Moment: func(done, total int, game string, ply int) (func(ewr.Event), func()) {
			if tty {
				fmt.Fprintf(env.Stderr, "expected winrate %d/%d: game %s, ply %d\n", done, total, game, ply)
			}
			return terminal.EWR(env.Stderr)
		},
		Warn: func(msg string) { fmt.Fprintf(env.Stderr, "outpost analyse: warning: %s\n", msg) },
	}
}

// run starts Stockfish and computes every game's moments (see moments).
// An error starting Stockfish or the cache returns no moments.
func (e *analyseEWR) run(ctx context.Context, env *Env, analyses []*analysis.Analysis, bot string, workers, hash int) (report.EWRSet, error) {
	if e.ewrRun(env, bot).Count(analyses) == 0 {
		return e.moments(ctx, env, nil, analyses, bot)
	}
	calc, err := e.calculator(ctx, env, workers, hash)
	if err != nil {
		return nil, err
	}
	return e.moments(ctx, env, calc, analyses, bot)
}

// moments computes every game's moments with calc (which may be nil when
// there are none): report.ComputeEWR.
func (e *analyseEWR) moments(ctx context.Context, env *Env, calc *ewr.Calculator, analyses []*analysis.Analysis, bot string) (report.EWRSet, error) {
	return report.ComputeEWR(ctx, calc, analyses, e.ewrRun(env, bot))
}

// calculator starts the Stockfish engines and opens the cache.
func (e *analyseEWR) calculator(ctx context.Context, env *Env, workers, hash int) (*ewr.Calculator, error) {
	return e.parts.Calculator(ctx, workers, hash, *e.flags.store, env.logger())
}
