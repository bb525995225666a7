package archtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/outpostchess/outpost"

// floors is the house: each package (relative to the module) is on the
// floor of the longest prefix listed here, and imports only packages on its
// own floor or below. docs/architecture.md draws the same table
// (TestDocDrawsFloors).
var floors = []struct {
	floor    int
	name     string
	prefixes []string
}{
	{0, "ground", []string{"bots/board", "bots/score", "analysis/pgn", "analysis/replay", "analysis/duration"}},
	{1, "engines", []string{"bots"}},
	{2, "analysis and models", []string{"analysis", "models"}},
	{3, "Lichess", []string{"lichess"}},
	{4, "config", []string{"config"}},
	{5, "app", []string{"internal", "cmd"}},
}

// appOnly are the packages from outside the module that only the app
// (floor 5) imports: drawing on a terminal is the commands' job (a library
// reports progress through a callback, internal/terminal draws the bar),
// SQLite is the store's (a library that needs persistence declares an
// interface), and notnil/chess is `outpost bench`'s perft oracle (the chess
// rules of the libraries are bots/board's).
var appOnly = []string{
	"github.com/schollz/progressbar",
	"github.com/mattn/go-isatty",
	"modernc.org/sqlite",
	"github.com/notnil/chess",
}

// appFloor is the floor of the app, the only one importing appOnly.
const appFloor = 5

// floorOf returns p's floor (relative path) and the prefix that placed it,
// or -1 when no prefix covers p.
func floorOf(p string) (int, string) {
	best, at := -1, ""
	for _, f := range floors {
		for _, pre := range f.prefixes {
			if under(p, pre) && len(pre) > len(at) {
				best, at = f.floor, pre
			}
		}
	}
	return best, at
}

// importsOf lists every package of the module with its non-test imports,
// as `go list` reports them. Tests may import anything (a client's tests
// run against the sandbox, which is app code).
func importsOf(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			pkgs[f[0]] = f[1:]
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages:\n%s", len(pkgs), out)
	}
	return pkgs
}

// rel returns p relative to the module ("" for the module root itself).
func rel(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
}

func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// forbidden returns why pkg may not import imp (both relative), or "".
func forbidden(pkg, imp string) string {
	fp, _ := floorOf(pkg)
	fi, _ := floorOf(imp)
	switch {
	case fp < 0:
		return "the importer is on no floor (add it to archtest's table)"
	case fi < 0:
		return "the imported package is on no floor (add it to archtest's table)"
	case under(imp, "cmd"):
		return "nothing imports a command"
	case fi > fp:
		return fmt.Sprintf("floor %d imports floor %d (a package imports only its own floor or below)", fp, fi)
	}
	return ""
}

// forbiddenOutside returns why pkg (relative) may not import imp, a
// package from outside the module (full path), or "".
func forbiddenOutside(pkg, imp string) string {
	for _, a := range appOnly {
		if fp, _ := floorOf(pkg); under(imp, a) && fp != appFloor {
			return fmt.Sprintf("floor %d imports %s, which only the app (floor %d) imports", fp, a, appFloor)
		}
	}
	return ""
}

