package comparerun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
)

// ErrInterrupted wraps the context's error when a run stops before its end;
// the run stays "running" in the store and is resumed by the next run with
// the same key and parameters.
var ErrInterrupted = errors.New("comparison run interrupted (it will be resumed)")

// DefaultTrendRuns is how many runs the trend shows by default (this one
// included).
const DefaultTrendRuns = 6

// Comparer runs comparisons and stores them.
type Comparer struct {
	Store RunStore
	// Pool configures the engines, started for a run only when a game
	// needs analysing, and closed at its end.
	Pool analysis.PoolConfig
	// Budget and BorderlineBand shape the engine analysis (see
	// analysis.EngineOptions). BorderlineBand 0 is the default band, except
	// for a game analysed by a method that reproduces Lichess's engine run
	// exactly (an exact period's preset with its own engine): its plies are
	// not re-searched, since a deeper search would move its evals away
	// from the ones Lichess computed.
	Budget         analysis.Budget
	BorderlineBand float64
	// ResolveEngine turns a preset's engine name into its command line
	// with Budget.ByDate (default: enginepath.Resolve).
	ResolveEngine func(name string) ([]string, error)
	// WrapCommand, when set, wraps every command line a preset picks (the
	// scheduler's LowPriority).
	WrapCommand func([]string) []string
	// EngineLabel names the engine in the run's parameters (default: the
	// pool's command line; with Budget.ByDate, "by period").
	EngineLabel string
	// PresetEngine is set when the engine is the preset's own
	// (RunEngine.Preset): a lichess-sfN preset then reproduces Lichess's
	// engine run, so BorderlineBand 0 means no re-search.
	PresetEngine bool
	// EngineFrom says where the engine came from (RunEngine.From): a
	// preset's own engine, or --engine in place of it. It is recorded in
	// the run's parameters and printed with the engine.
	EngineFrom string
	// DetectPeriod detects each game's period of Lichess's analysis from
	// its evals (analysis.DetectPeriod) before analysing it; with
	// Budget.ByDate the detected period's preset and engine then run
	// instead of the date's.
	DetectPeriod bool
	// Progress, when set, gets positions done / total over the run.
	Progress func(done, total int)
	// ProgressDone, when set, is called by Execute once the run is over,
	// before the report is written (it clears a terminal's progress bar).
	ProgressDone func()
	// TrendRuns is how many runs the trend shows (default
	// DefaultTrendRuns).
	TrendRuns int
	Logger    zerolog.Logger
}

func (c *Comparer) params(src Source) Params {
	label := c.EngineLabel
	if label == "" && c.Budget.ByDate {
		label = "by period (each game's engine: games[].engine)"
	}
	if label == "" {
		cmd := c.Pool.Command
		if len(cmd) == 0 {
			cmd = analysis.DefaultEngineCommand()
		}
		label = strings.Join(cmd, " ")
	}
	band := c.BorderlineBand // 0: the default, off for exact methods (recorded as 0)
	return Params{Source: src.Params(), Budget: c.Budget.String(), BorderlineBand: band, Engine: label, EngineFrom: c.EngineFrom, DetectPeriod: c.DetectPeriod}
}

