package installer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/sfbuild"
)

// SourceDir is the cache subdirectory (of the engines directory) for
// downloaded source archives.
const SourceDir = "src"

// Engine installs one engine name: Stockfish 15.1 (the default engine) is
// satisfied by a Stockfish already on PATH unless Options.Build; otherwise
// the official source release is built natively (sfbuild, with the
// networks downloaded from the official server or recovered from npm);
// when 15.1 cannot be built it falls back to a Stockfish on PATH, else to
// Debian's package (root with apt only).
func (in *Installer) Engine(ctx context.Context, name string) error {
	recipe, ok := sfbuild.RecipeFor(name)
	if !ok {
		return fmt.Errorf("installer: %q has no native build (want one of %v)", name, enginepath.Names())
	}
	rel, ok := Releases[recipe.Engine]
	if !ok {
		return fmt.Errorf("installer: no official release pinned for %s", recipe.Engine)
	}
	label := fmt.Sprintf("Stockfish %s (%s)", recipe.Version, recipe.Engine)
	isDefault := recipe.Engine == enginepath.Stockfish15
	native, _ := in.opts.Locator.Native(recipe.Engine)
	if native != "" && !in.opts.Force && !in.haveSource(recipe) {
		in.logf("%s: already built: %s (no source at hand to compare the build with; --force rebuilds)", label, native)
		return nil
	}
	if isDefault && !in.opts.Build && native == "" {
		if p := in.opts.Locator.DebianStockfish(); p != "" {
			in.logf("%s: %s is installed; not building a native one (--build does)", label, p)
			return nil
		}
	}
	srcDir, err := in.source(ctx, recipe, rel)
	if err != nil {
		return in.fallback(ctx, label, isDefault, err)
	}
	in.nets(ctx, recipe, rel)
	b := sfbuild.Builder{Locator: in.opts.Locator, SourceDir: srcDir, Arch: in.opts.Arch, Jobs: in.opts.Jobs,
		Force: in.opts.Force, Log: prefixed{in.opts.Log}}
	expected, basis := expectedBuild(in.opts.Locator, recipe.Engine)
	if expected > 0 && native == "" { // an installed build is compared first: usually not rebuilt
		in.logf("%s: building; expected to take about %v (%s)", label, expected.Round(time.Second), basis)
	}
	p := in.meters.build("building "+label, expected, basis)
	res, err := in.opts.Builder(ctx, b, recipe)
	p.finish()
	if err != nil {
		return in.fallback(ctx, label, isDefault, err)
	}
	verb := "built"
	if res.Skipped {
		verb = "already built (identical build), not rebuilt"
	}
	in.logf("%s: %s: %s (ARCH %s, bench %d nodes)", label, verb, res.Binary, res.Info.Arch, res.Info.BenchNodes)
	return nil
}

// localSource says whether Options.StockfishSrc holds the recipe's pinned
// archive (then sfbuild compares the installed build with it).
func (in *Installer) localSource(r sfbuild.Recipe) bool {
	if in.opts.StockfishSrc == "" {
		return false
	}
	sum, err := FileSHA256(filepath.Join(in.opts.StockfishSrc, r.Archive))
	return err == nil && sum == r.ArchiveSHA256
}

// haveSource says whether the recipe's pinned archive is at hand, locally
// or in the download cache: then sfbuild can compare the installed build
// with it at no cost.
func (in *Installer) haveSource(r sfbuild.Recipe) bool {
	if in.localSource(r) {
		return true
	}
	root, err := in.opts.Locator.Dir()
	if err != nil {
		return false
	}
	sum, err := FileSHA256(filepath.Join(root, SourceDir, r.Archive))
	return err == nil && sum == r.ArchiveSHA256
}

