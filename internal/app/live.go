package app

import (
	"context"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/internal/web"
	"github.com/outpostchess/outpost/lichess"
)

// Live is what RunLive needs besides the context.
type Live struct {
	// Config is the loaded configuration, ConfigPath its file ("" for the
	// defaults; the console's knobs editor saves into it).
	Config     *config.Config
	ConfigPath string
	// Token is the Lichess API token.
	Token lichess.Token
	// Logger is every part's logger; Warn receives the console
	// calculator's closing errors.
	Logger zerolog.Logger
	Warn   io.Writer
}

// RunLive runs the daemon against Lichess (the config's [lichess]) with its
// store, summaries, verification, console and scheduled comparisons, until
// ctx ends.
func RunLive(ctx context.Context, l Live) (err error) {
	cfg, log := l.Config, l.Logger
	st, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return err
	}
	defer closeOnReturn(&err, "the store", st.Close)
	copt := daemon.ClientOptions(cfg, cfg.Lichess.URL, l.Token, log)
	if err := daemon.PersistLockouts(ctx, st, &copt, log); err != nil {
		return err
	}
	client, err := lichess.New(copt)
	if err != nil {
		return err
	}
	sum := postgame.FromConfig(cfg, "", log)
	defer sum.Close()
	maia, pred, closeMaia := MaiaOption(cfg, log)
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
		if err := addConsole(ctx, l, st, d); err != nil {
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
func addConsole(ctx context.Context, l Live, st *store.Store, d *daemon.Daemon) error {
	cfg, log := l.Config, l.Logger
	token, err := web.ReadAccessToken(cfg.Web.AccessTokenFile)
	if err != nil {
		return err
	}
	if !web.IsLoopback(cfg.Web.Addr) && token == "" {
		return fmt.Errorf("web.addr %s is not a loopback address: set web.access_token_file", cfg.Web.Addr)
	}
	lazy := LazyEWR(ctx, cfg.Analysis.Engine, 1, cfg.Store.Path, log, l.Warn)
	opt := web.Options{Store: st, Status: d, Calculator: lazy, ConfigPath: l.ConfigPath, AccessToken: token, Addr: cfg.Web.Addr,
		TLSCert: cfg.Web.TLSCertFile, TLSKey: cfg.Web.TLSKeyFile, PlainHTTP: cfg.Web.PlainHTTP, Logger: log,
		Against: verify.AgainstURL(cfg.Lichess.URL)}
	if mon := clusterconn.NewMonitor(cfg.Cluster, "outpost-console"); mon != nil {
		d.AddBackground(func(ctx context.Context) { <-ctx.Done(); mon.Close() })
		opt.Cluster = mon.Status
	}
	opt.Engines = ProviderStatus(cfg)
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	d.AddBackground(func(ctx context.Context) {
		defer lazy.Close()
		log.Info().Str("addr", cfg.Web.Addr).Msg("web console listening")
		if err := srv.ListenAndServe(ctx, cfg.Web.Addr); err != nil && ctx.Err() == nil {
			log.Error().Err(err).Msg("web console stopped")
		}
	})
	return nil
}

// closeOnReturn, deferred, closes what its caller opened and keeps the
// caller's error, else the error closing it (naming what).
func closeOnReturn(err *error, what string, close func() error) {
	if cerr := close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("closing %s: %w", what, cerr)
	}
}
