package enginepath

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Where things are.
const (
	// DebianStockfish is where Debian's package stockfish (15.1, built for
	// plain x86-64 with SSE2) installs the engine.
	DebianStockfish = "/usr/games/stockfish"
	// EnvEnginesDir overrides the directory of the native builds.
	EnvEnginesDir = "OUTPOST_ENGINES_DIR"
	// EnvStockfish19Dir overrides Stockfish 19's directory.
	EnvStockfish19Dir = "OUTPOST_STOCKFISH19_DIR"
	// Binary is the file name of a native build's executable.
	Binary = "stockfish"
	// BuildInfo is the file a native build writes last, once it passed its
	// identity check; without it the build does not count.
	BuildInfo = "build.json"
	// Stockfish19Package is the npm package Stockfish 19 comes from.
	Stockfish19Package = "stockfish@19.0.0"
	// Stockfish19Script is Stockfish 19's entry point, run with node; the
	// WebAssembly file sits next to it.
	Stockfish19Script = "stockfish-19-single.js"
	// Stockfish19Wasm is Stockfish 19's WebAssembly engine (the net
	// included).
	Stockfish19Wasm = "stockfish-19-single.wasm"
	// SetupCommand installs the engines (and the rest of what Outpost uses).
	SetupCommand = "make setup (or bash internal/scripts/setup.sh)"
	// InstallSF18Command builds Stockfish 18.
	InstallSF18Command = "outpost engines install sf18"
	// InstallCommand builds a native Stockfish: the engine's name follows.
	InstallCommand = "outpost engines install"
)

// ErrNotInstalled is wrapped by the errors of an engine name whose engine
// is missing on this machine.
var ErrNotInstalled = errors.New("engine not installed")

// Locator finds engines on one machine. The zero value looks at this
// process's environment, PATH, home directory and file system.
type Locator struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// LookPath finds a program in PATH (exec.LookPath when nil).
	LookPath func(string) (string, error)
	// Home is the home directory for the default directories
	// (os.UserHomeDir when empty).
	Home string
	// Debian is Debian's Stockfish (DebianStockfish when empty).
	Debian string
}

func (l Locator) getenv(k string) string {
	if l.Getenv == nil {
		return os.Getenv(k)
	}
	return l.Getenv(k)
}

func (l Locator) lookPath(p string) (string, error) {
	if l.LookPath == nil {
		return exec.LookPath(p)
	}
	return l.LookPath(p)
}

func (l Locator) home(env string) (string, error) {
	if l.Home != "" {
		return l.Home, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("enginepath: no home directory (set %s): %w", env, err)
	}
	return h, nil
}

// Dir is the directory of the native builds: $OUTPOST_ENGINES_DIR, else
// ~/.cache/outpost/engines (beside the models directory,
// ~/.cache/outpost/models).
func (l Locator) Dir() (string, error) {
	return l.cacheDir(EnvEnginesDir, "engines")
}

// NativeDir is the directory of the native build of name (sf15, sf16,
// sf17.1 or sf18): "stockfish-" and the version.
func (l Locator) NativeDir(name string) (string, error) {
	v := nativeVersion(Canonical(name))
	if v == "" {
		return "", fmt.Errorf("enginepath: %q has no native build (want one of %s)", name, strings.Join(NativeNames(), ", "))
	}
	sub := "stockfish-" + v
	d, err := l.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, sub), nil
}

// Native returns the executable of name's native build, or "" when it is
// not built (no executable or no build.json beside it).
func (l Locator) Native(name string) (string, error) {
	dir, err := l.NativeDir(name)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, Binary)
	if !isExecutable(bin) || !isRegular(filepath.Join(dir, BuildInfo)) {
		return "", nil
	}
	return bin, nil
}

// DebianStockfish returns Debian's Stockfish 15.1: the package's path, else
// "stockfish" on PATH; "" when neither exists.
func (l Locator) DebianStockfish() string {
	p := l.Debian
	if p == "" {
		p = DebianStockfish
	}
	if isExecutable(p) {
		return p
	}
	if p, err := l.lookPath("stockfish"); err == nil {
		return p
	}
	return ""
}

// Stockfish19Dir is where setup installs Stockfish 19:
// $OUTPOST_STOCKFISH19_DIR, else ~/.cache/outpost/stockfish19.
func (l Locator) Stockfish19Dir() (string, error) {
	return l.cacheDir(EnvStockfish19Dir, "stockfish19")
}

// cacheDir is the directory named by the environment variable env, else
// ~/.cache/outpost/sub.
func (l Locator) cacheDir(env, sub string) (string, error) {
	if d := l.getenv(env); d != "" {
		return d, nil
	}
	h, err := l.home(env)
	if err != nil {
		return "", err
	}
	return filepath.Join(h, ".cache", "outpost", sub), nil
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