// source returns the folder holding the recipe's source archive: the
// local one when it has the pinned archive, else the download cache
// (downloading it there).
func (in *Installer) source(ctx context.Context, r sfbuild.Recipe, rel StockfishRelease) (string, error) {
	if in.opts.StockfishSrc != "" {
		p := filepath.Join(in.opts.StockfishSrc, r.Archive)
		if in.localSource(r) {
			in.logf("Stockfish %s: source %s (local copy, SHA-256 checked), not downloaded", r.Version, p)
			return in.opts.StockfishSrc, nil
		}
		in.logf("Stockfish %s: %s is missing or not the pinned archive: downloading", r.Version, p)
	}
	root, err := in.opts.Locator.Dir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, SourceDir)
	d := Download{URL: in.opts.Sources.SourceURL(rel), Dst: filepath.Join(dir, r.Archive), SHA256: r.ArchiveSHA256}
	if err := in.fetch.Fetch(ctx, d); err != nil {
		return "", fmt.Errorf("%w (the pinned SHA-256 is of `git archive --prefix=%s %s` of the official repository; "+
			"GitHub's generated archive of the tag may differ byte for byte: put that git archive into a folder and pass "+
			"--stockfish-src, or point --stockfish-url / $%s at a mirror of it)", err, r.Prefix, rel.Tag, EnvStockfishURL)
	}
	return dir, nil
}

// nets puts the recipe's networks into the engines' network cache from the
// official server; for those it cannot get, it downloads the npm package
// sfbuild recovers them from. Failures are reported, not returned:
// sfbuild then tries its own fallbacks (npm pack, export_net) and says
// what is missing.
func (in *Installer) nets(ctx context.Context, r sfbuild.Recipe, rel StockfishRelease) {
	root, err := in.opts.Locator.Dir()
	if err != nil {
		in.logf("Stockfish %s: networks: %v", r.Version, err)
		return
	}
	missing := 0
	for _, n := range r.Nets {
		d := Download{URL: in.opts.Sources.NetURL(n.Name), Dst: filepath.Join(root, sfbuild.NetsDir, n.Name), SHA256: n.SHA256, Size: int64(n.Size)}
		if err := in.fetch.Fetch(ctx, d); err != nil {
			missing++
			in.logf("Stockfish %s: network %s not downloaded from the official server: %v", r.Version, n.Name, err)
		}
	}
	if missing == 0 {
		return
	}
	if rel.NPM == nil {
		in.logf("Stockfish %s: its network is exported from an installed Stockfish 15.1 instead (export_net)", r.Version)
		return
	}
	in.logf("Stockfish %s: recovering %d network(s) from the npm package %s@%s instead", r.Version, missing, rel.NPM.Name, rel.NPM.Version)
	d := Download{URL: rel.NPM.URL(in.opts.Sources.NPM), Dst: filepath.Join(root, sfbuild.NPMDir, rel.NPM.File()),
		SHA256: rel.NPM.SHA256, Size: rel.NPM.Size}
	if err := in.fetch.Fetch(ctx, d); err != nil {
		in.logf("Stockfish %s: %v", r.Version, err)
	}
}

// fallback is what happens when a native build is impossible: for the
// default engine, a Stockfish on PATH, else Debian's package; otherwise
// the error.
func (in *Installer) fallback(ctx context.Context, label string, isDefault bool, cause error) error {
	if !isDefault || ctx.Err() != nil {
		return fmt.Errorf("%s not built: %w", label, cause)
	}
	in.logf("%s: not built: %v", label, cause)
	if p := in.opts.Locator.DebianStockfish(); p != "" {
		in.logf("%s: the default engine falls back to %s", label, p)
		return nil
	}
	in.logf("%s: no stockfish on PATH: trying Debian's package stockfish (apt-get, as root)", label)
	if err := in.apt(ctx, "stockfish"); errors.Is(err, ErrNoApt) {
		return fmt.Errorf("%s: no native build, no stockfish on PATH, and %w: "+
			"install Stockfish with your system's package manager or put its binary on PATH (native build: %w)", label, err, cause)
	} else if err != nil {
		return errors.Join(cause, err)
	}
	if p := in.opts.Locator.DebianStockfish(); p != "" {
		in.logf("%s: the default engine is %s", label, p)
		return nil
	}
	return fmt.Errorf("%s: apt-get installed stockfish but it is not at %s nor on PATH", label, enginepath.DebianStockfish)
}
