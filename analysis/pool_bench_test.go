package analysis

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
)

// benchGame is a fixed game (Lichess q7ZvsdUF, first 30 moves).
const benchGame = "d4 d5 c4 c6 Nc3 e6 e4 Nd7 exd5 cxd5 cxd5 exd5 Nxd5 Nb6 Bb5+ Bd7 Qe2+ Ne7 Nxb6 Qxb6 " +
	"Bxd7+ Kxd7 Nf3 Qa6 Ne5+ Ke8 Qf3 f6 Nd3 Qc6 Qe2 Kf7 O-O Kg8 Bd2 Re8 Rac1 Nf5 Be3 Qe6 " +
	"Rfe1 g6 b3 Bd6 Qd2 Kf7 Bf4 Qd7 Bxd6 Nxd6 Nc5 Rxe1+ Rxe1 Qc6 f3 Re8 Rxe8 Nxe8 Kf2 Nc7"

// BenchmarkPoolVsDirect analyses the positions of a fixed game with two
// workers through the pool, and with two Stockfish processes driven
// directly over the UCI client (same positions, budget, chunking and hash
// clearing), in one run. It reports both times and the pool's overhead.
//
//	go test -run '^$' -bench PoolVsDirect -benchtime 3x ./analysis/
func BenchmarkPoolVsDirect(b *testing.B) {
	cmd := stockfishOrSkip(b)
	ctx := context.Background()
	g := gameFromSAN(b, benchGame)
	gp, err := positionsOf(ctx, g)
	if err != nil {
		b.Fatal(err)
	}
	lim := uci.Limits{Nodes: 50_000}
	jobs := make([]Job, len(gp.boards))
	for k := range gp.boards {
		jobs[k] = gp.job(k, lim)
	}
	const workers, chunk = 2, 6
	pool, err := NewPool(ctx, PoolConfig{Command: cmd, Workers: workers, HashMB: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	// the pool resolves the engine name (sf15); the direct engines start
	// the program it names
	bin, err := enginepath.Stockfish15Command()
	if err != nil {
		b.Fatal(err)
	}
	direct := make([]*uci.Engine, workers)
	for i := range direct {
		e, err := uci.Start(ctx, uci.Config{Path: bin[0], Args: bin[1:], Options: map[string]string{"Threads": "1", "Hash": "16"}})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		direct[i] = e
	}
	runDirect := func() time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		var next atomic.Int64 // chunks are taken from the game's end, as the pool does
		for _, e := range direct {
			wg.Add(1)
			go func(e *uci.Engine) {
				defer wg.Done()
				for {
					hi := len(jobs) - int(next.Add(1)-1)*chunk
					if hi <= 0 {
						return
					}
					if err := e.NewGame(ctx); err != nil {
						b.Error(err)
						return
					}
					for i := hi - 1; i >= max(0, hi-chunk); i-- {
						if jobs[i].Skip {
							continue
						}
						if _, err := e.Analyse(ctx, jobs[i].Pos, jobs[i].Limits); err != nil {
							b.Error(err)
							return
						}
					}
				}
			}(e)
		}
		wg.Wait()
		return time.Since(start)
	}
	runPool := func() time.Duration {
		start := time.Now()
		if _, err := pool.Search(ctx, jobs, SearchOptions{ChunkSize: chunk}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var td, tp time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			td += runDirect()
			tp += runPool()
		} else {
			tp += runPool()
			td += runDirect()
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(td.Seconds()/n, "direct-s/op")
	b.ReportMetric(tp.Seconds()/n, "pool-s/op")
	b.ReportMetric(100*(tp.Seconds()-td.Seconds())/td.Seconds(), "overhead-%")
	b.ReportMetric(float64(len(jobs))*n/tp.Seconds(), "pool-positions/s")
	b.Logf("%d positions x %s nodes, %d workers", len(jobs), strconv.FormatInt(lim.Nodes, 10), workers)
}
