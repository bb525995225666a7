package cluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// BenchmarkClusterOverhead analyses the same shared game with the local
// pool (2 engines) and through the embedded server with one worker of 2
// engines, alternating, and reports both wall times and the overhead of
// the bus. The results stream is purged before each cluster run, so every
// position is searched again.
//
//	go test ./analysis/cluster -run '^$' -bench ClusterOverhead -benchtime 3x
func BenchmarkClusterOverhead(b *testing.B) {
	stockfishOrSkip(b)
	g := sharedGame(b, "CCW6EEru.pgn")
	srv := startServer(b, "127.0.0.1:0", b.TempDir())
	defer srv.Shutdown()
	startWorker(b, srv.URL(), "bench", 2)
	conn := connect(b, srv.URL())
	ctx := context.Background()
	opt := analysis.EngineOptions{Budget: analysis.Budget{Nodes: 200_000}, BorderlineBand: -1}
	run := func(cfg analysis.PoolConfig) time.Duration {
		p, err := analysis.NewPool(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		start := time.Now()
		if _, errs, err := p.AnalyseGames(ctx, []*analysis.Game{g}, opt); err != nil || errs[0] != nil {
			b.Fatal(err, errs)
		}
		return time.Since(start)
	}
	var local, remote time.Duration
	for i := 0; i < b.N; i++ {
		local += run(analysis.PoolConfig{Workers: 2, HashMB: 16})
		s, err := conn.JS.Stream(ctx, cluster.ResultsStream)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Purge(ctx); err != nil {
			b.Fatal(err)
		}
		remote += run(analysis.PoolConfig{Workers: 2, HashMB: 16, Dispatcher: &cluster.Dispatcher{Conn: conn}})
	}
	b.ReportMetric(local.Seconds()/float64(b.N), "local-s/game")
	b.ReportMetric(remote.Seconds()/float64(b.N), "cluster-s/game")
	b.ReportMetric(100*(remote.Seconds()-local.Seconds())/local.Seconds(), "overhead-%")
}
