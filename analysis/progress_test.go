package analysis

import (
	"bytes"
	"os"
	"testing"
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
