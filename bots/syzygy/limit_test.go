package syzygy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyzygyManyOpen: any number of Tables over the same directories are
// open at once (one game each in the daemon), all answering.
func TestSyzygyManyOpen(t *testing.T) {
	needFathom(t)
	var open []*Tables
	for i := 0; i < 64; i++ {
		tb, err := Open([]string{sharedTables})
		require.NoError(t, err, "table set %d", i)
		open = append(open, tb)
	}
	// Another spelling of the same directory shares them too.
	abs, err := filepath.Abs(sharedTables)
	require.NoError(t, err)
	tb, err := Open([]string{abs + "/"})
	require.NoError(t, err, "the same directory, absolute")
	open = append(open, tb)
	b := mustBoard(t, "8/8/8/8/8/2k5/8/K6R w - - 0 1")
	for _, tb := range open {
		w, err := tb.ProbeWDL(b)
		require.NoError(t, err)
		assert.Equal(t, Win, w)
		require.NoError(t, tb.Close())
	}
}

// TestSyzygyOneSetPerProcess: libfathom holds one set of directories per
// process; another set is refused, naming both, while the first is open,
// and served once it is closed.
func TestSyzygyOneSetPerProcess(t *testing.T) {
	other := t.TempDir()
	for _, f := range []string{"KQvK.rtbw", "KQvK.rtbz"} {
		abs, err := filepath.Abs(filepath.Join(sharedTables, f))
		require.NoError(t, err)
		require.NoError(t, os.Symlink(abs, filepath.Join(other, f)))
	}
	first := openShared(t)
	_, err := Open([]string{other})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "one set of directories per process")
	assert.Contains(t, err.Error(), other)
	require.NoError(t, first.Close())

	small, err := Open([]string{other})
	require.NoError(t, err)
	assert.Equal(t, 3, small.MaxPieces(), "only KQvK")
	w, err := small.ProbeWDL(mustBoard(t, "8/8/8/3k4/8/8/8/KQ6 w - - 0 1"))
	require.NoError(t, err)
	assert.Equal(t, Win, w)
	_, err = small.ProbeWDL(mustBoard(t, "8/8/8/4k3/8/8/8/K6R w - - 0 1"))
	assert.ErrorIs(t, err, ErrNotCovered, "no KRvK table in this set")
	require.NoError(t, small.Close())
	again := openShared(t)
	assert.Equal(t, 4, again.MaxPieces())
}
