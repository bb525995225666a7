package syzygy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyzygyManyOpen: each Tables holds its own copy of libfathom (and of
// the C library) in a link-map namespace; glibc's static TLS space caps how
// many exist at once. At least 8 fit (about 11 with glibc 2.36's defaults),
// and the one that does not fails with an error that says why, not a crash.
func TestSyzygyManyOpen(t *testing.T) {
	var open []*Tables
	defer func() {
		for _, tb := range open {
			require.NoError(t, tb.Close())
		}
	}()
	for i := 0; i < 64; i++ {
		tb, err := Open([]string{sharedTables})
		if err != nil {
			assert.Contains(t, err.Error(), "too many tablebases open at once")
			break
		}
		open = append(open, tb)
	}
	t.Logf("%d open at once", len(open))
	assert.GreaterOrEqual(t, len(open), 8)
	// All of them answer.
	b := mustBoard(t, "8/8/8/8/8/2k5/8/K6R w - - 0 1")
	for _, tb := range open {
		w, err := tb.ProbeWDL(b)
		require.NoError(t, err)
		assert.Equal(t, Win, w)
	}
}
