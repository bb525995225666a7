package analysis

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeSF19 returns an Engines whose Stockfish 19 directory is a temporary
// one (with the two files when installed) and whose PATH has node or not.
func fakeSF19(t *testing.T, installed, node bool) (Engines, string) {
	t.Helper()
	dir := t.TempDir()
	if installed {
		for _, f := range []string{Stockfish19Script, Stockfish19Wasm} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return Engines{
		Getenv: func(k string) string {
			if k == EnvStockfish19Dir {
				return dir
			}
			return ""
		},
		LookPath: func(p string) (string, error) {
			if p == "node" && node {
				return "/usr/bin/node", nil
			}
			return "", errors.New("not found")
		},
	}, dir
}

func TestEngineName(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"sf19"}, EngineStockfish19},
		{[]string{"Stockfish19"}, EngineStockfish19},
		{[]string{"stockfish-19"}, EngineStockfish19},
		{[]string{"sf15"}, EngineStockfish15},
		{[]string{"stockfish"}, EngineStockfish15},
		{[]string{" auto "}, EngineAuto},
		{[]string{"/usr/games/stockfish"}, ""},
		{[]string{"sf19", "--flag"}, ""},
		{[]string{"sf20"}, ""},
		{nil, ""},
	} {
		if got := EngineName(tc.in); got != tc.want {
			t.Errorf("EngineName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestResolveEngine(t *testing.T) {
	okEngines, dir := fakeSF19(t, true, true)
	sf19 := []string{"/usr/bin/node", filepath.Join(dir, Stockfish19Script)}
	missing, missingDir := fakeSF19(t, false, true)
	noNode, _ := fakeSF19(t, true, false)
	for _, tc := range []struct {
		name    string
		e       Engines
		in      []string
		want    []string
		notice  bool
		wantErr string // substring; "" = no error
	}{
		{"alias installed", okEngines, []string{"sf19"}, sf19, false, ""},
		{"canonical name", okEngines, []string{"stockfish19"}, sf19, false, ""},
		{"auto installed", okEngines, []string{"auto"}, sf19, false, ""},
		{"stockfish 15", okEngines, []string{"sf15"}, Stockfish15Command, false, ""},
		{"plain command kept", okEngines, []string{"/opt/sf", "bench"}, []string{"/opt/sf", "bench"}, false, ""},
		{"not installed", missing, []string{"sf19"}, nil, false, filepath.Join(missingDir, Stockfish19Script) + " is missing"},
		{"not installed names setup", missing, []string{"sf19"}, nil, false, "make setup"},
		{"no node", noNode, []string{"stockfish19"}, nil, false, "node is not in PATH"},
		{"auto falls back", missing, []string{"auto"}, Stockfish15Command, true, ""},
		{"auto falls back without node", noNode, []string{"auto"}, Stockfish15Command, true, ""},
		{"empty", okEngines, nil, nil, false, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notice, err := tc.e.Resolve(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				if tc.name != "empty" && !errors.Is(err, ErrEngineNotInstalled) {
					t.Errorf("err %v does not wrap ErrEngineNotInstalled", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if (notice != "") != tc.notice {
				t.Errorf("notice %q, want one: %v", notice, tc.notice)
			}
			if tc.notice && !strings.Contains(notice, "Stockfish 15.1") {
				t.Errorf("notice %q does not say what is used", notice)
			}
		})
	}
}

func TestStockfish19DirDefault(t *testing.T) {
	e := Engines{Getenv: func(string) string { return "" }, Home: "/home/u"}
	d, err := e.Stockfish19Dir()
	if err != nil || d != "/home/u/.cache/outpost/stockfish19" {
		t.Fatalf("dir %q, %v", d, err)
	}
}

// TestNewPoolMissingEngine: a pool asked for an uninstalled Stockfish 19
// fails at once with the setup command in the error.
func TestNewPoolMissingEngine(t *testing.T) {
	t.Setenv(EnvStockfish19Dir, t.TempDir())
	_, err := NewPool(t.Context(), PoolConfig{Command: []string{"sf19"}})
	if err == nil || !errors.Is(err, ErrEngineNotInstalled) || !strings.Contains(err.Error(), "setup") {
		t.Fatalf("err = %v", err)
	}
}
