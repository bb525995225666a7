package wasmnet

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// MaxModule bounds the size of a module read from an archive and of the
// memory rebuilt from it (Stockfish 18's single-threaded build: a 113 MB
// module, 112 MB of memory).
const MaxModule = 1 << 30

// FromTarGz reads member (e.g. "package/bin/stockfish-18-single.wasm")
// from a gzip-compressed tar archive such as an npm package and recovers
// nets from it (see Recover).
func FromTarGz(r io.Reader, member string, nets []Net) ([]Found, error) {
	wasm, err := readMember(r, member)
	if err != nil {
		return nil, err
	}
	segs, err := DataSegments(wasm)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s: %w", member, err)
	}
	mem, err := Memory(segs, MaxModule)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s: %w", member, err)
	}
	found, err := Recover(mem, nets)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s: %w", member, err)
	}
	return found, nil
}

// readMember returns the contents of one regular file of a .tar.gz.
func readMember(r io.Reader, member string) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: reading the archive: %w", err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("wasmnet: %s is not in the archive", member)
		}
		if err != nil {
			return nil, fmt.Errorf("wasmnet: reading the archive: %w", err)
		}
		if h.Name != member || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > MaxModule {
			return nil, fmt.Errorf("wasmnet: %s: %d bytes, more than %d", member, h.Size, MaxModule)
		}
		b := make([]byte, h.Size)
		if _, err := io.ReadFull(tr, b); err != nil {
			return nil, fmt.Errorf("wasmnet: reading %s: %w", member, err)
		}
		return b, nil
	}
}
