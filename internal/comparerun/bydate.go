package comparerun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// plan is how one game is analysed: its budget, its engines, and (by date)
// which preset was chosen and why.
type plan struct {
	budget analysis.Budget
	pool   analysis.PoolConfig
	// preset says which preset was used and whether it is exact; "" when
	// the run has one fixed budget.
	preset string
	// exact is set when the budget and engine reproduce Lichess's engine
	// run exactly: an exact period's preset (by date or detected, and not
	// contradicted by the evals) or an explicit lichess-sfN preset with its
	// own engine (Comparer.PresetEngine).
	exact bool
}

// planFor returns the game's plan: the run's budget and engines, or with
// Budget.ByDate the preset of the game's period — detected, when detected
// is set, else the period the game was played in — run with the preset's
// engine (falling back to the run's engines, saying so, when that engine
// is not installed).
func (c *Comparer) planFor(g *analysis.Game, detected *analysis.Period) plan {
	if !c.Budget.ByDate {
		return plan{budget: c.Budget, pool: c.Pool, exact: c.PresetEngine && c.Budget.Engine != ""}
	}
	period, how := analysis.Period{}, "by game date"
	if detected != nil {
		period, how = *detected, "by the evals"
	} else {
		date, ok := g.Date()
		if !ok {
			return plan{budget: analysis.DefaultBudget, pool: c.Pool,
				preset: "lichess (the game has no date, so its period of Lichess's analysis is unknown: not exact)"}
		}
		period = analysis.LichessPeriodAt(date)
	}
	p := plan{budget: analysis.Presets[period.Preset], pool: c.Pool, preset: period.String() + ", " + how}
	if p.budget.Engine == "" {
		return p
	}
	p.exact = period.Exact
	cfg, err := c.enginePool(p.budget.Engine)
	if err != nil {
		p.preset = fmt.Sprintf("%s; but %v, so %s ran instead: not exact", p.preset, shortErr(err), strings.Join(c.Pool.Command, " "))
		p.exact = false
		return p
	}
	p.pool = cfg
	return p
}

// enginePool is the run's pool configuration running the named engine:
// the name resolved (ResolveEngine, else enginepath.Resolve) and wrapped
// (WrapCommand); with a Factory (tests) or a Dispatcher (whose workers
// resolve names themselves) the name is kept as it is.
func (c *Comparer) enginePool(name string) (analysis.PoolConfig, error) {
	cfg := c.Pool
	if c.Pool.Factory != nil || c.Pool.Dispatcher != nil {
		cfg.Command = []string{name}
		return cfg, nil
	}
	resolve := c.ResolveEngine
	if resolve == nil {
		resolve = func(name string) ([]string, error) {
			r, err := enginepath.Resolve([]string{name})
			return r.Command, err
		}
	}
	cmd, err := resolve(name)
	if err != nil {
		return cfg, err
	}
	if c.WrapCommand != nil {
		cmd = c.WrapCommand(cmd)
	}
	cfg.Command = cmd
	return cfg, nil
}

// shortErr drops the package prefixes of an engine lookup error.
func shortErr(err error) string {
	s := err.Error()
	if errors.Is(err, enginepath.ErrNotInstalled) {
		s = strings.TrimSuffix(s, ": "+enginepath.ErrNotInstalled.Error())
	}
	return strings.TrimPrefix(s, "enginepath: ")
}

// pools starts engines on demand, one pool per command line, and closes
// them all at the end of a run.
type pools struct {
	m   map[string]*analysis.Pool
	log zerolog.Logger
}

func (ps *pools) get(ctx context.Context, cfg analysis.PoolConfig) (*analysis.Pool, error) {
	key := strings.Join(cfg.Command, "\x00")
	if p, ok := ps.m[key]; ok {
		return p, nil
	}
	p, err := analysis.NewPool(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("comparerun: start engines: %w", err)
	}
	if ps.m == nil {
		ps.m = map[string]*analysis.Pool{}
	}
	ps.m[key] = p
	return p, nil
}

func (ps *pools) close() {
	for _, p := range ps.m {
		if err := p.Close(); err != nil {
			ps.log.Warn().Err(err).Msg("closing engines")
		}
	}
}
