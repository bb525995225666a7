package enginepath

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Resolved is an engine command line ready to run.
type Resolved struct {
	// Command is the command line (program and arguments).
	Command []string
	// Name is the canonical engine name the command line was resolved
	// from ("sf15", …; after auto the engine chosen), "" for a command
	// line given as it is.
	Name string
	// Native is set when Command is a native build of this machine.
	Native bool
	// Label says what runs, e.g. "Stockfish 15.1 (native build)".
	Label string
	// Notice is set when the engine asked for was replaced by another
	// (auto without Stockfish 19): callers show or log it.
	Notice string
}

// Resolve turns an engine command line into the one to run. A one-word
// engine name is looked up:
//   - sf15: the native build when built, else Debian's Stockfish 15.1;
//   - sf16, sf17.1, sf18: the native build (an error naming the install
//     command when missing);
//   - sf19: node and Stockfish 19's script;
//   - auto: sf19 when installed, else sf15 with a Notice.
//
// Anything else (a path, a program with arguments) is returned as it is.
// A missing engine is an error wrapping ErrNotInstalled.
func (l Locator) Resolve(cmdline []string) (Resolved, error) {
	if len(cmdline) == 0 || cmdline[0] == "" {
		return Resolved{}, errors.New("enginepath: the engine command line is empty")
	}
	switch Name(cmdline) {
	case Stockfish15:
		return l.stockfish15()
	case Stockfish16, Stockfish171, Stockfish18:
		return l.nativeOnly(Name(cmdline))
	case Stockfish19:
		cmd, missing, err := l.stockfish19()
		if err != nil {
			return Resolved{}, err
		}
		if missing != "" {
			return Resolved{}, fmt.Errorf("enginepath: engine %s: %s (Stockfish 19 from npm %s runs under Node.js; install it with %s, or set %s): %w",
				Stockfish19, missing, Stockfish19Package, SetupCommand, EnvStockfish19Dir, ErrNotInstalled)
		}
		return Resolved{Command: cmd, Name: Stockfish19, Label: "Stockfish 19 (WebAssembly, node)"}, nil
	case Auto:
		cmd, missing, err := l.stockfish19()
		if err != nil {
			return Resolved{}, err
		}
		if missing == "" {
			return Resolved{Command: cmd, Name: Stockfish19, Label: "Stockfish 19 (WebAssembly, node)"}, nil
		}
		r, err := l.stockfish15()
		if err != nil {
			return Resolved{}, fmt.Errorf("enginepath: engine auto: Stockfish 19 is not installed (%s), nor Stockfish 15.1: %w", missing, err)
		}
		r.Notice = fmt.Sprintf("engine auto: Stockfish 19 is not installed (%s), using Stockfish 15.1 (%s); %s installs it",
			missing, r.Command[0], SetupCommand)
		return r, nil
	}
	return Resolved{Command: cmdline, Label: cmdline[0]}, nil
}

// stockfish15 is the native 15.1 build, else Debian's.
func (l Locator) stockfish15() (Resolved, error) {
	bin, err := l.Native(Stockfish15)
	if err != nil {
		return Resolved{}, err
	}
	if bin != "" {
		return Resolved{Command: []string{bin}, Name: Stockfish15, Native: true, Label: "Stockfish 15.1 (native build)"}, nil
	}
	if deb := l.DebianStockfish(); deb != "" {
		return Resolved{Command: []string{deb}, Name: Stockfish15, Label: "Stockfish 15.1 (Debian)"}, nil
	}
	return Resolved{}, fmt.Errorf("enginepath: engine %s: no native build and no %s (apt-get install stockfish, or %s): %w",
		Stockfish15, DebianStockfish, SetupCommand, ErrNotInstalled)
}

// nativeOnly is the native build of name (sf16, sf17.1, sf18), which has
// no fallback.
func (l Locator) nativeOnly(name string) (Resolved, error) {
	bin, err := l.Native(name)
	if err != nil {
		return Resolved{}, err
	}
	if bin == "" {
		dir, _ := l.NativeDir(name)
		return Resolved{}, fmt.Errorf("enginepath: engine %s: not built in %s (build it with %s %s, which %s runs): %w",
			name, dir, InstallCommand, name, SetupCommand, ErrNotInstalled)
	}
	return Resolved{Command: []string{bin}, Name: name, Native: true, Label: Describe(name) + " (native build)"}, nil
}

// stockfish19 returns Stockfish 19's command line, or what is missing (""
// when nothing is).
func (l Locator) stockfish19() (cmd []string, missing string, err error) {
	dir, err := l.Stockfish19Dir()
	if err != nil {
		return nil, "", err
	}
	script := filepath.Join(dir, Stockfish19Script)
	for _, f := range []string{script, filepath.Join(dir, Stockfish19Wasm)} {
		if !isRegular(f) {
			return nil, f + " is missing", nil
		}
	}
	node, err := l.lookPath("node")
	if err != nil {
		return nil, "node is not in PATH", nil
	}
	return []string{node, script}, "", nil
}

// Resolve resolves cmdline on this machine (see Locator.Resolve).
func Resolve(cmdline []string) (Resolved, error) { return Locator{}.Resolve(cmdline) }

// Stockfish15Command returns the command line of Stockfish 15.1 on this
// machine (native build, else Debian's).
func Stockfish15Command() ([]string, error) {
	r, err := Locator{}.stockfish15()
	return r.Command, err
}
