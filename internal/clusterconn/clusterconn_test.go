package clusterconn

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/config"
)

// TestNothingConfigured: without a URL there is no dispatcher and no
// monitor, so everything runs in-process.
func TestNothingConfigured(t *testing.T) {
	if d := New(config.ClusterConfig{}, " ", "x", zerolog.Nop()); d != nil {
		t.Errorf("New without a URL = %+v, want nil", d)
	}
	if m := NewMonitor(config.ClusterConfig{}, "x"); m != nil {
		t.Errorf("NewMonitor without a URL = %+v, want nil", m)
	}
}

// TestConnectionFailsAndIsRetried: a connection that fails (here the
// caller gives up before the cluster answers) is an error of the call, no
// connection is kept (the next call tries again), and Close is safe
// without a connection.
func TestConnectionFailsAndIsRetried(t *testing.T) {
	cfg := config.ClusterConfig{URL: "nats://127.0.0.1:1"}
	d := New(cfg, "", "test", zerolog.Nop())
	m := NewMonitor(cfg, "test")
	if d == nil || m == nil {
		t.Fatal("a configured URL gives a dispatcher and a monitor")
	}
	if d.opts.URL != "nats://127.0.0.1:1" || d.opts.Name != "test" {
		t.Errorf("options %+v", d.opts)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // cluster.Connect waits for the server until ctx ends
	for i := range 2 {
		if _, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, nil, nil); err == nil {
			t.Fatalf("RunChunks %d on a cluster that is down: no error", i)
		}
		if _, err := m.Status(ctx); err == nil {
			t.Fatalf("Status %d on a cluster that is down: no error", i)
		}
		if d.conn != nil || m.conn != nil {
			t.Fatal("a failed connection was kept")
		}
	}
	d.Close()
	m.Close()
	if d.EngineName() != "" {
		t.Errorf("EngineName before any result = %q", d.EngineName())
	}
}

// TestMonitorSaysForming: the console's status of a cluster whose first
// node of three is up (no auth, routes to two nodes not started) is an
// error saying it is forming, not an empty page.
func TestMonitorSaysForming(t *testing.T) {
	var routes []string
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		routes = append(routes, "nats://"+l.Addr().String())
		l.Close()
	}
	srv, err := cluster.Serve(cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "n1",
		ClusterAddr: strings.TrimPrefix(routes[0], "nats://"), Routes: routes})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	m := NewMonitor(config.ClusterConfig{URL: srv.URL()}, "test")
	defer m.Close()
	if _, err := m.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "forming (1 of 3 peers") {
		t.Errorf("status of one node of three: %v, want it to say the cluster is forming", err)
	}
}
