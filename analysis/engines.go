package analysis

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Engine names accepted wherever an engine command line is asked for
// (--engine, [analysis] engine, [compare] engine): a one-word command line
// naming one of them is resolved by Engines.Resolve.
const (
	// EngineStockfish15 is Debian's Stockfish 15.1 (/usr/games/stockfish);
	// also "stockfish", "sf15" and "stockfish-15".
	EngineStockfish15 = "stockfish15"
	// EngineStockfish19 is Stockfish 19 from the npm package
	// stockfish@19.0.0 (WebAssembly under Node.js), installed by
	// internal/scripts/setup.sh; also "sf19" and "stockfish-19".
	EngineStockfish19 = "stockfish19"
	// EngineAuto is Stockfish 19 when it is installed, else Stockfish 15.1
	// (with a notice saying so): the default for comparisons with Lichess.
	EngineAuto = "auto"
)

// Stockfish 19's files, as setup.sh installs them.
const (
	// Stockfish19Package is the npm package it comes from.
	Stockfish19Package = "stockfish@19.0.0"
	// Stockfish19Script is the engine's entry point, run with node; the
	// WebAssembly file sits next to it with the same base name.
	Stockfish19Script = "stockfish-19-single.js"
	// Stockfish19Wasm is the WebAssembly engine (about 99 MB, the net
	// included).
	Stockfish19Wasm = "stockfish-19-single.wasm"
	// EnvStockfish19Dir overrides the install directory.
	EnvStockfish19Dir = "OUTPOST_STOCKFISH19_DIR"
	// SetupCommand installs Stockfish 19 (and the rest of what Outpost uses).
	SetupCommand = "make setup (or bash internal/scripts/setup.sh)"
)

// Stockfish15Command is Debian's Stockfish 15.1.
var Stockfish15Command = []string{"/usr/games/stockfish"}

// ComparisonEngine is the default engine of analyses compared with
// Lichess's (outpost analyse, outpost compare, scheduled [compare] runs):
// Stockfish 15.1, measured closer to Lichess's analysis of the shared games
// than Stockfish 19 (README, "Stockfish 19 vs 15.1").
var ComparisonEngine = Stockfish15Command

// ErrEngineNotInstalled is wrapped by the errors of an engine name whose
// engine is missing on this machine.
var ErrEngineNotInstalled = errors.New("engine not installed")

var engineAliases = map[string]string{
	"stockfish": EngineStockfish15, "stockfish15": EngineStockfish15, "sf15": EngineStockfish15, "stockfish-15": EngineStockfish15,
	"stockfish19": EngineStockfish19, "sf19": EngineStockfish19, "stockfish-19": EngineStockfish19,
	"auto": EngineAuto,
}

// EngineName returns the canonical engine name of a one-word command line
// ("sf19" → "stockfish19"), or "" when cmdline is an ordinary command.
func EngineName(cmdline []string) string {
	if len(cmdline) != 1 {
		return ""
	}
	return engineAliases[strings.ToLower(strings.TrimSpace(cmdline[0]))]
}

// Engines finds the engines Outpost knows by name on this machine.
type Engines struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// LookPath finds a program in PATH (exec.LookPath when nil).
	LookPath func(string) (string, error)
	// Home is the home directory for the default install directory
	// (os.UserHomeDir when empty).
	Home string
}

// SystemEngines looks at this machine's environment, PATH and home.
func SystemEngines() Engines { return Engines{} }

func (e Engines) getenv(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

func (e Engines) lookPath(p string) (string, error) {
	if e.LookPath == nil {
		return exec.LookPath(p)
	}
	return e.LookPath(p)
}

// Stockfish19Dir is where setup.sh installs Stockfish 19:
// $OUTPOST_STOCKFISH19_DIR, else ~/.cache/outpost/stockfish19 (beside the
// models directory of `outpost models fetch`, ~/.cache/outpost/models).
func (e Engines) Stockfish19Dir() (string, error) {
	if d := e.getenv(EnvStockfish19Dir); d != "" {
		return d, nil
	}
	home := e.Home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("analysis: no home directory for Stockfish 19 (set %s): %w", EnvStockfish19Dir, err)
		}
		home = h
	}
	return filepath.Join(home, ".cache", "outpost", "stockfish19"), nil
}

// Stockfish19 returns Stockfish 19's command line (node and the script).
// The error, wrapping ErrEngineNotInstalled, names what is missing and the
// setup command.
func (e Engines) Stockfish19() ([]string, error) {
	cmd, missing, err := e.stockfish19()
	if err != nil {
		return nil, err
	}
	if missing != "" {
		return nil, fmt.Errorf("analysis: engine %s: %s (Stockfish 19 from npm %s runs under Node.js; install it with %s, or set %s): %w",
			EngineStockfish19, missing, Stockfish19Package, SetupCommand, EnvStockfish19Dir, ErrEngineNotInstalled)
	}
	return cmd, nil
}

// stockfish19 returns the command line, or what is missing ("" when
// nothing is).
func (e Engines) stockfish19() (cmd []string, missing string, err error) {
	dir, err := e.Stockfish19Dir()
	if err != nil {
		return nil, "", err
	}
	script := filepath.Join(dir, Stockfish19Script)
	for _, f := range []string{script, filepath.Join(dir, Stockfish19Wasm)} {
		if st, err := os.Stat(f); err != nil || !st.Mode().IsRegular() {
			return nil, f + " is missing", nil
		}
	}
	node, err := e.lookPath("node")
	if err != nil {
		return nil, "node is not in PATH", nil
	}
	return []string{node, script}, "", nil
}

// Resolve turns an engine command line into the one to run: a name
// ("sf19", "stockfish15", "auto", …) becomes its command; anything else is
// returned as it is. notice is set when "auto" fell back to Stockfish 15.1.
func (e Engines) Resolve(cmdline []string) (cmd []string, notice string, err error) {
	if len(cmdline) == 0 {
		return nil, "", errors.New("analysis: the engine command line is empty")
	}
	switch EngineName(cmdline) {
	case EngineStockfish15:
		return Stockfish15Command, "", nil
	case EngineStockfish19:
		cmd, err := e.Stockfish19()
		return cmd, "", err
	case EngineAuto:
		cmd, missing, err := e.stockfish19()
		if err != nil {
			return nil, "", err
		}
		if missing != "" {
			return Stockfish15Command, fmt.Sprintf("engine auto: Stockfish 19 is not installed (%s), using Stockfish 15.1 (%s); %s installs it",
				missing, Stockfish15Command[0], SetupCommand), nil
		}
		return cmd, "", nil
	}
	return cmdline, "", nil
}

// ResolveEngine resolves cmdline on this machine (see Engines.Resolve).
func ResolveEngine(cmdline []string) ([]string, string, error) {
	return SystemEngines().Resolve(cmdline)
}
