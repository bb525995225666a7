package models

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// runtimeConfigs returns a test configuration for every runtime this build
// and machine can run: the pure-Go forward pass always (when the weights
// are there), ONNX Runtime in cgo builds with the library installed.
func runtimeConfigs(t testing.TB) []Config {
	t.Helper()
	g := testConfig(t)
	g.Runtime = RuntimeGo
	out := []Config{g}
	if HasONNXRuntime {
		o := testConfig(t)
		o.Runtime = RuntimeONNX
		if _, err := NewRuntime(o); err == nil {
			out = append(out, o)
		}
	}
	return out
}

// predictWith runs reqs on a predictor of cfg.
func predictWith(t *testing.T, cfg Config, reqs []Request) []Prediction {
	t.Helper()
	p, err := NewPredictor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	preds, err := p.Predict(context.Background(), reqs)
	if err != nil {
		t.Fatalf("%s runtime: %v", cfg.Runtime, err)
	}
	return preds
}

// TestRuntimesAgree runs the golden positions and the test games' positions
// on both runtimes, at three Maia-1 levels, and requires every legal move's
// probability and every WDL component to agree within 1e-4.
func TestRuntimesAgree(t *testing.T) {
	ort := ortConfig(t)
	goCfg := ort
	goCfg.Runtime = RuntimeGo
	var reqs []Request
	for _, c := range goldenCases(t) {
		reqs = append(reqs, Request{StartFEN: c.StartFEN, Moves: c.Moves, Model: c.Model})
	}
	for i, g := range testGames {
		for _, level := range []int{1100, 1500, 1900} {
			reqs = append(reqs, Request{Moves: g[:len(g)*(i+1)/(len(testGames)+1)], Model: Maia1Name(level)})
		}
	}
	want := predictWith(t, ort, reqs)
	got := predictWith(t, goCfg, reqs)
	const tol = 1e-4
	var maxP, maxW float64
	for i := range reqs {
		w, g := want[i], got[i]
		if len(w.Moves) != len(g.Moves) {
			t.Fatalf("request %d: %d moves on ONNX Runtime, %d in Go", i, len(w.Moves), len(g.Moves))
		}
		ps := map[string]float64{}
		for _, m := range g.Moves {
			ps[m.UCI] = m.P
		}
		for _, m := range w.Moves {
			gp, ok := ps[m.UCI]
			if !ok {
				t.Fatalf("request %d: move %s missing in Go", i, m.UCI)
			}
			maxP = math.Max(maxP, math.Abs(gp-m.P))
		}
		for k := range 3 {
			maxW = math.Max(maxW, math.Abs(g.WDL[k]-w.WDL[k]))
		}
	}
	t.Logf("%d positions: max |Δp| = %.2g, max |ΔWDL| = %.2g", len(reqs), maxP, maxW)
	if maxP > tol || maxW > tol {
		t.Errorf("Go and ONNX Runtime differ: max |Δp| = %g, max |ΔWDL| = %g, want ≤ %g", maxP, maxW, tol)
	}
}

// BenchmarkRuntimes times ONNX Runtime and the pure-Go forward pass side by
// side, end to end through Predict (replay, encode, inference, decode), at
// batch sizes 1 and 64; compare the cpu-µs/position metrics, which a busy
// machine disturbs less than positions/s.
//
//	go test ./models -run '^$' -bench Runtimes -benchtime 20x
func BenchmarkRuntimes(b *testing.B) {
	for _, n := range []int{1, 64} {
		reqs := make([]Request, n)
		for i := range reqs {
			reqs[i] = Request{Moves: testGames[i%len(testGames)], Rating: 1500}
		}
		for _, cfg := range runtimeConfigs(b) {
			b.Run(fmt.Sprintf("batch=%d/runtime=%s", n, cfg.Runtime), func(b *testing.B) {
				p, err := NewPredictor(cfg)
				if err != nil {
					b.Fatal(err)
				}
				defer p.Close()
				if err := p.Load("maia-1500"); err != nil {
					b.Fatal(err)
				}
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := p.Predict(context.Background(), reqs); err != nil {
						b.Fatal(err)
					}
				}
				report(b, n*b.N, cpu0)
			})
		}
	}
}
