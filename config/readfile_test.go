package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Regression (issue 18): Load read the whole file before checking its
// size, so /dev/zero grew the process to 24 GB.
func TestLoadBoundsTheFileWhileReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", MaxFileSize/10+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	exact := filepath.Join(dir, "exact.toml")
	if err := os.WriteFile(exact, []byte(strings.Repeat("#", MaxFileSize-1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	paths := []string{big}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero")
	}
	for _, p := range paths {
		_, err := Load(p)
		var tl *TooLargeError
		if !errors.As(err, &tl) || !strings.Contains(err.Error(), "limit of 256 KiB") || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want an error naming the 256 KiB limit", p, err)
		}
	}
	if _, err := Load(exact); err != nil {
		t.Errorf("a file of exactly MaxFileSize bytes: %v", err)
	}
}
