package enginepath

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// machine describes a fake machine for a Locator.
type machine struct {
	native15, native18  bool // native builds present (binary + build.json)
	native16, native171 bool
	half18              bool // sf18 binary without build.json (an unfinished build)
	debian              bool // Debian's package installed
	sf19, node          bool // Stockfish 19 files, node on PATH
}

// fake builds the machine in temporary directories.
func fake(t *testing.T, m machine) (Locator, string) {
	t.Helper()
	root := t.TempDir()
	write := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
	}
	engines := filepath.Join(root, "engines")
	if m.native15 {
		write(filepath.Join(engines, "stockfish-15.1", Binary), 0o755)
		write(filepath.Join(engines, "stockfish-15.1", BuildInfo), 0o644)
	}
	for dir, ok := range map[string]bool{"stockfish-16": m.native16, "stockfish-17.1": m.native171} {
		if ok {
			write(filepath.Join(engines, dir, Binary), 0o755)
			write(filepath.Join(engines, dir, BuildInfo), 0o644)
		}
	}
	if m.native18 || m.half18 {
		write(filepath.Join(engines, "stockfish-18", Binary), 0o755)
	}
	if m.native18 {
		write(filepath.Join(engines, "stockfish-18", BuildInfo), 0o644)
	}
	debian := filepath.Join(root, "usr", "games", "stockfish")
	if m.debian {
		write(debian, 0o755)
	}
	if m.sf19 {
		write(filepath.Join(root, "sf19", Stockfish19Script), 0o644)
		write(filepath.Join(root, "sf19", Stockfish19Wasm), 0o644)
	}
	env := map[string]string{EnvEnginesDir: engines, EnvStockfish19Dir: filepath.Join(root, "sf19")}
	return Locator{
		Getenv: func(k string) string { return env[k] },
		LookPath: func(p string) (string, error) {
			if p == "node" && m.node {
				return "/usr/bin/node", nil
			}
			return "", errors.New("not found")
		},
		Debian: debian,
	}, root
}

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sf15", Stockfish15}, {"Stockfish", Stockfish15}, {"stockfish-15", Stockfish15}, {"stockfish15", Stockfish15},
		{"sf18", Stockfish18}, {"STOCKFISH-18", Stockfish18},
		{"sf16", Stockfish16}, {"stockfish-16", Stockfish16}, {"Stockfish16", Stockfish16},
		{"sf17.1", Stockfish171}, {"sf171", Stockfish171}, {"stockfish-17.1", Stockfish171}, {"sf17", ""},
		{"sf19", Stockfish19}, {" stockfish19 ", Stockfish19},
		{"auto", Auto},
		{"/usr/games/stockfish", ""}, {"sf20", ""}, {"", ""},
	} {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if Name([]string{"sf18", "--x"}) != "" || Name(nil) != "" || Name([]string{"sf18"}) != Stockfish18 {
		t.Error("Name: only a one-word command line is a name")
	}
}

func TestResolve(t *testing.T) {
	all := machine{native15: true, native16: true, native171: true, native18: true, debian: true, sf19: true, node: true}
	for _, tc := range []struct {
		name    string
		m       machine
		in      []string
		want    []string // "~/" is the fake root
		native  bool
		notice  bool
		wantErr string // substring; "" = no error
	}{
		{"sf15 native", all, []string{"sf15"}, []string{"~/engines/stockfish-15.1/stockfish"}, true, false, ""},
		{"stockfish is sf15", all, []string{"stockfish"}, []string{"~/engines/stockfish-15.1/stockfish"}, true, false, ""},
		{"sf15 falls back to Debian", machine{debian: true}, []string{"sf15"}, []string{"~/usr/games/stockfish"}, false, false, ""},
		{"sf15 nothing", machine{}, []string{"sf15"}, nil, false, false, "apt-get install stockfish"},
		{"sf18 native", all, []string{"sf18"}, []string{"~/engines/stockfish-18/stockfish"}, true, false, ""},
		{"sf18 missing names the command", machine{debian: true}, []string{"sf18"}, nil, false, false, InstallSF18Command},
		{"sf16 native", all, []string{"stockfish-16"}, []string{"~/engines/stockfish-16/stockfish"}, true, false, ""},
		{"sf17.1 native", all, []string{"sf17.1"}, []string{"~/engines/stockfish-17.1/stockfish"}, true, false, ""},
		{"sf16 missing names the command", machine{debian: true}, []string{"sf16"}, nil, false, false, "outpost engines install sf16"},
		{"sf17.1 missing names the command", machine{native18: true}, []string{"sf17.1"}, nil, false, false, "outpost engines install sf17.1"},
		{"sf18 unfinished build", machine{half18: true}, []string{"sf18"}, nil, false, false, "not built"},
		{"sf19", all, []string{"sf19"}, []string{"/usr/bin/node", "~/sf19/" + Stockfish19Script}, false, false, ""},
		{"sf19 missing", machine{node: true}, []string{"sf19"}, nil, false, false, Stockfish19Script + " is missing"},
		{"sf19 without node", machine{sf19: true}, []string{"stockfish-19"}, nil, false, false, "node is not in PATH"},
		{"auto is sf19", all, []string{"auto"}, []string{"/usr/bin/node", "~/sf19/" + Stockfish19Script}, false, false, ""},
		{"auto falls back to native 15.1", machine{native15: true}, []string{"auto"}, []string{"~/engines/stockfish-15.1/stockfish"}, true, true, ""},
		{"auto falls back to Debian", machine{debian: true, sf19: true}, []string{"auto"}, []string{"~/usr/games/stockfish"}, false, true, ""},
		{"auto nothing", machine{}, []string{"auto"}, nil, false, false, "nor Stockfish 15.1"},
		{"path kept", machine{}, []string{"/opt/sf", "bench"}, []string{"/opt/sf", "bench"}, false, false, ""},
		{"empty", all, nil, nil, false, false, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, root := fake(t, tc.m)
			r, err := l.Resolve(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				if tc.name != "empty" && !errors.Is(err, ErrNotInstalled) {
					t.Errorf("err %v does not wrap ErrNotInstalled", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(tc.want))
			for i, w := range tc.want {
				if rel, ok := strings.CutPrefix(w, "~/"); ok {
					w = filepath.Join(root, rel)
				}
				want[i] = w
			}
			if !reflect.DeepEqual(r.Command, want) {
				t.Errorf("command %q, want %q", r.Command, want)
			}
			if r.Native != tc.native {
				t.Errorf("native %v, want %v", r.Native, tc.native)
			}
			if (r.Notice != "") != tc.notice {
				t.Errorf("notice %q, want one: %v", r.Notice, tc.notice)
			}
			if tc.notice && !strings.Contains(r.Notice, "Stockfish 15.1") {
				t.Errorf("notice %q does not say what is used", r.Notice)
			}
		})
	}
}

func TestDefaultDirs(t *testing.T) {
	l := Locator{Getenv: func(string) string { return "" }, Home: "/home/u"}
	if d, err := l.Dir(); err != nil || d != "/home/u/.cache/outpost/engines" {
		t.Errorf("Dir %q, %v", d, err)
	}
	if d, err := l.Stockfish19Dir(); err != nil || d != "/home/u/.cache/outpost/stockfish19" {
		t.Errorf("Stockfish19Dir %q, %v", d, err)
	}
	if d, err := l.NativeDir("stockfish-18"); err != nil || d != "/home/u/.cache/outpost/engines/stockfish-18" {
		t.Errorf("NativeDir %q, %v", d, err)
	}
	if _, err := l.NativeDir("sf19"); err == nil {
		t.Error("sf19 has no native build")
	}
}
