package sfbuild

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxSourceFile bounds one file of a source archive.
const maxSourceFile = 64 << 20

// extract unpacks the regular files and directories of a .tar.gz into dir.
// Names that would leave dir (absolute, "..") are refused; other entry
// kinds (links, pax headers) are skipped.
func extract(archive, dir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("sfbuild: %s: %w", archive, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("sfbuild: %s: %w", archive, err)
		}
		name := filepath.Clean(h.Name)
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("sfbuild: %s: entry %q leaves the directory", archive, h.Name)
		}
		target := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(target, 0o755)
		case tar.TypeReg:
			err = writeEntry(tr, target, h)
		}
		if err != nil {
			return fmt.Errorf("sfbuild: %s: %s: %w", archive, h.Name, err)
		}
	}
}

func writeEntry(r io.Reader, target string, h *tar.Header) error {
	if h.Size > maxSourceFile {
		return fmt.Errorf("%d bytes, more than %d", h.Size, maxSourceFile)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(r, h.Size)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyFile copies src to dst (mode perm), through a temporary file renamed
// into place.
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("sfbuild: copying %s: %w", src, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("sfbuild: copying %s: %w", src, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("sfbuild: %w", err)
	}
	return nil
}
