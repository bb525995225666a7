package installer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/outpostchess/outpost/models"
)

// ORTBuild is ONNX Runtime's shared library for one OS/architecture inside
// the npm package onnxruntime-node.
type ORTBuild struct {
	// Member is its path in the tarball; File the name it is installed
	// under in the models directory.
	Member, File string
	// SHA256 of the library, pinned (computed from the tarball pinned in
	// ONNXRuntimeNode).
	SHA256 string
}

// ORTBuilds maps GOOS/GOARCH to the library in onnxruntime-node@1.24.1.
// The package has no darwin/x64 build: Maia on an Intel Mac runs without
// ONNX Runtime (see docs/install.md).
var ORTBuilds = map[string]ORTBuild{
	"linux/amd64": {Member: "package/bin/napi-v6/linux/x64/libonnxruntime.so.1", File: "libonnxruntime.so.1",
		SHA256: "53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4"},
	"linux/arm64": {Member: "package/bin/napi-v6/linux/arm64/libonnxruntime.so.1", File: "libonnxruntime.so.1",
		SHA256: "7954e8bdedb497f830c6a679e818d98399b7f4d81ade1126c3e0be74d28111ab"},
	"darwin/arm64": {Member: "package/bin/napi-v6/darwin/arm64/libonnxruntime.1.24.1.dylib", File: "libonnxruntime.1.24.1.dylib",
		SHA256: "7ad6507ad64d3b02aebfae6380c024ff188939cd8a7a493ec18028e034c8275c"},
	"windows/amd64": {Member: "package/bin/napi-v6/win32/x64/onnxruntime.dll", File: "onnxruntime.dll",
		SHA256: "be46630a10f6ed3897fd9d1ec83f6e2577e34851fb1024d685884ed40faed3a7"},
	"windows/arm64": {Member: "package/bin/napi-v6/win32/arm64/onnxruntime.dll", File: "onnxruntime.dll",
		SHA256: "5588ade6e81e7cb46ec45546ac36a61449b7135d177ca22ca808eee6910e5e3a"},
}

// NPMCacheDir is the models directory's subdirectory for the npm tarball
// while it is downloaded (removed once the library is out).
const NPMCacheDir = "npm"

// maxLibrary bounds the extracted library (the largest, darwin/arm64's,
// is 36 MB).
const maxLibrary = 256 << 20

// ONNXRuntime installs the ONNX Runtime library of Options.GOOS/GOARCH
// into the models directory from the pinned npm tarball.
func (in *Installer) ONNXRuntime(ctx context.Context) error {
	key := in.opts.GOOS + "/" + in.opts.GOARCH
	b, ok := ORTBuilds[key]
	if !ok {
		in.logf("ONNX Runtime: %s@%s has no build for %s: skipped (Maia needs ONNX Runtime in a cgo build; see docs/install.md)",
			ONNXRuntimeNode.Name, ONNXRuntimeNode.Version, key)
		return nil
	}
	dst := filepath.Join(in.opts.ModelsDir, b.File)
	if sum, err := FileSHA256(dst); err == nil && sum == b.SHA256 {
		in.logf("ONNX Runtime: %s is already installed (SHA-256 checked)", dst)
		return nil
	}
	in.logf("ONNX Runtime %s for %s: from the npm package %s@%s", ONNXRuntimeNode.Version, key, ONNXRuntimeNode.Name, ONNXRuntimeNode.Version)
	tgz := filepath.Join(in.opts.ModelsDir, NPMCacheDir, ONNXRuntimeNode.File())
	d := Download{URL: ONNXRuntimeNode.URL(in.opts.Sources.NPM), Dst: tgz, SHA256: ONNXRuntimeNode.SHA256, Size: ONNXRuntimeNode.Size}
	if err := in.fetch.Fetch(ctx, d); err != nil {
		return fmt.Errorf("ONNX Runtime: %w", err)
	}
	if err := extractMember(tgz, b.Member, dst, b.SHA256); err != nil {
		return fmt.Errorf("ONNX Runtime: %w", err)
	}
	if err := os.Remove(tgz); err != nil {
		return fmt.Errorf("ONNX Runtime: %w", err)
	}
	_ = os.Remove(filepath.Dir(tgz)) // only when empty
	in.logf("ONNX Runtime: installed %s (SHA-256 checked; the tarball was removed)", dst)
	if b.File != models.LibraryFile {
		in.logf("ONNX Runtime: on %s set [models] library = %q in the config (or $%s)", key, dst, models.EnvLibrary)
	}
	return nil
}

// extractMember writes one regular file of a .tar.gz to dst (mode 0755)
// through a temporary file, checking its SHA-256.
func extractMember(tgz, member, dst, sha string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tgz, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: no %s", tgz, member)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tgz, err)
		}
		if h.Name != member || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size <= 0 || h.Size > maxLibrary {
			return fmt.Errorf("%s: %s has implausible size %d", tgz, member, h.Size)
		}
		return writeChecked(io.LimitReader(tr, h.Size), dst, sha, 0o755)
	}
}

// writeChecked writes r to dst through dst+".tmp", renaming it into place
// only when its SHA-256 is sha.
func writeChecked(r io.Reader, dst, sha string, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, r)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		var sum string
		if sum, err = FileSHA256(tmp); err == nil && sum != sha {
			err = fmt.Errorf("%s: SHA-256 %s, want the pinned %s", filepath.Base(dst), sum, sha)
		}
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
