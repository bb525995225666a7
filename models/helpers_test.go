package models

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// sharedMaia1 is the reference copy of the Maia-1 weights.
const sharedMaia1 = "../../shared/models/maia1"

// testConfig returns a config on the build's default runtime (ONNX Runtime
// with cgo, the pure-Go forward pass without), skipping the test when that
// runtime's files are absent. Weights come from the models dir, else the
// shared copy.
func testConfig(t testing.TB) Config {
	t.Helper()
	cfg, err := LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.Library); err != nil && cfg.Runtime == RuntimeONNX {
		t.Skipf("ONNX Runtime library not installed at %s; run `%s`", cfg.Library, FetchCommand)
	}
	if _, err := os.Stat(cfg.Maia1Weights(1500)); err != nil {
		if _, err := os.Stat(filepath.Join(sharedMaia1, "maia-1500.pb.gz")); err != nil {
			t.Skipf("Maia-1 weights not installed; run `%s`", FetchCommand)
		}
		cfg.Maia1Dir = sharedMaia1
	}
	return cfg
}

// ortConfig is testConfig on ONNX Runtime, skipping the test in a build
// without cgo (which cannot load it).
func ortConfig(t testing.TB) Config {
	t.Helper()
	if !HasONNXRuntime {
		t.Skip("ONNX Runtime needs a cgo build")
	}
	cfg := testConfig(t)
	cfg.Runtime = RuntimeONNX
	if _, err := os.Stat(cfg.Library); err != nil {
		t.Skipf("ONNX Runtime library not installed at %s; run `%s`", cfg.Library, FetchCommand)
	}
	return cfg
}

// testPredictor returns a Predictor closed at the end of the test.
func testPredictor(t testing.TB) *Predictor {
	t.Helper()
	p, err := NewPredictor(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// concurrently calls fn(w, k) for k from 0 to each-1 in each of workers
// goroutines w, and fails the test with the errors returned (a worker stops
// at its first).
func concurrently(t *testing.T, workers, each int, fn func(w, k int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				if err := fn(w, k); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
