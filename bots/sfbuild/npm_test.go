package sfbuild

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/wasmnet"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestNetsFromNPMPlainFile: a network kept as a plain file in an npm
// package (Stockfish 16's in stockfish@16.0.0) is taken from the cached
// tarball without running npm, and written under its name; a file whose
// SHA-256 is not the net's is refused, naming both.
func TestNetsFromNPMPlainFile(t *testing.T) {
	net := []byte("a plain network file")
	n := wasmnet.Net{Name: "nn-" + testkit.SHA256(net)[:12] + ".nnue", Size: len(net), SHA256: testkit.SHA256(net)}
	for _, tc := range []struct {
		name, body, wantErr string
	}{
		{"ok", string(net), ""},
		{"wrong bytes", "something else", "SHA-256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			npm, dst := t.TempDir(), t.TempDir()
			archive := testkit.TarGz(t, map[string]string{"package/src/" + n.Name: tc.body, "package/README": "x"})
			must(t, os.WriteFile(filepath.Join(npm, "fake-1.0.0.tgz"), archive, 0o644))
			src := NPMSource{Package: "fake@1.0.0", Tarball: "fake-1.0.0.tgz", Files: map[string]string{n.Name: "package/src/" + n.Name}}
			err := NetsFromNPM(context.Background(), npm, dst, src, []wasmnet.Net{n})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), n.Name) {
					t.Fatalf("err = %v, want %q naming %s", err, tc.wantErr, n.Name)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := checkSHA256(filepath.Join(dst, n.Name), n.SHA256); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRecipes: every recipe has a name enginepath knows, an archive, nets
// with sizes, a bench figure, and a source for its nets; RecipeFor finds
// each by any spelling.
func TestRecipes(t *testing.T) {
	for _, r := range Recipes() {
		if r.Archive == "" || r.BenchNodes == 0 || len(r.Nets) == 0 || r.Prefix != "stockfish-"+r.Version+"/" {
			t.Errorf("%s: incomplete recipe %+v", r.Engine, r)
		}
		if r.NPM == nil && r.Engine != "sf15" {
			t.Errorf("%s: no source for its nets", r.Engine)
		}
		if got, ok := RecipeFor(strings.ToUpper("stockfish-" + r.Version)); !ok || got.Engine != r.Engine {
			t.Errorf("RecipeFor(stockfish-%s) = %s, %v", r.Version, got.Engine, ok)
		}
	}
	if _, ok := RecipeFor("sf17"); ok {
		t.Error("sf17 has no recipe (its nets are not obtainable)")
	}
}
