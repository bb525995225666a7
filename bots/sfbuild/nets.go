package sfbuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/outpostchess/outpost/bots/wasmnet"
)

// Subdirectories of the engines directory.
const (
	// NetsDir caches the networks, checked by SHA-256.
	NetsDir = "nets"
	// NPMDir caches npm packages the networks come from.
	NPMDir = "npm"
)

// ExportNet writes the network embedded in a Stockfish binary to dst with
// Stockfish's export_net command and checks its SHA-256.
func ExportNet(ctx context.Context, binary string, net wasmnet.Net, dst string) error {
	tmp := dst + ".tmp"
	cmd := exec.CommandContext(ctx, binary)
	cmd.Stdin = strings.NewReader("export_net " + tmp + "\nquit\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sfbuild: %s export_net: %w: %s", binary, err, tail(string(out), 3))
	}
	if err := checkSHA256(tmp, net.SHA256); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("sfbuild: the network %s exports is not %s: %w", binary, net.Name, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	return nil
}

// NetsFromNPM recovers nets from Stockfish 18's npm package into dstDir:
// the package is npmDir/stockfish-18.0.8.tgz, fetched with `npm pack` when
// it is not there yet (and kept as a cache).
func NetsFromNPM(ctx context.Context, npmDir, dstDir string, nets []wasmnet.Net) error {
	tgz := filepath.Join(npmDir, NPMTarball)
	if _, err := os.Stat(tgz); err != nil {
		if err := os.MkdirAll(npmDir, 0o755); err != nil {
			return fmt.Errorf("sfbuild: %w", err)
		}
		cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", NPMPackage)
		cmd.Dir = npmDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("sfbuild: npm pack %s in %s: %w: %s", NPMPackage, npmDir, err, tail(string(out), 3))
		}
	}
	f, err := os.Open(tgz)
	if err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	defer f.Close()
	found, err := wasmnet.FromTarGz(f, NPMMember, nets)
	if err != nil {
		return fmt.Errorf("sfbuild: %s: %w", tgz, err)
	}
	for _, n := range found {
		dst := filepath.Join(dstDir, n.Name)
		if err := os.WriteFile(dst+".tmp", n.Data, 0o644); err != nil {
			return fmt.Errorf("sfbuild: %w", err)
		}
		if err := os.Rename(dst+".tmp", dst); err != nil {
			return fmt.Errorf("sfbuild: %w", err)
		}
	}
	return nil
}

// prepareNets returns the path of each of the recipe's networks in the
// cache, making the missing ones: Stockfish 15.1's exported from Debian's
// binary, Stockfish 18's recovered from npm.
func (b Builder) prepareNets(ctx context.Context, r Recipe) (map[string]string, error) {
	root, err := b.Locator.Dir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, NetsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sfbuild: %w", err)
	}
	paths := map[string]string{}
	var missing []wasmnet.Net
	for _, n := range r.Nets {
		p := filepath.Join(dir, n.Name)
		paths[n.Name] = p
		if checkSHA256(p, n.SHA256) != nil {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return paths, nil
	}
	if r.Engine == Stockfish18().Engine {
		b.logf("recovering %d network(s) from npm %s (our wasmnet package, SHA-256 checked)", len(missing), NPMPackage)
		return paths, NetsFromNPM(ctx, filepath.Join(root, NPMDir), dir, missing)
	}
	deb := b.Locator.DebianStockfish()
	if deb == "" {
		return nil, fmt.Errorf("sfbuild: the network %s is exported from Debian's Stockfish, which is not installed (apt-get install stockfish)", missing[0].Name)
	}
	for _, n := range missing {
		b.logf("exporting %s from %s", n.Name, deb)
		if err := ExportNet(ctx, deb, n, paths[n.Name]); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
