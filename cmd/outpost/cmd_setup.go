package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/sfbuild"
	"github.com/outpostchess/outpost/internal/installer"
	"github.com/outpostchess/outpost/internal/terminal"
	"github.com/outpostchess/outpost/models"
)

// Download timeouts of `outpost setup`: connecting and waiting for the
// answer's headers are bounded (an unreachable mirror fails within
// seconds and the next fallback runs); the body is not, because the
// largest file (Stockfish 18's npm package, 168 MB) takes minutes on a
// slow line, and a cut transfer resumes anyway.
const (
	setupDialTimeout   = 15 * time.Second
	setupHeaderTimeout = time.Minute
)

// runSetup implements `outpost setup`.
func runSetup(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "setup", "[--engines sf15,sf18] [--build] [--stockfish-src DIR] [--maia-source DIR] [--skip-engines] [--skip-library] [--skip-weights]")
	src := installer.DefaultSources(os.Getenv)
	engines := fs.String("engines", "sf15", "engines to install, comma-separated: sf15 (the default engine), sf16, sf17.1, sf18")
	build := fs.Bool("build", false, "build a native Stockfish 15.1 even when one is installed on PATH")
	force := fs.Bool("force", false, "rebuild native engines that are already built")
	srcDir := fs.String("stockfish-src", "", "folder holding Stockfish source archives (stockfish-15.1-src.tar.gz …) to use instead of downloading them")
	arch := fs.String("arch", "", "Makefile ARCH of native builds (default: chosen from /proc/cpuinfo): "+strings.Join(sfbuild.Arches(), ", "))
	jobs := fs.Int("jobs", 2, "parallel compile jobs of native builds (make -j)")
	def, _ := models.DefaultDir(os.Getenv)
	modelsDir := fs.String("models-dir", def, "models directory ($"+models.EnvDir+", default ~/.cache/outpost/models)")
	maiaSrc := fs.String("maia-source", os.Getenv(envMaiaSource), "folder with maia-*.pb.gz to copy instead of downloading ($"+envMaiaSource+")")
	skipEngines := fs.Bool("skip-engines", false, "do not install engines")
	skipLib := fs.Bool("skip-library", false, "do not install the ONNX Runtime library")
	skipW := fs.Bool("skip-weights", false, "do not install the Maia-1 weights")
	fs.StringVar(&src.Stockfish, "stockfish-url", src.Stockfish, "base URL of the Stockfish source archives ($"+installer.EnvStockfishURL+")")
	fs.StringVar(&src.Nets, "nets-url", src.Nets, "base URL of the NNUE networks ($"+installer.EnvNetsURL+")")
	fs.StringVar(&src.NPM, "npm-registry", src.NPM, "npm registry for onnxruntime-node and stockfish ($"+installer.EnvNPMRegistry+")")
	fs.StringVar(&src.Maia, "maia-url", src.Maia, "base URL of the Maia-1 weights ($"+installer.EnvMaiaURL+")")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if *jobs < 1 {
		return fmt.Errorf("--jobs %d: want at least 1", *jobs)
	}
	in, err := installer.New(installer.Options{
		Sources: src, Engines: splitList(*engines), Build: *build, Force: *force, StockfishSrc: *srcDir,
		Arch: *arch, Jobs: *jobs, ModelsDir: *modelsDir, MaiaSource: *maiaSrc,
		SkipEngines: *skipEngines, SkipLibrary: *skipLib, SkipWeights: *skipW,
		Client: setupClient(), Log: env.Stderr, Terminal: terminal.Is(env.Stderr),
	})
	if err != nil {
		return fmt.Errorf("outpost setup: %w (pass --models-dir)", err)
	}
	if err := in.Run(ctx); err != nil {
		return fmt.Errorf("outpost setup: %w", err)
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// setupClient is the HTTP client of the downloads (proxy from the
// environment, bounded connect and header waits).
func setupClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: setupDialTimeout}).DialContext,
		TLSHandshakeTimeout:   setupDialTimeout,
		ResponseHeaderTimeout: setupHeaderTimeout,
	}}
}
