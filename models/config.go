// Package models runs the Maia neural networks in-process: Maia-1 (from lc0
// weights, nine rating levels) and a user-supplied Maia-2 ONNX file through
// ONNX Runtime in cgo builds, or Maia-1 on a pure-Go forward pass
// (maia1.Forward) in any build (Config.Runtime). A Predictor takes many
// positions with their game history and the players' ratings and returns
// each position's legal moves with probabilities and its value, batching
// concurrent requests.
//
// Files live in one models directory (see Config): the ONNX Runtime shared
// library libonnxruntime.so.1 (not needed by the pure-Go runtime) and the
// Maia-1 weights under maia1/ (plus the converted .onnx files cached next to
// them). `outpost models fetch` installs both.
//
// Create one Predictor per process and share it (engines, analysis): each
// Predictor loads its own sessions, and ONNX Runtime itself is initialised
// once per process (see Runtime).
package models

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// File names inside the models directory.
const (
	LibraryFile = "libonnxruntime.so.1"
	Maia1Subdir = "maia1"
	// FetchCommand is the command that installs the library and the weights.
	FetchCommand = "outpost models fetch"
)

// Environment variables that override Config fields.
const (
	EnvDir      = "OUTPOST_MODELS_DIR"     // models directory
	EnvLibrary  = "OUTPOST_ORT_LIBRARY"    // ONNX Runtime shared library path
	EnvMaia1Dir = "OUTPOST_MAIA1_DIR"      // directory holding maia-<elo>.pb.gz
	EnvMaia2    = "OUTPOST_MAIA2_MODEL"    // Maia-2 ONNX file
	EnvThreads  = "OUTPOST_ORT_THREADS"    // intra-op threads
	EnvSpin     = "OUTPOST_ORT_SPIN"       // "1" lets worker threads spin
	EnvSessions = "OUTPOST_ORT_SESSIONS"   // session replicas per model
	EnvRuntime  = "OUTPOST_MODELS_RUNTIME" // "onnx" or "go"
)

// Inference runtimes (Config.Runtime).
const (
	// RuntimeONNX runs the networks through ONNX Runtime (cgo builds only).
	RuntimeONNX = "onnx"
	// RuntimeGo runs Maia-1 on the pure-Go forward pass (every build; no
	// Maia-2).
	RuntimeGo = "go"
)

// Defaults.
const (
	DefaultMaxBatch = 256
	DefaultMaxWait  = time.Millisecond
)

// Config locates the model files and tunes inference. The zero value of a
// field means its default; Resolve fills them in. It maps onto the [models]
// section of the Outpost config file.
type Config struct {
	// Runtime is the inference runtime: RuntimeONNX ("onnx", ONNX Runtime,
	// needs a cgo build and the shared library) or RuntimeGo ("go", the
	// pure-Go Maia-1 forward pass). Default: DefaultRuntime, "onnx" in cgo
	// builds and "go" in CGO_ENABLED=0 builds.
	Runtime string `toml:"runtime"`
	// Dir is the models directory. Default: $OUTPOST_MODELS_DIR, else
	// ~/.cache/outpost/models.
	Dir string `toml:"dir"`
	// Library is the ONNX Runtime shared library. Default: Dir/libonnxruntime.so.1.
	Library string `toml:"library"`
	// Maia1Dir holds maia-1100.pb.gz … maia-1900.pb.gz and the converted
	// .onnx cache. Default: Dir/maia1.
	Maia1Dir string `toml:"maia1_dir"`
	// Maia2Model is an optional Maia-2 ONNX file.
	Maia2Model string `toml:"maia2_model"`
	// Threads is ONNX Runtime's intra-op thread count per session, or the
	// goroutines per replica of the pure-Go runtime. Default 2.
	Threads int `toml:"threads"`
	// Sessions is the number of session replicas per model: batches run on
	// them concurrently, each with Threads intra-op threads. Default 1; on a
	// 2-core machine Sessions=2, Threads=1 can beat one 2-thread session
	// when there are many concurrent requests.
	Sessions int `toml:"sessions"`
	// Spin lets ONNX Runtime's worker threads spin-wait between operators:
	// a little faster on idle cores, wasted CPU when the cores are shared
	// (e.g. with Stockfish). Default off.
	Spin bool `toml:"spin"`
	// GraphOptimization is ONNX Runtime's graph optimisation level: "all"
	// (default; includes layout transformation to blocked NCHWc convs),
	// "extended", "basic" or "none".
	GraphOptimization string `toml:"graph_optimization"`
	// MaxBatch is the largest batch sent to a session. Default 256.
	MaxBatch int `toml:"max_batch"`
	// MaxWait is how long a batch waits for more requests. Default 1ms;
	// negative means do not wait.
	MaxWait time.Duration `toml:"max_wait"`
}

