package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// TestClusterCommandsCredentials: `cluster init` writes the credentials;
// `cluster serve` wants --auth (or an explicit --no-auth) and refuses a
// network address without TLS; `cluster status` and `worker` without
// --creds are refused by a server with an authorization, and status with
// the client's credentials shows the node; `worker` with the client's
// credentials fails naming the role, without saying it started.
func TestClusterCommandsCredentials(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth")
	code, out, errOut := runCLI(t, "", "cluster", "init", "--dir", dir, "--workers", "2")
	if code != 0 || !strings.Contains(out, "worker-2.creds") || !strings.Contains(out, "client.creds") {
		t.Fatalf("cluster init: exit %d\n%s%s", code, out, errOut)
	}
	a, err := cluster.LoadAuth(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := cluster.Serve(cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Auth: a})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
		not  string // must not be in the output
	}{
		{"init again", []string{"cluster", "init", "--dir", dir}, 1, "not overwritten", ""},
		{"serve without auth", []string{"cluster", "serve", "--store", store}, 1, "--auth DIR is required", ""},
		{"serve with results kept a second", []string{"cluster", "serve", "--store", store, "--auth", dir, "--results-max-age", "1s"}, 1, "--results-max-age 1s: want at least 1m", ""},
		{"serve with no room for results", []string{"cluster", "serve", "--store", store, "--auth", dir, "--results-max-mb", "0"}, 1, "--results-max-mb 0: want 1..", ""},
		{"serve both", []string{"cluster", "serve", "--store", store, "--auth", dir, "--no-auth"}, 1, "exclude each other", ""},
		{"serve on the network without TLS", []string{"cluster", "serve", "--store", store, "--auth", dir, "--addr", "0.0.0.0:0"}, 1, "TLS is off", ""},
		{"status without credentials", []string{"cluster", "status", "--cluster", srv.URL()}, 1, "requires credentials and none were given", ""},
		{"worker without credentials", []string{"worker", "--cluster", srv.URL()}, 1, "requires credentials and none were given", ""},
		{"status as client", []string{"cluster", "status", "--cluster", srv.URL(), "--creds", filepath.Join(dir, "client.creds")}, 0, "nodes: outpost (leader)", ""},
		{"worker as client", []string{"worker", "--cluster", srv.URL(), "--creds", filepath.Join(dir, "client.creds")}, 1,
			"the credentials in " + filepath.Join(dir, "client.creds") + " are of role client, not the worker role", "worker started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OUTPOST_CONFIG", "")
			code, out, errOut := runCLI(t, "", tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; output does not say %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
			if tc.not != "" && strings.Contains(out+errOut, tc.not) {
				t.Errorf("output says %q:\n%s%s", tc.not, out, errOut)
			}
		})
	}
}

// TestClusterStatusWhileForming: the first node of three (auth, routes to
// two nodes not started) is up; `cluster status` says the cluster is
// forming and how many peers it has (a worker meeting it waits: that
// is analysis/cluster's TestThreeNodesFormOneAfterAnother).
func TestClusterStatusWhileForming(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth")
	if _, err := cluster.InitAuth(dir, 1); err != nil {
		t.Fatal(err)
	}
	a, err := cluster.LoadAuth(dir)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		routes = append(routes, "nats://"+l.Addr().String())
		l.Close()
	}
	srv, err := cluster.Serve(cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Auth: a, Name: "n1",
		ClusterAddr: strings.TrimPrefix(routes[0], "nats://"), Routes: routes})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	t.Setenv("OUTPOST_CONFIG", "")
	code, out, errOut := runCLI(t, "", "cluster", "status", "--cluster", srv.URL(), "--creds", filepath.Join(dir, "client.creds"))
	if code != 0 || !strings.Contains(out, "cluster: forming (1 of 3 peers") {
		t.Errorf("status of one node of three: exit %d\n%s%s", code, out, errOut)
	}
}
