package app

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/models"
	"github.com/outpostchess/outpost/models/modeltest"
)

// TestOpenEWRPartsMissing: a missing Stockfish or Maia is one error naming
// what is missing and how to install it.
func TestOpenEWRPartsMissing(t *testing.T) {
	var warn bytes.Buffer
	_, err := OpenEWRParts(config.Default(), "/nonexistent/stockfish", []int{1500}, &warn)
	assert.ErrorContains(t, err, "--ewr needs Stockfish: /nonexistent/stockfish not found")
	assert.ErrorContains(t, err, "make setup")

	for _, name := range []string{models.EnvLibrary, models.EnvMaia1Dir} {
		t.Setenv(name, "")
	}
	t.Setenv(models.EnvDir, t.TempDir())
	_, err = OpenEWRParts(config.Default(), "/bin/true", []int{1500}, &warn)
	assert.ErrorContains(t, err, "--ewr needs Maia")
	assert.Empty(t, warn.String())
}

// TestEWRPartsCalculate: with Stockfish 15.1 and the Maia weights
// installed, the parts calculate a position and cache it.
func TestEWRPartsCalculate(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	sf, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip(err)
	}
	mc := modeltest.Config(t, 1500)
	t.Setenv(models.EnvDir, mc.Dir)
	t.Setenv(models.EnvLibrary, mc.Library)
	t.Setenv(models.EnvMaia1Dir, mc.Maia1Dir)
	var warn bytes.Buffer
	parts, err := OpenEWRParts(config.Default(), sf[0], []int{1500}, &warn)
	require.NoError(t, err)
	defer parts.Close()
	calc, err := parts.Calculator(context.Background(), 1, 16, filepath.Join(t.TempDir(), "ewr.db"), zerolog.Nop())
	require.NoError(t, err)
	res, err := calc.Calculate(context.Background(), ewr.Position{StartFEN: "8/8/4k3/8/2K1P3/8/8/8 w - - 0 50"}, ewr.DefaultParams(), ewr.Options{})
	require.NoError(t, err)
	assert.NotEmpty(t, res.Moves)
	assert.NotNil(t, calc.Cache, "the cache is opened")
}
