package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web"
)

const serveSynopsis = "[--addr 127.0.0.1:8090] [--store FILE] [--config FILE] [--token-file FILE] [--engine CMD] [--no-ewr]"

// runServe implements `outpost serve`: the local web console.
func runServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "serve", serveSynopsis)
	cfgPath := configFlag(fs, "configuration file (TOML): [web], [store] path, [analysis] engine; the knobs editor saves knob sets into it")
	addr := fs.String("addr", "", "listen address (default: the config's web.addr, 127.0.0.1:8090)")
	storePath := fs.String("store", "", "SQLite store of the games and runs (default: the config's store.path)")
	tokenFile := fs.String("token-file", "", "file holding the console's access token; required for a non-loopback --addr (default: the config's web.access_token_file)")
	engine := fs.String("engine", "", "UCI engine command line for expected winrate (default: the config's analysis.engine)")
	workers := fs.Int("workers", 2, "Stockfish engines run in parallel for expected winrate")
	noEWR := fs.Bool("no-ewr", false, "do not offer expected winrate (no Maia or Stockfish is started)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "workers"); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	if *addr == "" {
		*addr = cfg.Web.Addr
	}
	if *storePath == "" {
		*storePath = cfg.Store.Path
	}
	if *tokenFile == "" {
		*tokenFile = cfg.Web.AccessTokenFile
	}
	token, err := readAccessToken(*tokenFile)
	if err != nil {
		return err
	}
	if !web.IsLoopback(*addr) && token == "" {
		return fmt.Errorf("--addr %s is not a loopback address: give --token-file (or web.access_token_file) with an access token", *addr)
	}
	st, err := store.Open(ctx, *storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	opt := web.Options{Store: st, ConfigPath: *cfgPath, AccessToken: token, Addr: *addr, Logger: env.logger()}
	if mon := clusterconn.NewMonitor(cfg.Cluster, "outpost-console"); mon != nil {
		defer mon.Close()
		opt.Cluster = mon.Status
	}
	if !*noEWR {
		cmdline := cfg.Analysis.Engine
		if *engine != "" {
			cmdline = strings.Fields(*engine)
		}
		if len(cmdline) == 0 {
			return errors.New("--engine is empty")
		}
		lazy := newLazyEWR(ctx, env, cmdline, max(1, *workers), *storePath)
		defer lazy.close()
		opt.Calculator = lazy
	}
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	log := env.logger()
	log.Info().Str("addr", *addr).Bool("token", token != "").Msg("serve: web console listening")
	fmt.Fprintf(env.Stderr, "outpost serve: console on http://%s/\n", *addr)
	return srv.ListenAndServe(ctx, *addr)
}

// lazyEWR starts Maia and Stockfish on the first expected-winrate request,
// so that the console runs (and answers every other page) without them.
// readAccessToken reads the console's access token; "" for no file.
func readAccessToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("access token file %s is empty", path)
	}
	if len(token) < web.MinAccessTokenLen {
		return "", fmt.Errorf("access token file %s: the token has %d characters: want at least %d", path, len(token), web.MinAccessTokenLen)
	}
	return token, nil
}

// newLazyEWR returns a calculator that starts Maia and Stockfish on first
// use.
func newLazyEWR(ctx context.Context, env *Env, cmdline []string, workers int, storePath string) *lazyEWR {
	return &lazyEWR{open: func() (*ewr.Calculator, func(), error) {
		return openEWR(ctx, env, cmdline, workers, 64, storePath, false)
	}}
}

// lazyEWR starts the expected-winrate calculator on first use.
type lazyEWR struct {
	open func() (*ewr.Calculator, func(), error)

	once    sync.Once
	calc    *ewr.Calculator
	closeFn func()
	err     error
}

// ewrTimeLimit bounds one expected-winrate calculation of the console.
const ewrTimeLimit = 5 * time.Minute

// get starts the calculator on first use; a failure is kept (and said
// plainly on the pages: web.ErrUnavailable).
func (l *lazyEWR) get() (web.EWR, error) {
	l.once.Do(func() { l.calc, l.closeFn, l.err = l.open() })
	if l.err != nil {
		return web.EWR{}, fmt.Errorf("%w (it needs the Maia models and Stockfish; see 'outpost models' and --engine): %v", web.ErrUnavailable, l.err)
	}
	return web.EWR{Calc: l.calc, TimeLimit: ewrTimeLimit}, nil
}

// Calculate implements web.Calculator.
func (l *lazyEWR) Calculate(ctx context.Context, pos ewr.Position, p ewr.Params, progress func(web.Progress)) (*ewr.Result, error) {
	e, err := l.get()
	if err != nil {
		return nil, err
	}
	return e.Calculate(ctx, pos, p, progress)
}

// Moment implements web.Calculator.
func (l *lazyEWR) Moment(ctx context.Context, g ewr.Game, ply int, progress func(web.Progress)) (ewr.Moment, error) {
	e, err := l.get()
	if err != nil {
		return ewr.Moment{}, err
	}
	return e.Moment(ctx, g, ply, progress)
}

func (l *lazyEWR) close() {
	if l.closeFn != nil {
		l.closeFn()
	}
}
