package main

import (
	"fmt"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// checkClusterEngine refuses, before anything runs, an engine a cluster
// cannot run: a cluster's chunks carry an engine name of cluster.Engines()
// (sf15, sf18, sf19), which each worker resolves on its own machine, and
// bounded settings, never a command line (docs/cluster.md, "What a worker
// accepts"). engineFrom and hashFrom name where the engine and the hash
// came from (a flag, or a flag and its config key).
func checkClusterEngine(cmdline []string, engineFrom string, threads, hash int, hashFrom string) error {
	if _, err := cluster.EngineFor(analysis.EngineSpec{Command: cmdline}); err != nil {
		return fmt.Errorf("%s with a cluster (--cluster or [cluster] url): %w; a worker never runs a command sent to it (without a cluster the engine runs here)", engineFrom, err)
	}
	if _, err := cluster.EngineFor(analysis.EngineSpec{Command: cmdline, Threads: threads}); err != nil {
		return fmt.Errorf("--threads with a cluster: %w", err)
	}
	if _, err := cluster.EngineFor(analysis.EngineSpec{Command: cmdline, Threads: threads, HashMB: hash}); err != nil {
		return fmt.Errorf("%s with a cluster: %w", hashFrom, err)
	}
	return nil
}
