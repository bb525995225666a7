package comparerun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/lichess"
)

// SchedulerConfig builds a Scheduler.
type SchedulerConfig struct {
	// Compare is what runs when: users, interval, max games, since,
	// budget, engine. Nothing runs unless Enabled.
	Compare Schedule
	Client  *lichess.Client
	Store   RunStore
	Logger  zerolog.Logger
	// Factory starts engines instead of the command (tests).
	Factory analysis.EngineFactory
	// RetryAfter is the wait after a failed run (default the interval, at
	// most one hour).
	RetryAfter time.Duration
	// OnRun, when set, is called after every run with its report or error.
	OnRun func(user string, rep *RunReport, err error)
}

// Scheduler runs the configured users' comparisons on schedule, one at a
// time. Its timing lives in the store: a user's next run is due one
// interval after the start of the user's last run, at once when that run
// was interrupted (it is resumed), and RetryAfter after a failed run.
type Scheduler struct {
	cfg      SchedulerConfig
	comparer *Comparer
	fetcher  *Fetcher
}

// NewScheduler checks cfg and returns a scheduler.
func NewScheduler(cfg SchedulerConfig) (*Scheduler, error) {
	if cfg.Store == nil {
		return nil, errors.New("comparerun: scheduler: no store")
	}
	if cfg.Client == nil {
		return nil, errors.New("comparerun: scheduler: no Lichess client")
	}
	if cfg.Compare.Enabled {
		if len(cfg.Compare.Users) == 0 {
			return nil, errors.New("comparerun: scheduler: compare.users is empty")
		}
		if cfg.Compare.Interval <= 0 {
			return nil, fmt.Errorf("comparerun: scheduler: compare.interval %s: want a positive duration", cfg.Compare.Interval)
		}
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = min(cfg.Compare.Interval, time.Hour)
	}
	pick := PickEngine(cfg.Compare.Budget, cfg.Compare.Engine, false)
	cmd := pick.Command
	var err error
	if cfg.Factory == nil {
		if cmd, err = pick.Resolve("compare.preset", cfg.Logger); err != nil {
			if pick.Preset != "" {
				return nil, fmt.Errorf("comparerun: scheduler: %w", err)
			}
			return nil, fmt.Errorf("comparerun: scheduler: compare.engine: %w", err)
		}
	} else if len(cmd) == 0 {
		cmd = analysis.DefaultEngineCommand()
	}
	s := &Scheduler{cfg: cfg, fetcher: NewFetcher(cfg.Client)}
	label := strings.Join(cmd, " ")
	if cfg.Compare.Budget.ByDate {
		label = "" // by period: each game's engine is in its record
	}
	s.comparer = &Comparer{
		Store: cfg.Store,
		Pool: analysis.PoolConfig{Command: LowPriority(cmd), Workers: 1, Threads: 1, HashMB: cfg.Compare.HashMB,
			Factory: cfg.Factory, Logger: cfg.Logger},
		Budget:       cfg.Compare.Budget,
		WrapCommand:  LowPriority,
		EngineLabel:  label,
		EngineFrom:   pick.From,
		PresetEngine: pick.Preset != "",
		Logger:       cfg.Logger,
	}
	return s, nil
}

// Schedule is the scheduled comparisons' settings (the [compare] section
// of the config with the analysis hash, mapped by the app layer).
type Schedule struct {
	Enabled  bool
	Users    []string      // Lichess usernames
	Interval time.Duration // between a user's runs
	MaxGames int           // per user and run; 0 = all
	Since    time.Duration // how far back to fetch games; 0 = no bound
	Budget   analysis.Budget
	// Engine is the UCI command line or engine name (resolved by Engine).
	// Scheduled runs use one engine with one thread, under nice (see
	// LowPriority), and HashMB MiB of hash.
	Engine []string
	HashMB int
}

// source returns the run source of a configured user.
func (s *Scheduler) source(user string) UserSource {
	return UserSource{Fetcher: s.fetcher, User: user, Since: s.cfg.Compare.Since, Max: s.cfg.Compare.MaxGames}
}

// Due returns when each configured user's next run is due, from the store.
func (s *Scheduler) Due(ctx context.Context) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	for _, u := range s.cfg.Compare.Users {
		runs, err := s.cfg.Store.Runs(ctx, u, 1)
		if err != nil {
			return nil, err
		}
		switch {
		case len(runs) == 0, runs[0].State == RunRunning:
			out[u] = time.Time{} // never run, or interrupted: now
		case runs[0].State == RunFailed:
			out[u] = runs[0].FinishedAt.Add(s.cfg.RetryAfter)
		default:
			out[u] = runs[0].StartedAt.Add(s.cfg.Compare.Interval)
		}
	}
	return out, nil
}

// RunBackground is Run for a list of background tasks: it logs Run's
// error instead of returning it.
func (s *Scheduler) RunBackground(ctx context.Context) {
	if err := s.Run(ctx); err != nil {
		s.cfg.Logger.Error().Err(err).Str("component", "compare").Msg("comparison scheduler stopped")
	}
}

// Run runs comparisons until ctx ends (then it returns nil), one at a time:
// it waits for the earliest due user, runs (or resumes) that user's
// comparison, and starts over. A failed run is logged and retried after
// RetryAfter; only a store that cannot be read ends Run with an error. With
// [compare] disabled Run returns nil at once.
func (s *Scheduler) Run(ctx context.Context) error {
	if !s.cfg.Compare.Enabled || len(s.cfg.Compare.Users) == 0 {
		return nil
	}
	log := s.cfg.Logger.With().Str("component", "compare").Logger()
	for {
		due, err := s.Due(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("comparerun: scheduler: %w", err)
		}
		user := s.cfg.Compare.Users[0]
		for _, u := range s.cfg.Compare.Users {
			if due[u].Before(due[user]) {
				user = u
			}
		}
		if wait := time.Until(due[user]); wait > 0 {
			log.Debug().Str("user", user).Time("due", due[user]).Msg("next comparison")
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		log.Info().Str("user", user).Msg("comparison run starting")
		rep, err := s.comparer.Run(ctx, s.source(user))
		switch {
		case err != nil && ctx.Err() != nil:
			log.Info().Str("user", user).Msg("comparison run interrupted; it resumes on the next start")
		case err != nil:
			log.Warn().Err(err).Str("user", user).Dur("retry_after", s.cfg.RetryAfter).Msg("comparison run failed")
		default:
			ev := log.Info().Str("user", user).Int64("run", rep.RunID).Int("games", rep.Headline.Games)
			if rep.Headline.F1 != nil {
				ev = ev.Float64("f1", *rep.Headline.F1)
			}
			ev.Msg("comparison run finished")
		}
		if s.cfg.OnRun != nil {
			s.cfg.OnRun(user, rep, err)
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			// make sure a run that failed before reaching the store does
			// not spin: wait RetryAfter here
			if runs, rerr := s.cfg.Store.Runs(ctx, user, 1); rerr == nil && (len(runs) == 0 || runs[0].State == RunRunning) {
				t := time.NewTimer(s.cfg.RetryAfter)
				select {
				case <-ctx.Done():
					t.Stop()
					return nil
				case <-t.C:
				}
			}
		}
	}
}
