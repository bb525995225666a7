package main

import (
	"context"
	"encoding/json"
	"fmt"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/internal/clusterconn"
)

const clusterSynopsis = "serve --addr HOST:PORT --store DIR | status [--cluster URL] [--json]"

// runCluster implements `outpost cluster serve|status`.
func runCluster(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprintf(env.Stderr, "usage: outpost cluster %s\n", clusterSynopsis)
		return errUsage
	}
	switch args[0] {
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

func runClusterServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "cluster serve", "--addr HOST:PORT --store DIR")
	addr := fs.String("addr", "127.0.0.1:4222", "address to listen on (NATS clients and workers connect here)")
	dir := fs.String("store", "", "directory where JetStream keeps the streams (required; survives restarts)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		fs.Usage()
		return fmt.Errorf("--store DIR is required: %w", errUsage)
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return fmt.Errorf("--store %s: %w", *dir, err)
	}
	srv, err := cluster.Serve(cluster.ServerOptions{Addr: *addr, StoreDir: *dir})
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	fmt.Fprintf(env.Stdout, "NATS JetStream server at %s (store %s); workers: outpost worker --cluster %s\n", srv.URL(), *dir, srv.URL())
	<-ctx.Done()
	return nil
}

func runClusterStatus(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "cluster status", "[--cluster URL] [--config FILE] [--json]")
	url := fs.String("cluster", "", "NATS URL (default: the config's cluster.url)")
	cfgPath := configFlag(fs, "configuration file (TOML) with a [cluster] section")
	asJSON := fs.Bool("json", false, "print the status as JSON")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	conn, err := connectCluster(ctx, env, "cluster status", *cfgPath, *url, "outpost-status")
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

// connectCluster connects to --cluster URL, else the config's [cluster].
// Without either it says so and is a usage error (exit 2).
func connectCluster(ctx context.Context, env *Env, cmd, cfgPath, url, name string) (*cluster.Conn, error) {
	if err := checkClusterURL(url); err != nil {
		return nil, err
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	opts := clusterconn.Options(cfg.Cluster, url, name)
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