// violations lists every import of graph (package → its imports, full
// paths) against the floors and appOnly.
func violations(graph map[string][]string) []string {
	var out []string
	for pkg, imps := range graph {
		for _, imp := range imps {
			why, name := forbiddenOutside(rel(pkg), imp), imp
			if strings.HasPrefix(imp, module+"/") || imp == module {
				why, name = forbidden(rel(pkg), rel(imp)), rel(imp)
			}
			if why != "" {
				out = append(out, fmt.Sprintf("%s imports %s: %s", rel(pkg), name, why))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestFloors checks every non-test import of every package of the module.
func TestFloors(t *testing.T) {
	for _, v := range violations(importsOf(t)) {
		t.Error(v)
	}
}

// TestFloorsCatchAnUpwardImport: the module's real graph with one upward
// import added (the ground floor's board importing the engine contract, as
// it once did) fails the check, naming both floors.
func TestFloorsCatchAnUpwardImport(t *testing.T) {
	graph := importsOf(t)
	board := module + "/bots/board"
	graph[board] = append(graph[board], module+"/bots/engine")
	v := violations(graph)
	if len(v) != 1 || !strings.Contains(v[0], "bots/board imports bots/engine: floor 0 imports floor 1") {
		t.Errorf("violations = %q, want the one added upward import", v)
	}
}

// TestAppOnlyCatchesALibraryDrawingABar: the real graph with a library
// importing the progress bar again (as analysis and analysis/ewr once did)
// fails the check; the app drawing it (internal/terminal, internal/installer)
// does not.
func TestAppOnlyCatchesALibraryDrawingABar(t *testing.T) {
	graph := importsOf(t)
	ewr := module + "/analysis/ewr"
	graph[ewr] = append(graph[ewr], "github.com/schollz/progressbar/v3")
	v := violations(graph)
	if len(v) != 1 || !strings.Contains(v[0], "analysis/ewr imports github.com/schollz/progressbar/v3: floor 2 imports github.com/schollz/progressbar") {
		t.Errorf("violations = %q, want the one added import", v)
	}
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"internal/terminal", "github.com/schollz/progressbar/v3", false},
		{"cmd/outpost", "github.com/mattn/go-isatty", false},
		{"analysis", "github.com/mattn/go-isatty", true},
		{"lichess/runner", "modernc.org/sqlite", true},
		{"internal/store", "modernc.org/sqlite", false},
		{"bots/board", "github.com/notnil/chess", true},
		{"config", "github.com/schollz/progressbar/v3", true},
		{"analysis/cluster", "github.com/nats-io/nats.go", false},
	} {
		if got := forbiddenOutside(tc.pkg, tc.imp) != ""; got != tc.bad {
			t.Errorf("%s → %s: forbidden %v, want %v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}

// TestForbidden pins the rule table, so that TestFloors cannot pass by
// allowing everything.
func TestForbidden(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"internal/comparerun", "internal/store", false},
		{"lichess/runner", "config", true},
		{"lichess", "internal/web", true},
		{"lichess", "internal/sandbox", true},
		{"models", "cmd/outpost", true},
		{"config", "internal/store", true},
		{"config", "bots/knobs", false},
		{"config", "lichess", false},
		{"internal/daemon", "config", false},
		{"internal/store", "lichess/runner", false},
		{"cmd/outpost", "internal/web", false},
		{"lichess/runner", "lichess", false},
		{"analysis/ewr", "models", false},
		{"bots", "models", true},
		{"bots/board", "bots/engine", true},
		{"bots/engine", "bots/board", false},
		{"analysis/replay", "bots/board", false},
		{"analysis/replay", "analysis", true},
		{"analysis", "lichess", true},
		{"bots/search", "analysis", true},
		{"models/maiaengine", "bots", false},
		{"internal/sandbox", "analysis", false},
		{"elsewhere", "bots", true},
	} {
		if got := forbidden(tc.pkg, tc.imp) != ""; got != tc.bad {
			t.Errorf("%s → %s: forbidden %v, want %v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}

// TestMapNamesEveryPackage: docs/architecture.md's map names every package
// of the module, so that a new package gets its line.
func TestMapNamesEveryPackage(t *testing.T) {
	doc := readMap(t)
	for pkg := range importsOf(t) {
		if p := rel(pkg); !strings.Contains(doc, "`"+p+"`") {
			t.Errorf("docs/architecture.md does not name %s", p)
		}
	}
}

func readMap(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}

// floorRow is a row of docs/architecture.md's floors table:
// "| 0 | ground | `bots/board`, `bots/score` … |".
var floorRow = regexp.MustCompile(`(?m)^\| (\d) \| ([^|]+) \| (.+) \|$`)

// TestDocDrawsFloors: the floors table in docs/architecture.md has the
// rows of the table above, with the same prefixes.
func TestDocDrawsFloors(t *testing.T) {
	rows := floorRow.FindAllStringSubmatch(readMap(t), -1)
	if len(rows) != len(floors) {
		t.Fatalf("docs/architecture.md has %d floor rows, want %d", len(rows), len(floors))
	}
	for i, r := range rows {
		n, _ := strconv.Atoi(r[1])
		var pre []string
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(r[3], -1) {
			pre = append(pre, m[1])
		}
		f := floors[i]
		if n != f.floor || strings.TrimSpace(r[2]) != f.name || strings.Join(pre, ",") != strings.Join(f.prefixes, ",") {
			t.Errorf("floor row %d: %d %q %v; want %d %q %v", i, n, strings.TrimSpace(r[2]), pre, f.floor, f.name, f.prefixes)
		}
	}
}
