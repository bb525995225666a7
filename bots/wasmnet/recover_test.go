package wasmnet

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/testkit"
)

// fakeNet returns a network file: header (version, hash, description) and
// body, and its Net.
func fakeNet(desc string, body []byte) ([]byte, Net) {
	var h [12]byte
	binary.LittleEndian.PutUint32(h[0:], NetVersion)
	binary.LittleEndian.PutUint32(h[4:], 0x3e5aa6ee)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(desc)))
	file := append(append(h[:], desc...), body...)
	sum := sha256.Sum256(file)
	hx := hex.EncodeToString(sum[:])
	return file, Net{Name: "nn-" + hx[:12] + ".nnue", Size: len(file), SHA256: hx}
}

// TestRecoverFromSegments: two nets split into segments with their zero
// runs dropped, as Emscripten lays them out, come back byte for byte.
func TestRecoverFromSegments(t *testing.T) {
	big, bigNet := fakeNet("Network trained with the fake trainer", bytes.Repeat([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 3}, 50))
	small, smallNet := fakeNet("Network trained small", []byte{9, 0, 0, 0, 8})
	// memory: 40 bytes of other data, big, 16 zero bytes, small
	mem := append(append(append(bytes.Repeat([]byte{7}, 40), big...), make([]byte, 16)...), small...)
	var segs [][]byte
	for i := 0; i < len(mem); {
		if mem[i] == 0 {
			i++
			continue
		}
		j := i
		for j < len(mem) && mem[j] != 0 {
			j++
		}
		segs = append(segs, active(int32(i), string(mem[i:j])))
		i = j
	}
	wasm := module(segs...)
	parsed, err := DataSegments(wasm)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := Memory(parsed, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rebuilt, mem) {
		t.Fatal("memory not rebuilt")
	}
	hs := Headers(rebuilt)
	if len(hs) != 2 || hs[0].Offset != 40 || hs[1].Description != "Network trained small" {
		t.Fatalf("headers %+v", hs)
	}
	found, err := Recover(rebuilt, []Net{smallNet, bigNet})
	if err != nil {
		t.Fatal(err)
	}
	if found[0].Name != smallNet.Name || !bytes.Equal(found[0].Data, small) || found[1].Offset != 40 || !bytes.Equal(found[1].Data, big) {
		t.Errorf("found %s at %d, %s at %d", found[0].Name, found[0].Offset, found[1].Name, found[1].Offset)
	}
}

func TestRecoverErrors(t *testing.T) {
	file, net := fakeNet("Network trained x", []byte{1, 2, 3})
	mem := append(make([]byte, 8), file...)
	wrongSum := net
	wrongSum.SHA256 = net.SHA256[:12] + strings.Repeat("0", 52)
	for _, tc := range []struct {
		name string
		net  Net
		want string
	}{
		{"bad name", Net{Name: "big.nnue", Size: 1}, "not nn-<12 hex digits>"},
		{"non-hex name", Net{Name: "nn-zzzzzzzzzzzz.nnue", Size: 1}, "not nn-<12 hex digits>"},
		{"no size", Net{Name: net.Name}, "size 0"},
		{"wrong size", Net{Name: net.Name, Size: net.Size - 1, SHA256: net.SHA256}, "not found"},
		{"prefix matches, sum does not", wrongSum, "SHA-256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Recover(mem, []Net{tc.net})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Recover(mem, []Net{{Name: "nn-000000000000.nnue", Size: 4}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

// Stockfish 18's networks in npm stockfish@18.0.8 (SOURCES.md in
// ../shared/stockfish).
var (
	sf18Package = "stockfish-18.0.8.tgz"
	sf18Member  = "package/bin/stockfish-18-single.wasm"
	sf18Nets    = []Net{
		{Name: "nn-c288c895ea92.nnue", Size: 108_919_594, SHA256: "c288c895ea924429ea9092e3f36b2b3c1f00f2a3a4c759ff7e57e79e3b43e4a7"},
		{Name: "nn-37f18f62d772.nnue", Size: 3_519_630, SHA256: "37f18f62d772f3107e1d6aaca3898c130c3c86f2ab63e6555fbbca20635a899d"},
	}
)

// TestRecoverStockfish18: the real recovery from the npm package, when
// `outpost engines install sf18` has cached it (OUTPOST_ENGINES_DIR, else
// ~/.cache/outpost/engines, under npm/): both nets at the offsets
// SOURCES.md gives, SHA-256 checked.
func TestRecoverStockfish18(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: reads a 168 MB archive")
	}
	testkit.AwaitSetup(t, testkit.SetupSF18) // its build caches the npm package
	dir, err := enginepath.Locator{}.Dir()
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(dir, "npm", sf18Package) // sfbuild's cache of npm packages
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("npm stockfish@18.0.8 not cached (%v); `outpost engines install sf18` caches it", err)
	}
	defer f.Close()
	found, err := FromTarGz(f, sf18Member, sf18Nets)
	if err != nil {
		t.Fatal(err)
	}
	if found[0].Offset != 34_640 || found[1].Offset != 108_954_240 {
		t.Errorf("offsets %d and %d, want 34640 and 108954240", found[0].Offset, found[1].Offset)
	}
}
