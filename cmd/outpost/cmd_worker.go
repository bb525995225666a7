package main

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/internal/clusterconn"
)

// runWorker implements `outpost worker`: search analysis chunks from the
// cluster until interrupted.
func runWorker(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "worker", "--cluster URL[,URL…] --creds FILE [--tls-ca FILE] [--engines N] [--name ID] [--config FILE]")
	cl := addClusterFlags(fs, "NATS URL of the cluster, or every node's comma-separated (default: the config's cluster.url)")
	engines := fs.Int("engines", 1, "engines run at once (one chunk each); at most the CPU cores for full speed")
	name := fs.String("name", "", "worker id in the status (default: HOST-PID)")
	cfgPath := configFlag(fs, "configuration file (TOML) with a [cluster] section")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkWorkerName(*name); err != nil {
		return err
	}
	if *engines < 1 || *engines > maxEngines {
		return fmt.Errorf("--engines %d: want 1..%d", *engines, maxEngines)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	conn, err := connectCluster(ctx, env, "worker", *cfgPath, cl, "outpost-worker")
	if err != nil {
		return err
	}
	defer conn.Close()
	log := env.logger()
	w := &cluster.Worker{Conn: conn, ID: *name, Engines: *engines, Settings: clusterconn.Settings(cfg.Cluster), Logger: log}
	// said once the worker may work: credentials of the wrong role fail
	// Run before, naming the role
	w.OnStarted = func() {
		log.Info().Int("engines", *engines).Str("cluster", conn.NC.ConnectedUrlRedacted()).Msg("worker started")
	}
	return w.Run(ctx)
}
