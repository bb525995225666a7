package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoCheck: the sandbox demo's variant, start position and time scale
// are checked, each error naming its flag; a standard game with a FEN
// becomes fromPosition.
func TestDemoCheck(t *testing.T) {
	const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	const chess960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
	for _, c := range []struct {
		name        string
		demo        Demo
		wantVariant string
		wantErr     string
	}{
		{"standard", Demo{Variant: "standard", TimeScale: 1}, "standard", ""},
		{"default variant", Demo{TimeScale: 0.5}, "", ""},
		{"standard with FEN", Demo{Variant: "standard", FEN: kiwipete, TimeScale: 1}, "fromPosition", ""},
		{"fromPosition", Demo{Variant: "fromPosition", FEN: kiwipete, TimeScale: 0.01}, "fromPosition", ""},
		{"fromPosition without FEN", Demo{Variant: "fromPosition", TimeScale: 1}, "", "--variant fromPosition needs --fen"},
		{"chess960 random", Demo{Variant: "chess960", TimeScale: 1}, "chess960", ""},
		{"chess960 start", Demo{Variant: "chess960", FEN: chess960, TimeScale: 1}, "chess960", ""},
		{"chess960 not a start", Demo{Variant: "chess960", FEN: kiwipete, TimeScale: 1}, "", "not a Chess960 start position"},
		{"bad FEN", Demo{Variant: "fromPosition", FEN: "8/8/8 w - - 0 1", TimeScale: 1}, "", "--fen:"},
		{"bad variant", Demo{Variant: "atomic", TimeScale: 1}, "", `--variant "atomic": want standard, chess960 or fromPosition`},
		{"time scale zero", Demo{TimeScale: 0}, "", "--time-scale 0: want 0.01 to 1"},
		{"time scale above 1", Demo{TimeScale: 1.5}, "", "--time-scale 1.5: want 0.01 to 1"},
		{"correspondence", Demo{Days: 14, TimeScale: 1}, "", ""},
		{"days not a choice", Demo{Days: 4, TimeScale: 1}, "", "--days 4: want 1, 2, 3, 5, 7, 10 or 14"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := c.demo
			err := d.Check()
			if c.wantErr != "" {
				assert.ErrorContains(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.wantVariant, d.Variant)
		})
	}
}

// TestOpenCacheCreatesDirectory: the default cache's directory is made
// when missing; a path given by the user must name an existing directory
// (before, `ewr --store /missing/dir/x.db` created the directories), and a
// directory that cannot be made is named.
func TestOpenCacheCreatesDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg"))
	path := DefaultEWRStore()
	st, err := OpenCache(context.Background(), path)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	_, err = os.Stat(path)
	require.NoError(t, err)

	_, err = OpenCache(context.Background(), filepath.Join(dir, "missing", "dir", "x.db"))
	assert.ErrorContains(t, err, "cache directory "+filepath.Join(dir, "missing", "dir")+": not an existing directory")
	_, err = os.Stat(filepath.Join(dir, "missing"))
	assert.True(t, os.IsNotExist(err), "a directory was made: %v", err)
	st, err = OpenCache(context.Background(), filepath.Join(dir, "x.db"))
	require.NoError(t, err)
	require.NoError(t, st.Close())

	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err = OpenCache(context.Background(), filepath.Join(file, "ewr.db"))
	assert.ErrorContains(t, err, "cache directory")

	st, err = OpenCache(context.Background(), ":memory:")
	require.NoError(t, err)
	require.NoError(t, st.Close())
}

// TestDefaultEWRStore: the cache lives under the user cache directory.
func TestDefaultEWRStore(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg-cache")
	assert.Equal(t, filepath.Join("/tmp/xdg-cache", "outpost", "ewr.db"), DefaultEWRStore())
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	assert.Equal(t, "", DefaultEWRStore())
}
