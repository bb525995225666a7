package installer

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
	"github.com/outpostchess/outpost/internal/testkit"
)

// shared is the reference folder next to the checkout (tests only).
const shared = "../../../shared"

// mirror is a loopback server laid out like the official sources — the
// Stockfish tag archives, the network server, the npm registry and the
// maia-chess release — serving the same files from ../shared, the
// engines' network cache that setup filled, and npm's own cache. Every
// path it was asked for is recorded.
type mirror struct {
	srv   *httptest.Server
	files map[string]string // URL path → local file
	mu    sync.Mutex
	asked []string
}

func newMirror(t *testing.T) *mirror {
	t.Helper()
	// the native builds cache the networks and npm tarballs served here
	testkit.AwaitSetup(t, testkit.SetupNatives...)
	m := &mirror{files: map[string]string{}}
	for name := range Releases {
		r, ok := sfbuild.RecipeFor(name)
		if !ok {
			continue // a version this branch cannot build yet
		}
		m.files["/sf/"+Releases[r.Engine].Tag+".tar.gz"] = filepath.Join(shared, "stockfish", r.Archive)
		for _, n := range r.Nets {
			m.files["/nn/"+n.Name] = netCache(n.Name)
		}
	}
	for _, p := range []NPMTarball{ONNXRuntimeNode, StockfishNPM16, StockfishNPM171, StockfishNPM18} {
		m.files["/npm/"+p.Name+"/-/"+p.File()] = npmCached(p)
	}
	for lvl := 1100; lvl <= 1900; lvl += 100 {
		name := "maia-" + itoa(lvl) + ".pb.gz"
		m.files["/maia/"+name] = filepath.Join(shared, "models", "maia1", name)
	}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.asked = append(m.asked, r.URL.Path)
		m.mu.Unlock()
		p, ok := m.files[r.URL.Path]
		if !ok || p == "" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, p)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// need skips the test when a served file is not on this machine.
func (m *mirror) need(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		f := m.files[p]
		if _, err := os.Stat(f); f == "" || err != nil {
			t.Skipf("the loopback mirror has no local copy for %s (run make setup): %q", p, f)
		}
	}
}

func (m *mirror) requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.asked...)
}

func (m *mirror) sources() Sources {
	u := m.srv.URL
	return Sources{Stockfish: u + "/sf", Nets: u + "/nn", NPM: u + "/npm", Maia: u + "/maia"}
}

// netCache is a network file in the engines' cache that setup filled
// ($OUTPOST_ENGINES_DIR, else ~/.cache/outpost/engines): byte-exact copies
// of the official files, each SHA-256-checked when it was made.
func netCache(name string) string {
	dir, err := enginepath.Locator{}.Dir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, sfbuild.NetsDir, name)
}

// npmCached is the tarball in npm's content cache (content-v2/sha512/…,
// addressed by the registry's integrity hash), else in the engines' npm
// cache.
func npmCached(p NPMTarball) string {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(p.Integrity, "sha512-"))
	if err == nil {
		h := hex.EncodeToString(raw)
		root := os.Getenv("npm_config_cache")
		if root == "" {
			home, _ := os.UserHomeDir()
			root = filepath.Join(home, ".npm")
		}
		f := filepath.Join(root, "_cacache", "content-v2", "sha512", h[:2], h[2:4], h[4:])
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	if dir, err := (enginepath.Locator{}).Dir(); err == nil {
		return filepath.Join(dir, sfbuild.NPMDir, p.File())
	}
	return ""
}
