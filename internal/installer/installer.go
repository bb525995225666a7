// Package installer is `outpost setup`: it installs what Outpost uses at run
// time into the user's cache, without root and without apt — Stockfish
// (a binary already on PATH, else built from the official source release,
// else Debian's package where apt is there and the user is root), the
// networks of the native builds, ONNX Runtime for the running OS and
// architecture, and the Maia-1 weights.
//
// Every download is pinned by SHA-256 and resumable (Fetcher); every base
// URL is overridable (Sources), so a mirror or a test's loopback server can
// serve the same files. Every step prints what it does and why it skips.
// Native builds go through package sfbuild, the same code as `outpost
// engines install`.
package installer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
)

// Options say what to install where.
type Options struct {
	// Sources are the download base URLs.
	Sources Sources
	// Engines are the engine names to install (sf15, sf16, sf17.1, sf18);
	// empty means sf15, the default engine.
	Engines []string
	// Build makes a native Stockfish 15.1 even when one is on PATH.
	Build bool
	// Force rebuilds a native build that is already installed.
	Force bool
	// StockfishSrc is a folder holding the source archives
	// (stockfish-15.1-src.tar.gz …) to use instead of downloading; files
	// missing there or with another SHA-256 are downloaded.
	StockfishSrc string
	// Arch and Jobs are passed to the native builds (see sfbuild.Builder).
	Arch string
	Jobs int
	// Locator says where the engines go and finds Stockfish on PATH.
	Locator enginepath.Locator
	// ModelsDir receives ONNX Runtime and maia1/.
	ModelsDir string
	// MaiaSource is a folder of maia-*.pb.gz to copy instead of
	// downloading (optional).
	MaiaSource string
	// Skip steps.
	SkipEngines, SkipLibrary, SkipWeights bool
	// GOOS and GOARCH choose the ONNX Runtime build (default: this
	// program's).
	GOOS, GOARCH string
	// Client does the downloads (http.DefaultClient when nil).
	Client *http.Client
	// Log gets every progress line. Terminal says it is a terminal: long
	// steps then draw a bar there instead of writing a line every
	// ProgressEvery.
	Log      io.Writer
	Terminal bool
	// Now and Tick are the clock of the progress reports: the time, and a
	// channel of report times with its stop function (nil: time.Now and a
	// time.Ticker; tests pass their own).
	Now  func() time.Time
	Tick func(time.Duration) (<-chan time.Time, func())
	// Builder builds one native engine; nil means sfbuild.Builder.Build
	// (tests replace it: a real build takes minutes).
	Builder func(context.Context, sfbuild.Builder, sfbuild.Recipe) (sfbuild.Result, error)
	// Apt installs Debian packages; nil means apt-get, which returns
	// ErrNoApt unless this is root with apt-get present (AptAvailable).
	Apt func(ctx context.Context, pkgs ...string) error
}

// Installer runs the steps of Options.
type Installer struct {
	opts   Options
	meters meters
	fetch  Fetcher
}

// New checks opts and fills in defaults.
func New(opts Options) (*Installer, error) {
	if len(opts.Engines) == 0 {
		opts.Engines = []string{enginepath.Stockfish15}
	}
	if opts.GOOS == "" {
		opts.GOOS, opts.GOARCH = runtime.GOOS, runtime.GOARCH
	}
	if opts.ModelsDir == "" && !(opts.SkipLibrary && opts.SkipWeights) {
		return nil, errors.New("installer: no models directory")
	}
	if opts.Builder == nil {
		opts.Builder = func(ctx context.Context, b sfbuild.Builder, r sfbuild.Recipe) (sfbuild.Result, error) {
			return b.Build(ctx, r)
		}
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	m := newMeters(opts.Log, opts.Terminal, opts.Now, opts.Tick)
	return &Installer{opts: opts, meters: m, fetch: Fetcher{Client: opts.Client, Log: prefixed{opts.Log}, meters: m}}, nil
}

// Run runs every step not skipped, in order: engines, ONNX Runtime, Maia
// weights. It goes on after a failed step and returns all the failures.
func (in *Installer) Run(ctx context.Context) error {
	var errs []error
	if in.opts.SkipEngines {
		in.logf("engines: skipped (--skip-engines)")
	} else {
		for _, name := range in.opts.Engines {
			if err := in.Engine(ctx, name); err != nil {
				in.logf("engines: %s: %v", name, err)
				errs = append(errs, err)
			}
		}
	}
	steps := []struct {
		skip bool
		name string
		run  func(context.Context) error
	}{
		{in.opts.SkipLibrary, "ONNX Runtime: skipped (--skip-library)", in.ONNXRuntime},
		{in.opts.SkipWeights, "Maia-1 weights: skipped (--skip-weights)", in.MaiaWeights},
	}
	for _, s := range steps {
		if s.skip {
			in.logf("%s", s.name)
			continue
		}
		if err := s.run(ctx); err != nil {
			in.logf("%v", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (in *Installer) logf(format string, args ...any) {
	fmt.Fprintf(in.opts.Log, "setup: "+format+"\n", args...)
}

// prefixed adds "setup: " to the downloader's lines.
type prefixed struct{ w io.Writer }

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "setup: %s", b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// ErrNoApt is returned when Debian packages cannot be installed here.
var ErrNoApt = errors.New("apt-get is not available to this user (not root, or not Debian)")

// AptAvailable says whether Debian packages can be installed here: apt-get
// is on PATH and this process is root.
func AptAvailable() bool {
	_, err := exec.LookPath("apt-get")
	return err == nil && os.Geteuid() == 0
}

// apt installs Debian packages through opts.Apt or apt-get.
func (in *Installer) apt(ctx context.Context, pkgs ...string) error {
	if in.opts.Apt != nil {
		return in.opts.Apt(ctx, pkgs...)
	}
	if !AptAvailable() {
		return ErrNoApt
	}
	args := append([]string{"install", "-y", "-qq"}, pkgs...)
	cmd := exec.CommandContext(ctx, "apt-get", args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	cmd.Stdout, cmd.Stderr = in.opts.Log, in.opts.Log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("installer: apt-get install %v: %w", pkgs, err)
	}
	return nil
}
