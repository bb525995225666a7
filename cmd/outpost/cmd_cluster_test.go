package main

import (
	"context"
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
// the client's credentials shows the node.
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
	}{
		{"init again", []string{"cluster", "init", "--dir", dir}, 1, "not overwritten"},
		{"serve without auth", []string{"cluster", "serve", "--store", store}, 1, "--auth DIR is required"},
		{"serve with results kept a second", []string{"cluster", "serve", "--store", store, "--auth", dir, "--results-max-age", "1s"}, 1, "--results-max-age 1s: want at least 1m"},
		{"serve both", []string{"cluster", "serve", "--store", store, "--auth", dir, "--no-auth"}, 1, "exclude each other"},
		{"serve on the network without TLS", []string{"cluster", "serve", "--store", store, "--auth", dir, "--addr", "0.0.0.0:0"}, 1, "TLS is off"},
		{"status without credentials", []string{"cluster", "status", "--cluster", srv.URL()}, 1, "requires credentials and none were given"},
		{"worker without credentials", []string{"worker", "--cluster", srv.URL()}, 1, "requires credentials and none were given"},
		{"status as client", []string{"cluster", "status", "--cluster", srv.URL(), "--creds", filepath.Join(dir, "client.creds")}, 0, "nodes: outpost (leader)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OUTPOST_CONFIG", "")
			code, out, errOut := runCLI(t, "", tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; output does not say %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}
