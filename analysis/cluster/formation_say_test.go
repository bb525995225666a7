package cluster_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// TestFormingLineCountsPeersOnce: the line a client logs while the
// cluster forms says how many peers there are once (it said "2 of 3
// peers …: waiting for a JetStream meta leader (1 of 3 peers connected)",
// the step's count stale).
func TestFormingLineCountsPeersOnce(t *testing.T) {
	noLeaks(t)
	routes := []string{"nats://" + freeAddr(t), "nats://" + freeAddr(t), "nats://" + freeAddr(t)}
	srv, err := cluster.Serve(cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "n1",
		ClusterAddr: strings.TrimPrefix(routes[0], "nats://"), Routes: routes})
	require.NoError(t, err)
	defer srv.Shutdown()
	conn := connect(t, srv.URL())
	var f *cluster.Formation
	require.Eventually(t, func() bool {
		f, err = conn.Formation(context.Background())
		return err == nil && strings.Contains(f.Step, "meta leader")
	}, time.Minute, 10*time.Millisecond, "the server never said it waits for a meta leader")
	if line := f.String(); strings.Count(line, "peers") != 1 || !strings.Contains(line, "(1 of 3 peers") {
		t.Errorf("forming line %q: want the peer count once (1 of 3 peers)", line)
	}
}
