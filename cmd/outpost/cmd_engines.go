package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
)

// defaultStockfishSource is where the source archives sit when running from
// a checkout next to the shared folder (setup time only: the engines run
// without it).
const defaultStockfishSource = "../shared/stockfish"

const enginesUsage = `usage: outpost engines install sf15|sf16|sf17.1|sf18 [--src DIR] [--arch ARCH] [--jobs N] [--force]
       outpost engines list`

// runEngines implements `outpost engines`.
func runEngines(ctx context.Context, env *Env, args []string) error {
	return runSubcommand(env, "engines", enginesUsage, args, map[string]func([]string) error{
		"install": func(args []string) error { return runEnginesInstall(ctx, env, args) },
		"list":    func([]string) error { return runEnginesList(env) },
	})
}

// runEnginesInstall builds one native Stockfish. Stockfish 15.1 falls back
// to Debian's binary (saying so, exit 0) when it cannot be built.
func runEnginesInstall(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "engines install", "sf15|sf16|sf17.1|sf18 [--src DIR] [--arch ARCH] [--jobs N] [--force]")
	src := fs.String("src", defaultStockfishSource, "directory of the source archives (stockfish-VERSION-src.tar.gz)")
	arch := fs.String("arch", "", "Makefile ARCH (default: chosen from /proc/cpuinfo): "+strings.Join(sfbuild.Arches(), ", "))
	jobs := fs.Int("jobs", 2, "parallel compile jobs (make -j)")
	force := fs.Bool("force", false, "rebuild even when an identical build is installed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(env.Stderr, "outpost engines install: name one engine: "+strings.Join(enginepath.NativeNames(), ", "))
		fs.Usage()
		return errUsage
	}
	recipe, ok := sfbuild.RecipeFor(fs.Arg(0))
	if !ok {
		return fmt.Errorf("outpost engines install: %q has no native build (want one of %s)", fs.Arg(0), strings.Join(enginepath.NativeNames(), ", "))
	}
	if *jobs < 1 {
		return fmt.Errorf("--jobs %d: want at least 1", *jobs)
	}
	b := sfbuild.Builder{SourceDir: *src, Arch: *arch, Jobs: *jobs, Force: *force, Log: prefixWriter{env, "outpost engines: "}}
	res, err := b.Build(ctx, recipe)
	if err != nil {
		if recipe.Engine != enginepath.Stockfish15 || ctx.Err() != nil {
			return fmt.Errorf("outpost engines install %s: %w", recipe.Engine, err)
		}
		deb := b.Locator.DebianStockfish()
		if deb == "" {
			return fmt.Errorf("outpost engines install sf15: %w (and Debian's Stockfish is not installed either)", err)
		}
		fmt.Fprintf(env.Stderr, "outpost engines: Stockfish 15.1 not built: %v\noutpost engines: sf15 falls back to Debian's binary %s\n", err, deb)
		return nil
	}
	verb := "built"
	if res.Skipped {
		verb = "already built (identical build)"
	}
	fmt.Fprintf(env.Stderr, "outpost engines: Stockfish %s %s: %s (ARCH %s, bench %d nodes)\n",
		recipe.Version, verb, res.Binary, res.Info.Arch, res.Info.BenchNodes)
	return nil
}

// runEnginesList prints what each engine name resolves to here.
func runEnginesList(env *Env) error {
	var l enginepath.Locator
	for _, name := range enginepath.Names() {
		r, err := l.Resolve([]string{name})
		if err != nil {
			fmt.Fprintf(env.Stdout, "%-6s not installed: %v\n", name, err)
			continue
		}
		line := fmt.Sprintf("%-6s %s: %s", name, r.Label, strings.Join(r.Command, " "))
		if r.Native {
			if dir, err := l.NativeDir(r.Name); err == nil {
				if info, err := sfbuild.ReadInfo(dir); err == nil {
					line += fmt.Sprintf(" (ARCH %s, %s, built %s in %.0f s)", info.Arch, info.Compiler, info.Built.Format("2006-01-02"), info.BuildSeconds)
				}
			}
		}
		if r.Notice != "" {
			line += " [" + r.Notice + "]"
		}
		fmt.Fprintln(env.Stdout, line)
	}
	return nil
}

// prefixWriter writes each progress line to stderr.
type prefixWriter struct {
	env    *Env
	prefix string
}

func (w prefixWriter) Write(p []byte) (int, error) {
	if _, err := fmt.Fprint(w.env.Stderr, w.prefix+string(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
