// Package clusterconn wires the [cluster] configuration to the analysis
// cluster (analysis/cluster): connection options, and a dispatcher that
// connects on first use so a daemon starts even while the cluster is
// down.
package clusterconn

import (
	"context"
	"strings"
	"sync"
	"time"

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

// statusTimeout bounds one status read (a page must not hang on a cluster
// that is down).
const statusTimeout = 3 * time.Second

// Monitor reads the cluster's status (the web console's Cluster page) over
// a connection made on first use.
type Monitor struct {
	opts cluster.ConnOptions

	mu   sync.Mutex
	conn *cluster.Conn
}

// NewMonitor returns the monitor of c, or nil when no cluster is
// configured.
func NewMonitor(c config.ClusterConfig, name string) *Monitor {
	o := Options(c, "", name)
	if o.URL == "" {
		return nil
	}
	return &Monitor{opts: o}
}

// Status reads the status, connecting first if needed.
func (m *Monitor) Status(ctx context.Context) (*cluster.ClusterStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.conn == nil {
		c, err := cluster.Connect(ctx, m.opts)
		if err != nil {
			return nil, err
		}
		m.conn = c
	}
	return m.conn.Status(ctx)
}

// Close closes the connection, if any.
func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.conn != nil {
		m.conn.Close()
		m.conn = nil
	}
}
