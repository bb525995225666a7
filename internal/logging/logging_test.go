package logging

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrentLoggersShareAWriter: the daemon logs from many goroutines;
// a console that is not a file (a bytes.Buffer here, as the CLI tests pass)
// gets every line whole, one at a time (run under -race, the suite's mode,
// an unguarded buffer is a reported race). Both constructors.
func TestConcurrentLoggersShareAWriter(t *testing.T) {
	const goroutines, lines = 8, 200
	for _, withFile := range []bool{false, true} {
		var buf bytes.Buffer
		log := New(&buf, "info")
		if withFile {
			l, closer, err := NewWithFile(&buf, "info", File{Path: t.TempDir() + "/outpost.log", Level: "info", MaxSizeMB: 1, MaxFiles: 2})
			require.NoError(t, err)
			defer closer.Close()
			log = l
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				sub := log.With().Int("goroutine", g).Logger()
				for i := range lines {
					sub.Info().Int("i", i).Msg("line")
				}
			})
		}
		wg.Wait()
		got := strings.Split(strings.TrimSpace(buf.String()), "\n")
		require.Len(t, got, goroutines*lines, "with file %v", withFile)
		for _, l := range got {
			var v map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &v), "a whole JSON line: %q", l)
		}
	}
}
