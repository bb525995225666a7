// Package clusterconn wires the [cluster] configuration to the analysis
// cluster (analysis/cluster): connection options, and a dispatcher that
// connects on first use so a daemon starts even while the cluster is
// down.
package clusterconn

import (
	"context"
	"fmt"
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
	lazyConn // its mu also guards last
	settings cluster.Settings
	log      zerolog.Logger
	last     *cluster.Dispatcher
}

// lazyConn is a cluster connection made on first use and kept; a failed
// connection is tried again by the next use.
type lazyConn struct {
	opts cluster.ConnOptions

	mu   sync.Mutex
	conn *cluster.Conn
}

// connLocked returns the connection, connecting first if needed; l.mu
// must be held.
func (l *lazyConn) connLocked(ctx context.Context) (*cluster.Conn, error) {
	if l.conn == nil {
		c, err := cluster.Connect(ctx, l.opts)
		if err != nil {
			return nil, err
		}
		l.conn = c
	}
	return l.conn, nil
}

// Close closes the connection, if any.
func (l *lazyConn) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		l.conn.Close()
		l.conn = nil
	}
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
	return &Dispatcher{lazyConn: lazyConn{opts: o}, settings: Settings(c), log: log}
}

// RunChunks implements analysis.Dispatcher.
func (d *Dispatcher) RunChunks(ctx context.Context, spec analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	d.mu.Lock()
	conn, err := d.connLocked(ctx)
	if err != nil {
		d.mu.Unlock()
		return nil, err
	}
	cd := &cluster.Dispatcher{Conn: conn, Settings: d.settings, Logger: d.log}
	d.last = cd
	d.mu.Unlock()
	return cd.RunChunks(ctx, spec, chunks, done)
}

// statusTimeout bounds one status read (a page must not hang on a cluster
// that is down).
const statusTimeout = 3 * time.Second

// Monitor reads the cluster's status (the web console's Cluster page) over
// a connection made on first use.
type Monitor struct {
	lazyConn
}

// NewMonitor returns the monitor of c, or nil when no cluster is
// configured.
func NewMonitor(c config.ClusterConfig, name string) *Monitor {
	o := Options(c, "", name)
	if o.URL == "" {
		return nil
	}
	return &Monitor{lazyConn{opts: o}}
}

// Status reads the status, connecting first if needed; a cluster still
// forming is an error saying so ("cluster: forming (2 of 3 peers, …)").
func (m *Monitor) Status(ctx context.Context) (*cluster.ClusterStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	m.mu.Lock()
	defer m.mu.Unlock()
	conn, err := m.connLocked(ctx)
	if err != nil {
		return nil, err
	}
	st, err := conn.Status(ctx)
	if err == nil && st.Forming != nil {
		// no workers, queue or jobs exist yet: the page says why
		return nil, fmt.Errorf("%s", strings.TrimSpace(st.String()))
	}
	return st, err
}
