package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

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
	conn, err := connectCluster(ctx, *cfgPath, *url, "outpost-status")
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
func connectCluster(ctx context.Context, cfgPath, url, name string) (*cluster.Conn, error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	opts := clusterconn.Options(cfg.Cluster, url, name)
	if opts.URL == "" {
		return nil, fmt.Errorf("no cluster: give --cluster URL or set [cluster] url: %w", errUsage)
	}
	return cluster.Connect(ctx, opts)
}

// asDispatcher keeps a nil *clusterconn.Dispatcher a nil interface (no
// cluster: the pool runs its own engines).
func asDispatcher(d *clusterconn.Dispatcher) analysis.Dispatcher {
	if d == nil {
		return nil
	}
	return d
}
