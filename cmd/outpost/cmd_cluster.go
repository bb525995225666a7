package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/clusterconn"
)

const clusterSynopsis = "init --dir DIR [--workers N] | serve --store DIR --auth DIR [--addr HOST:PORT] [--tls-cert FILE --tls-key FILE] [--name N --cluster-addr HOST:PORT --routes URL,…] | status [--cluster URL --creds FILE --tls-ca FILE] [--json]"

// runCluster implements `outpost cluster init|serve|status`.
func runCluster(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprintf(env.Stderr, "usage: outpost cluster %s\n", clusterSynopsis)
		return errUsage
	}
	switch args[0] {
	case "init":
		return runClusterInit(env, args[1:])
	case "serve":
		return runClusterServe(ctx, env, args[1:])
	case "status":
		return runClusterStatus(ctx, env, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintf(env.Stdout, "usage: outpost cluster %s\n", clusterSynopsis)
		return nil
	}
	fmt.Fprintf(env.Stderr, "outpost cluster: unknown subcommand %q\nusage: outpost cluster %s\n", args[0], clusterSynopsis)
	return errUsage
}

func runClusterInit(env *Env, args []string) error {
	fs := newFlags(env, "cluster init", "--dir DIR [--workers N]")
	dir := fs.String("dir", "", "directory for the server's authorization and the credentials files (required)")
	workers := fs.Int("workers", 1, "worker identities: worker.creds, worker-2.creds … (one per machine, so no worker can write another's status)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		fs.Usage()
		return fmt.Errorf("--dir DIR is required: %w", errUsage)
	}
	files, err := cluster.InitAuth(*dir, *workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote the authorization of %s (outpost cluster serve --auth %s) and the credentials (mode 600):\n", *dir, *dir)
	for _, f := range files {
		fmt.Fprintf(env.Stdout, "  %s\n", f)
	}
	fmt.Fprintln(env.Stdout, "admin.creds may purge and delete; give worker*.creds to the workers (--creds) and client.creds to analyse/compare/status and [cluster] creds_file")
	return nil
}

func runClusterServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "cluster serve", "--store DIR --auth DIR [--addr HOST:PORT] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]] [--name N --cluster-addr HOST:PORT --routes URL,…]")
	addr := fs.String("addr", "127.0.0.1:4222", "address to listen on (NATS clients and workers connect here); not loopback: TLS is required")
	dir := fs.String("store", "", "directory where JetStream keeps the streams (required; survives restarts)")
	authDir := fs.String("auth", "", "directory of outpost cluster init: only its credentials connect, each with its role's permissions")
	noAuth := fs.Bool("no-auth", false, "accept any connection with every right (a loopback test server only)")
	cert := fs.String("tls-cert", "", "server certificate (PEM): clients connect with TLS")
	key := fs.String("tls-key", "", "its private key (PEM)")
	ca := fs.String("tls-ca", "", "CA of the other nodes' certificates: the routes between nodes are TLS too")
	insecure := fs.Bool("insecure", false, "allow a non-loopback --addr or --cluster-addr without TLS")
	name := fs.String("name", "outpost", "server name (each node of a cluster its own)")
	clusterAddr := fs.String("cluster-addr", "", "HOST:PORT for the routes to the other nodes (a NATS cluster with JetStream)")
	routes := fs.String("routes", "", "the other nodes' route URLs, comma-separated (nats://HOST:PORT,…)")
	replicas := fs.Int("replicas", 0, "nodes keeping each stream (default 1, or 3 with --cluster-addr)")
	resultsAge := fs.Duration("results-max-age", cluster.ResultsMaxAge, "how long results, job entries and waiting chunks are kept (at least the longest job); shorter on a large cluster")
	resultsMB := fs.Int64("results-max-mb", cluster.DefaultResultsMaxBytes>>20, "bound of the results stream in MiB (the oldest results go first); larger on a large cluster")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkReplicas(*replicas, *clusterAddr); err != nil {
		return err
	}
	opt := cluster.ServerOptions{Addr: *addr, StoreDir: *dir, Name: *name, TLSCert: *cert, TLSKey: *key, TLSCA: *ca,
		Insecure: *insecure, ClusterAddr: *clusterAddr, Replicas: *replicas, ResultsMaxAge: *resultsAge, ResultsMaxBytes: *resultsMB << 20, Logger: env.logger()}
	if err := serveOptions(fs, &opt, *authDir, *noAuth, *routes); err != nil {
		return err
	}
	srv, err := cluster.Serve(opt)
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	fmt.Fprintf(env.Stdout, "NATS JetStream server %s at %s (store %s)", srv.Name(), srv.URL(), *dir)
	if u := srv.ClusterURL(); u != "" {
		fmt.Fprintf(env.Stdout, ", routes at %s", u)
	}
	fmt.Fprintf(env.Stdout, "; workers: outpost worker --cluster %s --creds worker.creds\n", srv.URL())
	// the streams are created once the cluster has formed (the log says
	// what it waits for); the ready line comes only then
	if err := srv.Ready(ctx); err == nil {
		if opt.Auth != nil {
			fmt.Fprintf(env.Stdout, "cluster ready: streams %s and %s, consumer %s, buckets %s and %s exist\n",
				cluster.WorkStream, cluster.ResultsStream, cluster.WorkConsumer, cluster.WorkersBucket, cluster.JobsBucket)
		} else {
			fmt.Fprintln(env.Stdout, "cluster ready (formed; without --auth the clients create the streams)")
		}
	}
	<-ctx.Done()
	return nil
}

