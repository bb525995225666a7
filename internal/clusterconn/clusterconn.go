// Package clusterconn wires the [cluster] configuration to the analysis
// cluster (analysis/cluster): connection options, and a dispatcher that
// connects on first use so a daemon starts even while the cluster is
// down.
package clusterconn

import (
	"context"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/config"
)

// Options returns the connection options of c; url, when not empty,
// replaces c.URL (a --cluster flag).
func Options(c config.ClusterConfig, url, name string) cluster.ConnOptions {
	if url == "" {
		url = c.URL
	}
	return cluster.ConnOptions{URL: strings.TrimSpace(url), CredsFile: c.CredsFile, TLSCA: c.TLSCA, TLSCert: c.TLSCert, TLSKey: c.TLSKey, Name: name}
}

// Settings returns the stream and consumer settings of c.
func Settings(c config.ClusterConfig) cluster.Settings {
	return cluster.Settings{AckWait: c.AckWait, Replicas: c.Replicas}
}

// Dispatcher is an analysis.Dispatcher on the configured cluster. It
// connects on the first RunChunks and keeps the connection; a failed
// connection is tried again by the next call.
type Dispatcher struct {
	opts     cluster.ConnOptions
	settings cluster.Settings
	log      zerolog.Logger

	mu   sync.Mutex
	conn *cluster.Conn
	last *cluster.Dispatcher
}

// EngineName is the workers' engine name from the last results ("" before
// any).
func (d *Dispatcher) EngineName() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.last == nil {
		return ""
	}
	return d.last.EngineName()
}

// New returns the dispatcher of c (url overriding c.URL), or nil when no
// cluster is configured: then everything runs in-process.
func New(c config.ClusterConfig, url, name string, log zerolog.Logger) *Dispatcher {
	o := Options(c, url, name)
	if o.URL == "" {
		return nil
	}
	return &Dispatcher{opts: o, settings: Settings(c), log: log}
}

// RunChunks implements analysis.Dispatcher.
func (d *Dispatcher) RunChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	d.mu.Lock()
	if d.conn == nil {
		c, err := cluster.Connect(ctx, d.opts)
		if err != nil {
			d.mu.Unlock()
			return nil, err
		}
		d.conn = c
	}
	cd := &cluster.Dispatcher{Conn: d.conn, Settings: d.settings, Logger: d.log}
	d.last = cd
	d.mu.Unlock()
	return cd.RunChunks(ctx, spec, chunks, done)
}

// Close closes the connection, if any.
func (d *Dispatcher) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		d.conn.Close()
		d.conn = nil
	}
}
