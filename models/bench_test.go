package models

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/outpostchess/outpost/models/game"
	"github.com/outpostchess/outpost/models/maia1"
)

// report adds throughput metrics: positions/s (wall clock) and CPU
// microseconds per position, which stays meaningful on a busy machine.
func report(b *testing.B, positions int, cpu0 time.Duration) {
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(positions), "cpu-µs/position")
}

// encodedPosition is the Maia-1 input planes of the position after
// testGames[4].
func encodedPosition(b *testing.B) []float32 {
	b.Helper()
	g, err := game.New("", testGames[4])
	if err != nil {
		b.Fatal(err)
	}
	one := make([]float32, maia1.InputSize)
	if err := maia1.Encode(g, one); err != nil {
		b.Fatal(err)
	}
	return one
}

// runSession times be's first session alone on a batch of n copies of the
// encoded position one.
func runSession(b *testing.B, be *backend, one []float32, n int) {
	b.Helper()
	j := be.b.newJob(n)
	for k := range n {
		copy(j.inF[0][k*maia1.InputSize:], one)
	}
	cpu0 := cpuTime()
	for b.Loop() {
		if err := be.b.run(be.b.workers[0], []*job{j}, n); err != nil {
			b.Fatal(err)
		}
	}
	report(b, n*b.N, cpu0)
}

// BenchmarkPredict measures end-to-end throughput (replay, encode, batch
// inference, decode) at several batch sizes; see the positions/s metric.
//
//	go test ./models -run '^$' -bench Predict -benchtime 2s
func BenchmarkPredict(b *testing.B) {
	p := testPredictor(b)
	ctx := context.Background()
	if err := p.Load("maia-1500"); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 16, 64, 256} {
		reqs := make([]Request, n)
		for i := range reqs {
			reqs[i] = Request{Moves: testGames[i%len(testGames)], Rating: 1500}
		}
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := p.Predict(ctx, reqs); err != nil {
					b.Fatal(err)
				}
			}
			report(b, n*b.N, cpu0)
		})
	}
}

// BenchmarkSession measures the ONNX Runtime session alone (pre-encoded
// inputs) at several batch sizes.
func BenchmarkSession(b *testing.B) {
	p, err := NewPredictor(ortConfig(b))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	be, err := p.backend("maia-1500")
	if err != nil {
		b.Fatal(err)
	}
	one := encodedPosition(b)
	for _, n := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) { runSession(b, be, one, n) })
	}
}

// BenchmarkEncodeDecode measures the Go side per position.
func BenchmarkEncodeDecode(b *testing.B) {
	logits := make([]float32, maia1.PolicySize)
	dst := make([]float32, maia1.InputSize)
	for b.Loop() {
		g, err := game.New("", testGames[4])
		if err != nil {
			b.Fatal(err)
		}
		if err := maia1.Encode(g, dst); err != nil {
			b.Fatal(err)
		}
		if _, err := maia1.Decode(g, logits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionOptions compares ONNX Runtime settings at batch 256:
// graph optimisation level, intra-op threads and spinning.
//
//	go test ./models -run '^$' -bench SessionOptions -benchtime 5x
func BenchmarkSessionOptions(b *testing.B) {
	base := ortConfig(b)
	one := encodedPosition(b)
	const n = 256
	for _, c := range []struct {
		opt     string
		threads int
		spin    bool
	}{{"all", 2, false}, {"all", 2, true}, {"all", 1, false}, {"extended", 2, false}, {"basic", 2, false}, {"none", 2, false}} {
		b.Run(fmt.Sprintf("opt=%s/threads=%d/spin=%v", c.opt, c.threads, c.spin), func(b *testing.B) {
			cfg := base
			cfg.GraphOptimization, cfg.Threads, cfg.Spin = c.opt, c.threads, c.spin
			p, err := NewPredictor(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			be, err := p.backend("maia-1500")
			if err != nil {
				b.Fatal(err)
			}
			runSession(b, be, one, n)
		})
	}
}

// BenchmarkPredictConcurrent measures throughput with 4 concurrent callers
// of 64 positions each (coalesced into batches), for one 2-thread session
// and for two 1-thread session replicas.
//
//	go test ./models -run '^$' -bench PredictConcurrent -benchtime 3s
func BenchmarkPredictConcurrent(b *testing.B) {
	base := ortConfig(b)
	reqs := make([]Request, 64)
	for i := range reqs {
		reqs[i] = Request{Moves: testGames[i%len(testGames)], Rating: 1500}
	}
	for _, c := range []struct{ sessions, threads int }{{1, 2}, {2, 1}} {
		b.Run(fmt.Sprintf("sessions=%d/threads=%d", c.sessions, c.threads), func(b *testing.B) {
			cfg := base
			cfg.Sessions, cfg.Threads = c.sessions, c.threads
			p, err := NewPredictor(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			if err := p.Load("maia-1500"); err != nil {
				b.Fatal(err)
			}
			b.SetParallelism(2) // 2 × GOMAXPROCS callers
			cpu0 := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := p.Predict(context.Background(), reqs); err != nil {
						b.Error(err)
						return
					}
				}
			})
			report(b, len(reqs)*b.N, cpu0)
		})
	}
}
