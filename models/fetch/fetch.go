// Package fetch installs what the models package needs at run time: the ONNX
// Runtime shared library, taken from the npm package onnxruntime-node (the
// only download used for it), and the Maia-1 weights, copied from a local
// folder or downloaded from the official maia-chess release.
package fetch

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The ONNX Runtime build matching github.com/yalue/onnxruntime_go v1.27.0.
const (
	NPMPackage  = "onnxruntime-node@1.24.1"
	LibraryPath = "package/bin/napi-v6/linux/x64/libonnxruntime.so.1"
	LibraryName = "libonnxruntime.so.1"
	// maxLibrary bounds the extracted library size.
	maxLibrary = 256 << 20
	// maxWeights bounds a downloaded weights file.
	maxWeights = 64 << 20
)

// WeightsURL is the official download of a Maia-1 weights file (maia-chess
// release v1.0 assets); %d is the rating level.
const WeightsURL = "https://github.com/CSSLab/maia-chess/releases/download/v1.0/maia-%d.pb.gz"

// Weights lists the SHA-256 of the official Maia-1 weight files.
var Weights = map[int]string{
	1100: "e1cf1cd0c96b8a4fa6a275f4b9fd54ed1ffebf9fe44641b9fceded310e9619c4",
	1200: "ead4ba953f233ae732999ebc1e2b675378148527ebcfad2f0acbc5e4c224d98e",
	1300: "36195f87bf4761834baa0bf87472b18509a7261a9d7d6f1a8443261369a733f2",
	1400: "d5353ea6766356dad2d28920c6692f37a5f30963767f1a3105d33b4d0af011e8",
	1500: "35ab6f20421d59e1df3b17c5a5016947af4c6761368ef84044a9a9c7619a9a00",
	1600: "d2c9e5948581acf4b9fc0b1e720c5dc0fe64ce80cfc4a239d3f8a42e1176c876",
	1700: "d277eacd792d340a30abb464dc65127254e65cac57abca17facc469889b96478",
	1800: "0031ad7c4256b1fd09fbebd28418d644d68b26cd2a45df4967ccf5c7ec9c4965",
	1900: "e2f565f42d7cd9f122557e6dc4eb84e5bbaedceda1d404dc485d3611c7c97a12",
}

// NPMPack runs `npm pack <NPMPackage>` in a new temporary directory and
// returns the tarball's path and a cleanup function.
func NPMPack(ctx context.Context) (string, func(), error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", nil, fmt.Errorf("fetch: the ONNX Runtime library is only packaged for linux/amd64 here (this is %s/%s); set the library path to your own libonnxruntime", runtime.GOOS, runtime.GOARCH)
	}
	tmp, err := os.MkdirTemp("", "outpost-ort-*")
	if err != nil {
		return "", nil, fmt.Errorf("fetch: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", NPMPackage)
	cmd.Dir = tmp
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("fetch: npm pack %s (is npm installed and the npm registry reachable?): %w: %s", NPMPackage, err, strings.TrimSpace(stderr.String()))
	}
	name := strings.TrimSpace(string(out))
	if i := strings.LastIndex(name, "\n"); i >= 0 {
		name = name[i+1:]
	}
	path := filepath.Join(tmp, filepath.Base(name))
	if _, err := os.Stat(path); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("fetch: npm pack did not produce %q: %w", name, err)
	}
	return path, cleanup, nil
}

// ExtractLibrary copies LibraryPath out of the npm tarball r (a .tgz) to
// dst, atomically, with mode 0755.
func ExtractLibrary(r io.Reader, dst string) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("fetch: npm tarball is not gzip: %w", err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("fetch: %s not found in the npm tarball", LibraryPath)
		}
		if err != nil {
			return fmt.Errorf("fetch: read npm tarball: %w", err)
		}
		if h.Name != LibraryPath || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size <= 0 || h.Size > maxLibrary {
			return fmt.Errorf("fetch: %s has implausible size %d", LibraryPath, h.Size)
		}
		return writeFile(dst, io.LimitReader(tr, h.Size), 0o755, "")
	}
}

// InstallLibrary downloads the npm package and installs the library into dir.
func InstallLibrary(ctx context.Context, dir string) (string, error) {
	tgz, cleanup, err := NPMPack(ctx)
	if err != nil {
		return "", err
	}
	defer cleanup()
	f, err := os.Open(tgz)
	if err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	defer f.Close()
	dst := filepath.Join(dir, LibraryName)
	if err := ExtractLibrary(f, dst); err != nil {
		return "", err
	}
	return dst, nil
}

// WeightsOptions says where InstallWeights finds the Maia-1 weights.
type WeightsOptions struct {
	// Source is a folder holding maia-<level>.pb.gz to copy; files missing
	// there are downloaded.
	Source string
	// URL is the download URL pattern with %d for the level; empty means
	// WeightsURL.
	URL string
	// Client downloads; nil means http.DefaultClient.
	Client *http.Client
}

// InstallWeights places maia-<level>.pb.gz for every level into dir: copied
// from opts.Source when that folder has the file, else downloaded. Each
// file's SHA-256 is checked against Weights. Files already in dir with the
// right hash are kept.
func InstallWeights(ctx context.Context, dir string, levels []int, opts WeightsOptions) error {
	source, client, url := opts.Source, opts.Client, opts.URL
	if client == nil {
		client = http.DefaultClient
	}
	if url == "" {
		url = WeightsURL
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	for _, lvl := range levels {
		want, ok := Weights[lvl]
		if !ok {
			return fmt.Errorf("fetch: no Maia-1 model for level %d", lvl)
		}
		name := fmt.Sprintf("maia-%d.pb.gz", lvl)
		dst := filepath.Join(dir, name)
		if h, err := fileHash(dst); err == nil && h == want {
			continue
		}
		if source != "" {
			if f, err := os.Open(filepath.Join(source, name)); err == nil {
				err = writeFile(dst, f, 0o644, want)
				f.Close()
				if err != nil {
					return err
				}
				continue
			}
		}
		if err := download(ctx, client, fmt.Sprintf(url, lvl), dst, want); err != nil {
			return err
		}
	}
	return nil
}

func download(ctx context.Context, client *http.Client, url, dst, sha string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("fetch: download %s failed (no network? copy the maia-*.pb.gz files into a folder and pass it with --source or OUTPOST_MAIA_SOURCE): %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch: download %s: HTTP %s", url, resp.Status)
	}
	return writeFile(dst, io.LimitReader(resp.Body, maxWeights), 0o644, sha)
}

// writeFile writes r to dst through a temporary file; when sha is set the
// content must have that SHA-256.
func writeFile(dst string, r io.Reader, mode os.FileMode, sha string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".fetch-*")
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), r); err != nil {
		tmp.Close()
		return fmt.Errorf("fetch: write %s: %w", dst, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("fetch: write %s: %w", dst, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); sha != "" && got != sha {
		return fmt.Errorf("fetch: %s: SHA-256 %s, want %s", filepath.Base(dst), got, sha)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("fetch: install %s: %w", dst, err)
	}
	return nil
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