// Run performs (or resumes) one comparison run over src's games: every game
// carrying Lichess's analysis and not yet stored for the run is analysed
// with the engines, compared with Lichess's analysis and stored at once;
// then the run is closed with its aggregated report, returned with the
// trend. When ctx ends first the error wraps ErrInterrupted and the run
// stays resumable. Other failures close the run as failed; a failed run
// with the same parameters is resumed too.
// Long: open or resume, analyse, store, report, with the failure path of each step.
func (c *Comparer) Run(ctx context.Context, src Source) (*RunReport, error) {
	if c.Store == nil {
		return nil, errors.New("comparerun: no store")
	}
	params := c.params(src)
	key := src.Key()
	run, resumed, err := c.openRun(ctx, key, params.encode())
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("comparerun: %s: %w: %w", key, ErrInterrupted, ctx.Err())
		}
		return nil, err
	}
	bg := context.WithoutCancel(ctx) // store writes finish even when ctx ends
	log := c.Logger.With().Str("user", key).Int64("run", run.ID).Logger()
	fail := func(err error) (*RunReport, error) {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("comparerun: %s: %w: %w", key, ErrInterrupted, ctx.Err())
		}
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		if ferr := c.Store.FinishRun(bg, run.ID, RunFailed, string(b)); ferr != nil {
			log.Error().Err(ferr).Msg("closing failed run")
		}
		return nil, err
	}
	if resumed {
		log.Info().Msg("resuming comparison run")
	}
	stored, err := c.Store.RunGames(ctx, run.ID)
	if err != nil {
		return fail(err)
	}
	games, gerrs, err := src.Games(ctx, run.StartedAt)
	if err != nil {
		return fail(err)
	}
	rep := &RunReport{RunID: run.ID, User: key, Params: params, StartedAt: run.StartedAt, Resumed: resumed}
	for _, e := range gerrs {
		rep.Skipped = append(rep.Skipped, e.Error())
	}
	logWarnings(log, games)
	var order []string
	var pending []*analysis.Game
	seen := map[string]bool{}
	for _, g := range games {
		k := g.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		order = append(order, k)
		if _, ok := stored[k]; ok {
			rep.Reused++
			continue
		}
		pending = append(pending, g)
	}
	if err := c.analyse(ctx, bg, run.ID, pending, rep, log); err != nil {
		return fail(err)
	}
	if stored, err = c.Store.RunGames(bg, run.ID); err != nil {
		return fail(err)
	}
	records := orderedRecords(stored, order)
	user := ""
	if params.Source.Kind == "lichess" {
		user = key
	}
	rep.summarise(records, user)
	rep.FinishedAt = time.Now()
	body, err := json.Marshal(rep)
	if err != nil {
		return fail(fmt.Errorf("comparerun: encode report: %w", err))
	}
	if err := c.Store.FinishRun(bg, run.ID, RunFinished, string(body)); err != nil {
		return nil, err
	}
	n := c.TrendRuns
	if n <= 0 {
		n = DefaultTrendRuns
	}
	runs, err := c.Store.Runs(bg, key, 4*n)
	if err != nil {
		return nil, err
	}
	rep.Trend = trendRows(runs)
	if len(rep.Trend) > n {
		rep.Trend = rep.Trend[:n]
	}
	return rep, nil
}

// openRun resumes the key's newest run when it is not finished and has the
// same parameters, else starts a new one.
func (c *Comparer) openRun(ctx context.Context, key, params string) (StoredRun, bool, error) {
	runs, err := c.Store.Runs(ctx, key, 1)
	if err != nil {
		return StoredRun{}, false, err
	}
	if len(runs) == 1 && runs[0].State != RunFinished {
		last := runs[0]
		if last.Params == params {
			if last.State != RunRunning {
				if err := c.Store.ReopenRun(ctx, last.ID); err != nil {
					return StoredRun{}, false, err
				}
				last.State = RunRunning
			}
			return last, true, nil
		}
		if last.State == RunRunning {
			if err := c.Store.FinishRun(ctx, last.ID, RunFailed, `{"error":"superseded by a run with other parameters"}`); err != nil {
				return StoredRun{}, false, err
			}
		}
	}
	id, err := c.Store.StartRun(ctx, key, params)
	if err != nil {
		return StoredRun{}, false, err
	}
	run, err := c.Store.Run(ctx, id)
	return run, false, err
}