// serveOptions checks the serve flags that need each other and fills opt.
func serveOptions(fs *flag.FlagSet, opt *cluster.ServerOptions, authDir string, noAuth bool, routes string) error {
	if opt.StoreDir == "" {
		fs.Usage()
		return fmt.Errorf("--store DIR is required: %w", errUsage)
	}
	if opt.ResultsMaxAge < time.Minute {
		return fmt.Errorf("--results-max-age %s: want at least 1m (a submitter must find its results)", opt.ResultsMaxAge)
	}
	if opt.ResultsMaxBytes < 1<<20 || opt.ResultsMaxBytes > 1<<50 {
		return fmt.Errorf("--results-max-mb %d: want 1..%d", opt.ResultsMaxBytes>>20, 1<<30)
	}
	switch {
	case authDir != "" && noAuth:
		return errors.New("--auth and --no-auth exclude each other")
	case authDir == "" && !noAuth:
		return errors.New("--auth DIR is required (credentials by default: create DIR with outpost cluster init --dir DIR), or --no-auth for an open test server")
	case authDir != "":
		a, err := cluster.LoadAuth(authDir)
		if err != nil {
			return err
		}
		opt.Auth = a
	}
	if routes != "" {
		opt.Routes = strings.Split(routes, ",")
	}
	if err := os.MkdirAll(opt.StoreDir, 0o700); err != nil {
		return fmt.Errorf("--store %s: %w", opt.StoreDir, err)
	}
	return nil
}

func runClusterStatus(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "cluster status", "[--cluster URL --creds FILE --tls-ca FILE] [--config FILE] [--json]")
	cl := addClusterFlags(fs, "NATS URL, or several comma-separated (default: the config's cluster.url)")
	cfgPath := configFlag(fs, "configuration file (TOML) with a [cluster] section")
	asJSON := fs.Bool("json", false, "print the status as JSON")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	conn, err := connectCluster(ctx, env, "cluster status", *cfgPath, cl, "outpost-status")
	if err != nil {
		return err
	}
	defer conn.Close()
	st, err := conn.Status(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	fmt.Fprint(env.Stdout, st)
	return nil
}

// clusterFlags are the flags that reach a cluster: they override the
// config's [cluster] url, creds_file and tls_ca.
type clusterFlags struct {
	url, creds, tlsCA *string
}

func addClusterFlags(fs *flag.FlagSet, urlUsage string) *clusterFlags {
	return &clusterFlags{
		url:   fs.String("cluster", "", urlUsage),
		creds: fs.String("creds", "", "credentials file of outpost cluster init (client.creds, worker.creds; default: the config's cluster.creds_file)"),
		tlsCA: fs.String("tls-ca", "", "CA certificate (PEM) that signed the servers' certificates (default: the config's cluster.tls_ca)"),
	}
}

// apply returns c with the flags that were given.
func (f *clusterFlags) apply(c config.ClusterConfig) config.ClusterConfig {
	if *f.url != "" {
		c.URL = *f.url
	}
	if *f.creds != "" {
		c.CredsFile = *f.creds
	}
	if *f.tlsCA != "" {
		c.TLSCA = *f.tlsCA
	}
	return c
}

// connectCluster connects to the cluster of the flags, else the config's
// [cluster]. Without a URL it says so and is a usage error (exit 2).
func connectCluster(ctx context.Context, env *Env, cmd, cfgPath string, cl *clusterFlags, name string) (*cluster.Conn, error) {
	if err := checkClusterURL(*cl.url); err != nil {
		return nil, err
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	opts := clusterconn.Options(cl.apply(cfg.Cluster), "", name)
	if opts.URL == "" {
		fmt.Fprintf(env.Stderr, "outpost %s: no cluster: give --cluster URL or set [cluster] url in the configuration\n", cmd)
		return nil, errUsage
	}
	return cluster.Connect(ctx, opts)
}

// natsSchemes are the URL schemes the NATS client connects with.
var natsSchemes = []string{"nats", "tls", "ws", "wss"}

// checkClusterURL checks a --cluster flag before any connection is tried
// (a bad URL made the client retry for 10 s): empty (not given), or a
// comma-separated list of NATS server URLs, each nats://, tls://, ws:// or
// wss:// with a host, or a bare HOST:PORT.
func checkClusterURL(flagURL string) error {
	if strings.TrimSpace(flagURL) == "" {
		return nil
	}
	for _, one := range strings.Split(flagURL, ",") {
		one = strings.TrimSpace(one)
		raw := one
		if !strings.Contains(raw, "://") {
			raw = "nats://" + raw
		}
		u, err := neturl.Parse(raw)
		switch {
		case err != nil:
			return fmt.Errorf("--cluster %q: %w", one, err)
		case !slices.Contains(natsSchemes, u.Scheme):
			return fmt.Errorf("--cluster %q: scheme %q, want nats://, tls://, ws:// or wss://", one, u.Scheme)
		case u.Hostname() == "":
			return fmt.Errorf("--cluster %q: no host (want e.g. nats://127.0.0.1:4222)", one)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("--cluster %q: port %q, want 1..65535", one, p)
			}
		}
	}
	return nil
}

// asDispatcher keeps a nil *clusterconn.Dispatcher a nil interface (no
// cluster: the pool runs its own engines).
func asDispatcher(d *clusterconn.Dispatcher) analysis.Dispatcher {
	if d == nil {
		return nil
	}
	return d
}
