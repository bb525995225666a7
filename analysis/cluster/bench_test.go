package cluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

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

// BenchmarkChunkOverhead measures the bus's cost per chunk, side by side:
// the same jobs of 3-position chunks through a plain loopback server and
// through one with credentials (nkeys, per-role permissions) and TLS,
// alternating, with one worker of one fake engine that answers at once —
// the order alternating; so the time is the bus's: publishing the chunk, the pull, the result,
// the ack, the submitter's read. A Stockfish chunk at Lichess's budget
// takes seconds; compare with that.
//
//	go test ./analysis/cluster -run '^$' -bench ChunkOverhead -benchtime 5x
func BenchmarkChunkOverhead(b *testing.B) {
	const perJob = 200 // chunks per job: enough to average over
	e := newSecureEnv(b)
	plain := startServer(b, "127.0.0.1:0", b.TempDir())
	defer plain.Shutdown()
	secure := e.startSecure(b)
	type side struct {
		name         string
		worker, conn *cluster.Conn
		total        time.Duration
	}
	sides := []*side{
		{name: "plain", worker: connect(b, plain.URL()), conn: connect(b, plain.URL())},
		{name: "auth+TLS", worker: e.connectAs(b, secure.URL(), "worker", nil), conn: e.connectAs(b, secure.URL(), "client", nil)},
	}
	for _, s := range sides {
		stop := runWorker(&cluster.Worker{Conn: s.worker, ID: "bench", Engines: 1, Start: fakeStart, Logger: zerolog.Nop()})
		defer stop()
	}
	ctx := context.Background()
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the worker's engine is a fake
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		chunks := testChunks(perJob, 100+i) // a new job each time: nothing stored
		for k := range sides {
			s := sides[(i+k)%len(sides)] // alternate which goes first
			start := time.Now()
			if _, err := (&cluster.Dispatcher{Conn: s.conn, Logger: zerolog.Nop()}).RunChunks(ctx, spec, chunks, nil); err != nil {
				b.Fatal(s.name, err)
			}
			s.total += time.Since(start)
		}
	}
	per := func(s *side) float64 { return float64(s.total.Microseconds()) / float64(b.N*perJob) }
	b.ReportMetric(per(sides[0]), "plain-µs/chunk")
	b.ReportMetric(per(sides[1]), "auth+TLS-µs/chunk")
	b.ReportMetric(100*(per(sides[1])-per(sides[0]))/per(sides[0]), "auth+TLS-overhead-%")
}
