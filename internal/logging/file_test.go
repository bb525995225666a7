package logging

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogFileRotation: the file is rotated before a line would pass the
// size, no line is split, and only the newest files are kept.
func TestLogFileRotation(t *testing.T) {
	tests := []struct {
		name      string
		maxBytes  int64
		keep      int
		lines     int
		wantFiles []string
	}{
		{"no rotation", 1000, 2, 10, []string{"x.log"}},                                // 10 × 10 bytes = 100
		{"rotates and keeps two", 100, 2, 45, []string{"x.log", "x.log.1", "x.log.2"}}, // 450 bytes
		{"keeps one", 100, 1, 45, []string{"x.log", "x.log.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.log")
			r, err := OpenRotator(path, tt.maxBytes, tt.keep)
			require.NoError(t, err)
			for i := 0; i < tt.lines; i++ {
				n, err := r.Write([]byte("line " + string(rune('a'+i%26)) + "...\n")) // 10 bytes
				require.NoError(t, err)
				require.Equal(t, 10, n)
			}
			require.NoError(t, r.Close())
			require.NoError(t, r.Close())
			_, err = r.Write([]byte("late\n"))
			assert.Error(t, err, "a write after Close fails")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			var names []string
			total := 0
			for _, e := range entries {
				names = append(names, e.Name())
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				require.NoError(t, err)
				assert.LessOrEqual(t, int64(len(b)), tt.maxBytes, "file %s", e.Name())
				assert.Zero(t, len(b)%10, "file %s holds whole lines", e.Name())
				total += len(b)
			}
			assert.Equal(t, tt.wantFiles, names)
			if len(tt.wantFiles) == 1 {
				assert.Equal(t, tt.lines*10, total)
			}
		})
	}
}

// TestLogFileLevelsAndTokenHygiene: the console and the file each get the
// lines at their own level, and a secret never reaches either.
func TestLogFileLevelsAndTokenHygiene(t *testing.T) {
	const token = "lip_LogFileSECRET123456"
	var console bytes.Buffer
	path := filepath.Join(t.TempDir(), "logs", "outpost.log")
	log, c, err := NewWithFile(&console, "info", File{Path: path, MaxSizeMB: 1, MaxFiles: 2, Level: "debug"}, token)
	require.NoError(t, err)
	log.Debug().Msg("debug only in the file")
	log.Info().Str("echo", "Bearer "+token).Msg("an info line")
	require.NoError(t, c.Close())
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(file), "debug only in the file")
	assert.NotContains(t, console.String(), "debug only in the file")
	for name, text := range map[string]string{"file": string(file), "console": console.String()} {
		assert.Contains(t, text, "an info line", name)
		assert.Contains(t, text, "Bearer (hidden)", name)
		assert.NotContains(t, text, "LogFileSECRET", name)
	}
	assert.Equal(t, 2, strings.Count(string(file), "\n"))
}

func TestLogFileBadSettings(t *testing.T) {
	var w bytes.Buffer
	_, _, err := NewWithFile(&w, "info", File{Path: "", MaxSizeMB: 1, MaxFiles: 1})
	assert.ErrorContains(t, err, "no log file")
	_, _, err = NewWithFile(&w, "info", File{Path: "x.log", MaxSizeMB: 1, MaxFiles: 1, Level: "loud"})
	assert.ErrorContains(t, err, "log.level")
	_, err = OpenRotator(filepath.Join(t.TempDir(), "x.log"), 0, 1)
	assert.ErrorContains(t, err, "at least 1")
}
