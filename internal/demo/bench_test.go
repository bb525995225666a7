package demo

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/runner"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
)

// BenchmarkMoveLatency measures the daemon's own latency per move: from a
// gameState arriving to the move request going out, engine time excluded,
// over b.N games of the instant easy engine against the sandbox on
// loopback. It reports the median and the 99th percentile.
//
//	go test ./internal/demo -run '^$' -bench MoveLatency -benchtime 3x
func BenchmarkMoveLatency(b *testing.B) {
	cfg := config.Default()
	cfg.Engines.Default = "easy"
	cfg.Summary.Enabled = false
	var mu sync.Mutex
	var lat []time.Duration
	hooks := daemon.Hooks{RunnerDone: func(out runner.Outcome, err error) {
		mu.Lock()
		lat = append(lat, out.Latencies...)
		mu.Unlock()
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b.ResetTimer()
	if _, err := Run(ctx, Options{Config: cfg, Games: b.N, TC: "3+0", Dir: b.TempDir(), Logger: zerolog.Nop(), Hooks: hooks}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no moves measured")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat)), "moves")
}
