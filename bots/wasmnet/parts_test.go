package wasmnet

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestFromTarGzParts: a module split into three files is recovered only
// when its parts are joined in the order given; a missing part is named.
func TestFromTarGzParts(t *testing.T) {
	file, net := fakeNet("Network trained in parts", bytes.Repeat([]byte{5, 0, 6}, 40))
	wasm := module(active(64, string(file)))
	third := len(wasm) / 3
	parts := []string{"package/m-part-0.wasm", "package/m-part-1.wasm", "package/m-part-2.wasm"}
	archive := testkit.TarGz(t, map[string]string{
		parts[0]: string(wasm[:third]), parts[1]: string(wasm[third : 2*third]), parts[2]: string(wasm[2*third:]),
		"package/other": "x",
	})
	found, err := FromTarGzParts(bytes.NewReader(archive), parts, []Net{net})
	if err != nil {
		t.Fatal(err)
	}
	if found[0].Offset != 64 || !bytes.Equal(found[0].Data, file) {
		t.Errorf("found at %d, %d bytes", found[0].Offset, len(found[0].Data))
	}
	if _, err := FromTarGzParts(bytes.NewReader(archive), []string{parts[1], parts[0], parts[2]}, []Net{net}); err == nil {
		t.Error("parts out of order accepted")
	}
	_, err = FromTarGzParts(bytes.NewReader(archive), append(parts, "package/m-part-3.wasm"), []Net{net})
	if err == nil || !strings.Contains(err.Error(), "m-part-3.wasm is not in the archive") {
		t.Errorf("missing part: err = %v", err)
	}
}

// TestMembers: several files at once; a directory entry or a missing name
// is not a member.
func TestMembers(t *testing.T) {
	archive := testkit.TarGz(t, map[string]string{"a": "1", "b/c": "22", "d": "333"})
	got, err := Members(bytes.NewReader(archive), []string{"d", "b/c"})
	if err != nil || string(got["d"]) != "333" || string(got["b/c"]) != "22" || len(got) != 2 {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := Members(bytes.NewReader(archive), []string{"b"}); err == nil {
		t.Error("a missing member accepted")
	}
	if _, err := Members(strings.NewReader("not gzip"), []string{"a"}); err == nil {
		t.Error("not an archive accepted")
	}
}

// TestRecoverStockfish171: the real recovery of Stockfish 17.1's two nets
// from npm stockfish@17.1.0's six-part single-threaded build, when
// `outpost engines install sf17.1` has cached the package: the offsets
// ../shared/stockfish/SOURCES.md gives, SHA-256 checked.
func TestRecoverStockfish171(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: reads a 147 MB archive")
	}
	testkit.AwaitSetup(t, testkit.SetupSF171) // its build caches the npm package
	dir, err := enginepath.Locator{}.Dir()
	if err != nil {
		t.Skip(err)
	}
	f, err := os.Open(filepath.Join(dir, "npm", "stockfish-17.1.0.tgz"))
	if err != nil {
		t.Skipf("npm stockfish@17.1.0 not cached (%v); `outpost engines install sf17.1` caches it", err)
	}
	defer f.Close()
	var parts []string
	for i := range 6 {
		parts = append(parts, "package/src/stockfish-17.1-single-a496a04-part-"+string(rune('0'+i))+".wasm")
	}
	found, err := FromTarGzParts(f, parts, []Net{
		{Name: "nn-1c0000000000.nnue", Size: 74_874_478, SHA256: "1c0000000000a67d629999d932d0c373f7450ce43cd12d0562868f4eaf9ae2ad"},
		sf18Nets[1],
	})
	if err != nil {
		t.Fatal(err)
	}
	if found[0].Offset != 35_568 || found[1].Offset != 74_910_048 {
		t.Errorf("offsets %d and %d, want 35568 and 74910048", found[0].Offset, found[1].Offset)
	}
}
