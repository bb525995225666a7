// Package modeltest gives tests a Maia configuration or predictor on the
// build's default runtime (ONNX Runtime with cgo, the pure-Go forward pass
// without), skipping the test when that runtime's library or the Maia-1
// weights are not installed. The
// weights come from the models directory, else from the shared copy beside
// the checkout (../shared/models/maia1). For tests only.
package modeltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/outpostchess/outpost/models"
)

// Config returns the installed models configuration with the Maia-1 weights
// of rating available, or skips the test.
func Config(t testing.TB, rating int) models.Config {
	t.Helper()
	cfg, err := models.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.Library); err != nil && cfg.Runtime == models.RuntimeONNX {
		t.Skipf("ONNX Runtime not installed at %s; run `%s`", cfg.Library, models.FetchCommand)
	}
	if _, err := os.Stat(cfg.Maia1Weights(rating)); err != nil {
		cfg.Maia1Dir = sharedMaia1()
		if _, err := os.Stat(cfg.Maia1Weights(rating)); err != nil {
			t.Skipf("Maia-1 weights not installed; run `%s`", models.FetchCommand)
		}
	}
	return cfg
}

// Predictor returns a predictor over Config(t, rating), closed when the
// test ends.
func Predictor(t testing.TB, rating int) *models.Predictor {
	t.Helper()
	p, err := models.NewPredictor(Config(t, rating))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// sharedMaia1 is ../shared/models/maia1 beside the module's root (the
// directory holding go.mod above the working directory), or "" when there
// is no module root.
func sharedMaia1() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "models", "maia1")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
