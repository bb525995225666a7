package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/internal/installer"
)

// TestSetupCommand: `outpost setup` reads its flags and environment (the
// Maia base URL from $OUTPOST_MAIA_URL, pointed at a loopback server that
// serves the shared weights) and installs into --models-dir; bad flags are
// refused naming the flag.
func TestSetupCommand(t *testing.T) {
	weights := "../../../shared/models/maia1"
	if _, err := os.Stat(filepath.Join(weights, "maia-1100.pb.gz")); err != nil {
		t.Skipf("no shared Maia weights: %v", err)
	}
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		http.ServeFile(w, r, filepath.Join(weights, filepath.Base(r.URL.Path)))
	}))
	defer srv.Close()
	t.Setenv(installer.EnvMaiaURL, srv.URL+"/release")
	t.Setenv(envMaiaSource, "")
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "setup", "--skip-engines", "--skip-library", "--models-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mu.Lock()
	n := len(asked)
	mu.Unlock()
	if n != 9 || !strings.Contains(stderr, "9 downloaded") || !strings.Contains(stderr, "engines: skipped (--skip-engines)") {
		t.Errorf("%d requests; stderr:\n%s", n, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"setup", "--jobs", "0", "--skip-library", "--skip-weights"}, "--jobs 0"},
		{[]string{"setup", "--no-such-flag"}, "no-such-flag"},
		{[]string{"setup", "extra"}, "extra"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error naming %q", c.args, code, stderr, c.want)
		}
	}
}
