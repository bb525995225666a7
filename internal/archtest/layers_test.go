package archtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/outpostchess/outpost"

// importsOf lists every package of the module with its non-test imports,
// as `go list` reports them.
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

// isApp reports whether p (relative) is the app layer, which may read the
// config and use internal/.
func isApp(p string) bool { return under(p, "cmd") || under(p, "internal") }

// forbidden returns why pkg may not import imp, or "".
func forbidden(pkg, imp string) string {
	switch {
	case isApp(pkg):
		return ""
	case under(imp, "internal"):
		return "only cmd/ and internal/ may import internal/"
	case imp == "config" && pkg != "config":
		return "only cmd/ and internal/ read the config"
	case under(imp, "cmd"):
		return "nothing imports a command"
	}
	return ""
}

// TestLayers checks every non-test import of every package of the module.
func TestLayers(t *testing.T) {
	for pkg, imps := range importsOf(t) {
		for _, imp := range imps {
			if !strings.HasPrefix(imp, module+"/") && imp != module {
				continue
			}
			if why := forbidden(rel(pkg), rel(imp)); why != "" {
				t.Errorf("%s imports %s: %s", rel(pkg), rel(imp), why)
			}
		}
	}
}

// TestForbidden pins the rule table, so that TestLayers cannot pass by
// allowing everything.
func TestForbidden(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"analysis/comparerun", "internal/store", true},
		{"bots/runner", "config", true},
		{"lichess", "internal/web", true},
		{"models", "cmd/outpost", true},
		{"config", "internal/store", true},
		{"config", "bots/knobs", false},
		{"internal/daemon", "config", false},
		{"internal/store", "bots/runner", false},
		{"cmd/outpost", "internal/web", false},
		{"bots/runner", "lichess", false},
		{"analysis/ewr", "models", false},
	} {
		if got := forbidden(tc.pkg, tc.imp) != ""; got != tc.bad {
			t.Errorf("%s → %s: forbidden %v, want %v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}

// TestMapNamesEveryPackage: docs/architecture.md's map names every package
// of the module, so that a new package gets its line.
func TestMapNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range importsOf(t) {
		if p := rel(pkg); !strings.Contains(string(doc), "`"+p+"`") {
			t.Errorf("docs/architecture.md does not name %s", p)
		}
	}
}