// analyse analyses the pending games one by one, storing each as soon as it
// is done.
func (c *Comparer) analyse(ctx, bg context.Context, runID int64, pending []*analysis.Game, rep *RunReport, log zerolog.Logger) error {
	engines := &pools{log: log}
	defer engines.close()
	total := 0
	for _, g := range pending {
		if comparable(g) {
			total += min(len(g.Moves), analysis.MaxAnalysedPlies) + 1
		}
	}
	done := 0
	for _, g := range pending {
		rec := GameRecord{ID: g.Key(), White: g.White.Name, Black: g.Black.Name, Result: g.Result}
		if !comparable(g) {
			rec.Error = "no Lichess analysis to compare with"
		} else {
			pl, err := c.gamePlan(ctx, g, engines, &rec)
			if err != nil {
				return err
			}
			rec.Preset, rec.Engine = pl.preset, strings.Join(pl.pool.Command, " ")
			pool, err := engines.get(ctx, pl.pool)
			if err != nil {
				return err
			}
			base, extra := done, 0
			opt := analysis.EngineOptions{Budget: pl.budget, BorderlineBand: c.BorderlineBand}
			if opt.BorderlineBand == 0 && pl.exact {
				opt.BorderlineBand = -1
				if rec.Preset != "" {
					rec.Preset += "; no borderline re-search (the method is Lichess's own)"
				}
			}
			if c.Progress != nil {
				own := min(len(g.Moves), analysis.MaxAnalysedPlies) + 1
				opt.Progress = func(d, t int) {
					extra = max(0, t-own)
					c.Progress(base+d, total+extra)
				}
			}
			res, errs, err := pool.AnalyseGames(ctx, []*analysis.Game{g}, opt)
			if err != nil {
				return fmt.Errorf("comparerun: analyse %s: %w", g.Key(), err)
			}
			done += min(len(g.Moves), analysis.MaxAnalysedPlies) + 1
			total += extra
			switch {
			case errs[0] != nil:
				rec.Error = errs[0].Error()
			case res[0] == nil:
				rec.Error = "no analysis"
			default:
				a := res[0]
				if err := a.CompareWithLichess(); err != nil {
					rec.Error = err.Error()
				} else {
					rec.Analysis = a
				}
			}
			rep.Analysed++
		}
		body, err := rec.encode()
		if err != nil {
			return err
		}
		if err := c.Store.SaveRunGame(bg, runID, rec.ID, body); err != nil {
			return err
		}
		if rec.Error != "" {
			log.Info().Str("game", rec.ID).Str("reason", rec.Error).Msg("game not compared")
		} else {
			log.Debug().Str("game", rec.ID).Msg("game compared")
		}
	}
	return nil
}

// gamePlan is planFor with, when DetectPeriod is set, the period
// detected from the game's evals (written to rec.Period).
func (c *Comparer) gamePlan(ctx context.Context, g *analysis.Game, engines *pools, rec *GameRecord) (plan, error) {
	if !c.DetectPeriod {
		return c.planFor(g, nil), nil
	}
	d, err := analysis.DetectPeriod(ctx, g, analysis.DetectOptions{Pool: func(ctx context.Context, name string) (*analysis.Pool, func(), error) {
		cfg, err := c.enginePool(name)
		if err != nil {
			return nil, nil, err
		}
		p, err := engines.get(ctx, cfg)
		return p, func() {}, err
	}})
	switch {
	case ctx.Err() != nil:
		return plan{}, ctx.Err()
	case err != nil:
		rec.Period = "not detected: " + err.Error()
		return c.planFor(g, nil), nil
	}
	rec.Period = d.String()
	if d.Found != nil {
		return c.planFor(g, &d.Found.Period), nil
	}
	p := c.planFor(g, nil)
	if p.preset != "" {
		p.preset += "; but Lichess's evals match no obtainable period's: not exact"
	}
	p.exact = false
	return p, nil
}

// comparable reports whether g carries Lichess's own analysis.
func comparable(g *analysis.Game) bool {
	return g.Lichess != nil && g.Lichess.FromLichess() && len(g.Lichess.Plies) == len(g.Moves)
}

// orderedRecords decodes the stored records: those named in order first,
// in that order, then any other (from an earlier attempt) by id. A record
// that cannot be decoded becomes a record with an error.
func orderedRecords(stored map[string]string, order []string) []GameRecord {
	var ids []string
	used := map[string]bool{}
	for _, id := range order {
		if _, ok := stored[id]; ok && !used[id] {
			used[id] = true
			ids = append(ids, id)
		}
	}
	var rest []string
	for id := range stored {
		if !used[id] {
			rest = append(rest, id)
		}
	}
	sort.Strings(rest)
	ids = append(ids, rest...)
	out := make([]GameRecord, 0, len(ids))
	for _, id := range ids {
		r, err := decodeRecord(id, stored[id])
		if err != nil {
			r = GameRecord{ID: id, Error: "stored result unreadable: " + err.Error()}
		}
		out = append(out, r)
	}
	return out
}

// logWarnings logs, at warn level, the PGN reader's warnings of the games
// read (analysis.Game.WarningLines: the game was kept and is compared).
func logWarnings(log zerolog.Logger, games []*analysis.Game) {
	for _, g := range games {
		for _, l := range g.WarningLines() {
			log.Warn().Str("source", g.Source).Msg(l)
		}
	}
}
