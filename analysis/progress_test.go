package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTerminalProgressSilentWhenNotATerminal(t *testing.T) {
	var b bytes.Buffer
	p, finish := TerminalProgress(&b, "x")
	if p != nil {
		t.Error("progress callback for a buffer")
	}
	finish()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if p, _ := TerminalProgress(f, "x"); p != nil {
		t.Error("progress callback for a regular file")
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q", b.String())
	}
}

// TestIsTerminal: a buffer and a plain file are not terminals.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, IsTerminal(f))
	assert.False(t, IsTerminal(&bytes.Buffer{}))
}
