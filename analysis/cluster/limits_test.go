package cluster_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// TestClusterStreamsAreBounded: every stream the server creates has a
// size bound of JetStream's own, so a worker identity cannot fill the
// disk: a result over the message bound is refused by the server, and a
// flood of results within it keeps the results stream at its byte bound
// (the oldest go first).
func TestClusterStreamsAreBounded(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	opt := e.serverOptions(t, "bounded")
	opt.ResultsMaxBytes = 1 << 20
	srv, err := cluster.Serve(opt)
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	waitReady(t, srv)
	admin := e.connectAs(t, srv.URL(), "admin", nil)
	w2 := e.connectAs(t, srv.URL(), "worker-2", nil)
	ctx := context.Background()
	for _, name := range []string{cluster.WorkStream, cluster.ResultsStream, "KV_" + cluster.WorkersBucket, "KV_" + cluster.JobsBucket} {
		s, err := admin.JS.Stream(ctx, name)
		require.NoError(t, err)
		cfg := s.CachedInfo().Config
		if cfg.MaxBytes <= 0 || cfg.MaxMsgSize <= 0 || cfg.MaxAge <= 0 {
			t.Errorf("stream %s: max bytes %d, max message size %d, max age %s; want each bounded", name, cfg.MaxBytes, cfg.MaxMsgSize, cfg.MaxAge)
		}
	}
	subject := func(i int) string { return fmt.Sprintf("outpost.results.%024x.%d.%s", 1, i, w2.Identity) }
	_, err = w2.JS.Publish(ctx, subject(0), make([]byte, 300<<10))
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "maximum") {
		t.Errorf("a 300 KiB result: %v; want it refused by the stream's message bound", err)
	}
	for i := range 20 {
		_, err := w2.JS.Publish(ctx, subject(i), make([]byte, 200<<10))
		require.NoError(t, err, "result %d within the bounds", i)
	}
	s, err := admin.JS.Stream(ctx, cluster.ResultsStream)
	require.NoError(t, err)
	info, err := s.Info(ctx)
	require.NoError(t, err)
	if info.State.Bytes > 1<<20 {
		t.Errorf("results stream holds %d bytes after 4 MB of results; want at most its bound, 1 MiB", info.State.Bytes)
	}
}