// DefaultDir returns the default models directory: $OUTPOST_MODELS_DIR when
// set (through getenv), else ~/.cache/outpost/models.
func DefaultDir(getenv func(string) string) (string, error) {
	if d := getenv(EnvDir); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("models: no home directory for the default models dir (set %s): %w", EnvDir, err)
	}
	return filepath.Join(home, ".cache", "outpost", "models"), nil
}

// WithEnv returns c with the environment overrides applied (getenv is
// usually os.Getenv).
func (c Config) WithEnv(getenv func(string) string) (Config, error) {
	if v := getenv(EnvDir); v != "" {
		c.Dir = v
	}
	if v := getenv(EnvLibrary); v != "" {
		c.Library = v
	}
	if v := getenv(EnvMaia1Dir); v != "" {
		c.Maia1Dir = v
	}
	if v := getenv(EnvMaia2); v != "" {
		c.Maia2Model = v
	}
	if v := getenv(EnvRuntime); v != "" {
		c.Runtime = v
	}
	if v := getenv(EnvSpin); v != "" {
		c.Spin = v == "1" || v == "true"
	}
	if v := getenv(EnvSessions); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("models: %s=%q is not a positive count", EnvSessions, v)
		}
		c.Sessions = n
	}
	if v := getenv(EnvThreads); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("models: %s=%q is not a positive thread count", EnvThreads, v)
		}
		c.Threads = n
	}
	return c, nil
}

// Resolve fills in defaults and validates the numbers.
func (c Config) Resolve() (Config, error) {
	if c.Dir == "" {
		d, err := DefaultDir(os.Getenv)
		if err != nil {
			return c, err
		}
		c.Dir = d
	}
	if c.Library == "" {
		c.Library = filepath.Join(c.Dir, LibraryFile)
	}
	if c.Maia1Dir == "" {
		c.Maia1Dir = filepath.Join(c.Dir, Maia1Subdir)
	}
	if c.Threads == 0 {
		c.Threads = 2
	}
	if c.Sessions == 0 {
		c.Sessions = 1
	}
	if c.Sessions < 1 || c.Sessions > 64 {
		return c, fmt.Errorf("models: sessions %d out of range 1..64", c.Sessions)
	}
	if c.MaxBatch == 0 {
		c.MaxBatch = DefaultMaxBatch
	}
	if c.MaxWait == 0 {
		c.MaxWait = DefaultMaxWait
	}
	if c.GraphOptimization == "" {
		c.GraphOptimization = "all"
	}
	if !slices.Contains(graphOptNames, c.GraphOptimization) {
		return c, fmt.Errorf("models: graph_optimization %q: want all, extended, basic or none", c.GraphOptimization)
	}
	if err := c.resolveRuntime(); err != nil {
		return c, err
	}
	if c.Threads < 1 || c.Threads > 256 {
		return c, fmt.Errorf("models: threads %d out of range 1..256", c.Threads)
	}
	if c.MaxBatch < 1 || c.MaxBatch > 4096 {
		return c, fmt.Errorf("models: max_batch %d out of range 1..4096", c.MaxBatch)
	}
	return c, nil
}

// graphOptNames are the values of Config.GraphOptimization.
var graphOptNames = []string{"all", "extended", "basic", "none"}

// resolveRuntime fills in and checks c.Runtime.
func (c *Config) resolveRuntime() error {
	if c.Runtime == "" {
		c.Runtime = DefaultRuntime
	}
	switch c.Runtime {
	case RuntimeGo:
		return nil
	case RuntimeONNX:
		if !HasONNXRuntime {
			return fmt.Errorf("models: runtime %q needs a cgo build of outpost (this one was built with CGO_ENABLED=0); use runtime %q (the pure-Go Maia-1) or build with CGO_ENABLED=1", RuntimeONNX, RuntimeGo)
		}
		return nil
	}
	return fmt.Errorf("models: runtime %q: want %q or %q", c.Runtime, RuntimeONNX, RuntimeGo)
}

// LoadConfig returns the default configuration with environment overrides
// applied and defaults resolved.
func LoadConfig() (Config, error) {
	c, err := Config{}.WithEnv(os.Getenv)
	if err != nil {
		return c, err
	}
	return c.Resolve()
}

// missing builds the error for a missing file, naming the install command.
func missing(what, path string) error {
	return fmt.Errorf("models: %s not found at %s (install it with `%s`)", what, path, FetchCommand)
}
