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

// FromTarGzParts is FromTarGz for a module split into several files
// (Stockfish 17.1's npm build: stockfish-17.1-single-a496a04-part-0.wasm …
// part-5.wasm): the members, concatenated in the order given, are the
// module.
func FromTarGzParts(r io.Reader, parts []string, nets []Net) ([]Found, error) {
	files, err := Members(r, parts)
	if err != nil {
		return nil, err
	}
	var wasm []byte
	for _, p := range parts {
		wasm = append(wasm, files[p]...)
	}
	if len(wasm) > MaxModule {
		return nil, fmt.Errorf("wasmnet: the parts make %d bytes, more than %d", len(wasm), MaxModule)
	}
	segs, err := DataSegments(wasm)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s…: %w", parts[0], err)
	}
	mem, err := Memory(segs, MaxModule)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s…: %w", parts[0], err)
	}
	found, err := Recover(mem, nets)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: %s…: %w", parts[0], err)
	}
	return found, nil
}

// readMember returns the contents of one regular file of a .tar.gz.
func readMember(r io.Reader, member string) ([]byte, error) {
	files, err := Members(r, []string{member})
	if err != nil {
		return nil, err
	}
	return files[member], nil
}

// Members returns the contents of the named regular files of a .tar.gz
// (each at most MaxModule bytes), or an error naming the first missing one.
func Members(r io.Reader, names []string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("wasmnet: reading the archive: %w", err)
	}
	defer zr.Close()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]byte{}
	tr := tar.NewReader(zr)
	for len(out) < len(want) {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("wasmnet: reading the archive: %w", err)
		}
		if !want[h.Name] || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > MaxModule {
			return nil, fmt.Errorf("wasmnet: %s: %d bytes, more than %d", h.Name, h.Size, MaxModule)
		}
		b := make([]byte, h.Size)
		if _, err := io.ReadFull(tr, b); err != nil {
			return nil, fmt.Errorf("wasmnet: reading %s: %w", h.Name, err)
		}
		out[h.Name] = b
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("wasmnet: %s is not in the archive", n)
		}
	}
	return out, nil
}
