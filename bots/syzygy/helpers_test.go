package syzygy

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/internal/testkit"
)

// sharedTables is the 3–4-piece Syzygy set of ../shared (see its SOURCES.md).
var sharedTables = filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy")

// needFathom skips t in a build that cannot load libfathom (no cgo, or not
// Linux): every probe needs it.
func needFathom(t testing.TB) {
	t.Helper()
	if !Available {
		t.Skip("Syzygy probing needs a cgo build on Linux")
	}
	testkit.AwaitSetup(t, testkit.SetupDebian) // libfathom1
}

// openShared opens the shared tables; libfathom1 is installed by `make
// setup`, so its absence fails the test with that hint.
func openShared(t testing.TB, opts ...Option) *Tables {
	t.Helper()
	needFathom(t)
	tb, err := Open([]string{sharedTables}, opts...)
	if err != nil {
		t.Fatalf("opening the shared tables (run `make setup` for libfathom1): %v", err)
	}
	t.Cleanup(func() { _ = tb.Close() })
	return tb
}

// epdPosition is one line of endgame-dm-N.epd: a position and its
// distance to mate in moves (>0 the side to move mates, <0 it is mated,
// 0 a draw).
type epdPosition struct {
	fen string
	dm  int
}

// readEPD reads the "FEN4 dm N;" lines of an EPD file, with halfmove clock
// 0 and move number 1.
func readEPD(t testing.TB, name string) []epdPosition {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "tablebases", name))
	if err != nil {
		t.Fatalf("opening %s: %v", name, err)
	}
	defer f.Close()
	var out []epdPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(strings.TrimSuffix(line, ";"))
		if len(fields) != 6 || fields[4] != "dm" {
			t.Fatalf("%s: unexpected line %q", name, line)
		}
		dm, err := strconv.Atoi(fields[5])
		if err != nil {
			t.Fatalf("%s: dm of %q: %v", name, line, err)
		}
		out = append(out, epdPosition{fen: strings.Join(fields[:4], " ") + " 0 1", dm: dm})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return out
}

// mustBoard parses fen or fails the test.
func mustBoard(t testing.TB, fen string) *board.Board {
	t.Helper()
	b, err := board.FromFEN(fen)
	if err != nil {
		t.Fatalf("FEN %q: %v", fen, err)
	}
	return b
}

// wdlOfDM is the WDL a distance to mate implies for the side to move.
func wdlOfDM(dm int) WDL {
	switch {
	case dm > 0:
		return Win
	case dm < 0:
		return Loss
	}
	return Draw
}
