package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/outpostchess/outpost/internal/app"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/internal/web"
)

const serveSynopsis = "[--addr 127.0.0.1:8090] [--store FILE] [--config FILE] [--token-file FILE] [--tls-cert FILE --tls-key FILE | --plain-http] [--engine CMD] [--no-ewr]"

// runServe implements `outpost serve`: the local web console.
// Long: eleven flags and their defaults from the config ([web], [store],
// [analysis]); the work is in web.New and app.LazyEWR.
func runServe(ctx context.Context, env *Env, args []string) (err error) {
	fs := newFlags(env, "serve", serveSynopsis)
	cfgPath := configFlag(fs, "configuration file (TOML): [web], [store] path, [analysis] engine; the knobs editor saves knob sets into it")
	addr := fs.String("addr", "", "listen address (default: the config's web.addr, 127.0.0.1:8090)")
	storePath := fs.String("store", "", "SQLite store of the games and runs (default: the config's store.path)")
	tokenFile := fs.String("token-file", "", "file holding the console's access token; required for a non-loopback --addr (default: the config's web.access_token_file)")
	tlsCert := fs.String("tls-cert", "", "certificate (PEM) to serve HTTPS with; required for a non-loopback --addr unless --plain-http (default: the config's web.tls_cert_file)")
	tlsKey := fs.String("tls-key", "", "private key (PEM) of --tls-cert (default: the config's web.tls_key_file)")
	plainHTTP := fs.Bool("plain-http", false, "serve plain HTTP on a non-loopback --addr: TLS ends in front of the console (a reverse proxy); default: the config's web.plain_http")
	engine := fs.String("engine", "", "UCI engine command line for expected winrate (default: the config's analysis.engine)")
	workers := fs.Int("workers", 2, "Stockfish engines run in parallel for expected winrate")
	noEWR := fs.Bool("no-ewr", false, "do not offer expected winrate (no Maia or Stockfish is started)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 1, "workers"); err != nil {
		return err
	}
	if err := checkMax(fs, map[string]int64{"workers": maxEngines}); err != nil {
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
	if *tlsCert == "" && *tlsKey == "" {
		*tlsCert, *tlsKey = cfg.Web.TLSCertFile, cfg.Web.TLSKeyFile
	}
	*plainHTTP = *plainHTTP || cfg.Web.PlainHTTP
	token, err := web.ReadAccessToken(*tokenFile)
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
	defer closeOnReturn(&err, "the store", st.Close)
	opt := web.Options{Store: st, ConfigPath: *cfgPath, AccessToken: token, Addr: *addr,
		TLSCert: *tlsCert, TLSKey: *tlsKey, PlainHTTP: *plainHTTP, Logger: env.logger(),
		Against: verify.AgainstURL(cfg.Lichess.URL)}
	if mon := clusterconn.NewMonitor(cfg.Cluster, "outpost-console"); mon != nil {
		defer mon.Close()
		opt.Cluster = mon.Status
	}
	opt.Engines = app.ProviderStatus(cfg)
	if !*noEWR {
		cmdline := cfg.Analysis.Engine
		if *engine != "" {
			cmdline = strings.Fields(*engine)
		}
		if len(cmdline) == 0 {
			return errors.New("--engine is empty")
		}
		lazy := app.LazyEWR(ctx, cmdline, max(1, *workers), *storePath, env.logger(), env.Stderr)
		defer lazy.Close()
		opt.Calculator = lazy
	}
	srv, err := web.New(opt)
	if err != nil {
		return err
	}
	log := env.logger()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	// Listening before saying so: the line is the console's readiness, with
	// the port chosen for --addr HOST:0.
	log.Info().Str("addr", ln.Addr().String()).Bool("token", token != "").Msg("serve: web console listening")
	fmt.Fprintf(env.Stderr, "outpost serve: console on %s://%s/\n", srv.Scheme(), ln.Addr())
	return srv.Serve(ctx, ln)
}
