package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/models"
)

// TestMaiaConfig: [models] gives the Maia configuration, the OUTPOST_*
// environment overrides it, and a bad environment value is named.
func TestMaiaConfig(t *testing.T) {
	for _, name := range []string{models.EnvDir, models.EnvLibrary, models.EnvMaia1Dir, models.EnvMaia2, models.EnvSpin, models.EnvSessions, models.EnvThreads} {
		t.Setenv(name, "")
	}
	cfg := config.Default()
	cfg.Models.Dir, cfg.Models.ORTLibrary, cfg.Models.Threads = "/models", "/lib/ort.so", 3
	mc, err := MaiaConfig(cfg)
	require.NoError(t, err)
	assert.Equal(t, "/models", mc.Dir)
	assert.Equal(t, "/lib/ort.so", mc.Library)
	assert.Equal(t, 3, mc.Threads)

	t.Setenv(models.EnvDir, "/elsewhere")
	mc, err = MaiaConfig(cfg)
	require.NoError(t, err)
	assert.Equal(t, "/elsewhere", mc.Dir)

	t.Setenv(models.EnvThreads, "none")
	_, err = MaiaConfig(cfg)
	assert.ErrorContains(t, err, models.EnvThreads)
}
