package wasmnet

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// NetVersion is the first field of a Stockfish NNUE file (uint32 little
// endian).
const NetVersion = 0x7AF32F20

// maxDescription bounds a plausible header's description length.
const maxDescription = 1 << 16

// Net is a network file to recover.
type Net struct {
	// Name is the file name, "nn-" and the first 12 hex digits of its
	// SHA-256, then ".nnue".
	Name string
	// Size is the file's length in bytes.
	Size int
	// SHA256 is the whole file's SHA-256, in hex.
	SHA256 string
}

// prefix is the 12 hex digits of the name.
func (n Net) prefix() (string, error) {
	p, ok := strings.CutPrefix(n.Name, "nn-")
	if ok {
		p, ok = strings.CutSuffix(p, ".nnue")
	}
	if !ok || len(p) != 12 {
		return "", fmt.Errorf("wasmnet: net name %q is not nn-<12 hex digits>.nnue", n.Name)
	}
	if _, err := hex.DecodeString(p); err != nil {
		return "", fmt.Errorf("wasmnet: net name %q is not nn-<12 hex digits>.nnue", n.Name)
	}
	return strings.ToLower(p), nil
}

// Header is a network header found in memory.
type Header struct {
	Offset      int
	Hash        uint32
	Description string
}

// Headers returns the plausible network headers in mem, in order: the
// version, a hash, and a description of at most 64 KiB that starts with a
// printable character.
func Headers(mem []byte) []Header {
	var out []Header
	var version [4]byte
	binary.LittleEndian.PutUint32(version[:], NetVersion)
	for from := 0; ; {
		i := bytes.Index(mem[from:], version[:])
		if i < 0 {
			return out
		}
		off := from + i
		from = off + 1
		if off+12 > len(mem) {
			continue
		}
		n := int(binary.LittleEndian.Uint32(mem[off+8:]))
		if n == 0 || n > maxDescription || off+12+n > len(mem) {
			continue
		}
		desc := mem[off+12 : off+12+n]
		if desc[0] < 0x20 || desc[0] > 0x7e {
			continue
		}
		out = append(out, Header{Offset: off, Hash: binary.LittleEndian.Uint32(mem[off+4:]), Description: string(desc)})
	}
}

// Found is a recovered network.
type Found struct {
	Net
	// Offset is where it starts in memory.
	Offset int
	// Data is the file's contents (a slice of the memory).
	Data []byte
}

// ErrNotFound is wrapped when a wanted network is not in memory.
var ErrNotFound = errors.New("wasmnet: network not found")

// Recover finds each wanted network in mem: at a header where the SHA-256
// of Size bytes starts with the name's 12 hex digits; the whole SHA-256
// must then equal SHA256. The result is in the order of nets.
func Recover(mem []byte, nets []Net) ([]Found, error) {
	headers := Headers(mem)
	out := make([]Found, 0, len(nets))
	for _, n := range nets {
		f, err := recoverOne(mem, headers, n)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func recoverOne(mem []byte, headers []Header, n Net) (Found, error) {
	prefix, err := n.prefix()
	if err != nil {
		return Found{}, err
	}
	if n.Size <= 0 {
		return Found{}, fmt.Errorf("wasmnet: net %s: size %d, want the file's length", n.Name, n.Size)
	}
	for _, h := range headers {
		if h.Offset+n.Size > len(mem) {
			continue
		}
		data := mem[h.Offset : h.Offset+n.Size]
		sum := sha256.Sum256(data)
		got := hex.EncodeToString(sum[:])
		if !strings.HasPrefix(got, prefix) {
			continue
		}
		if !strings.EqualFold(got, n.SHA256) {
			return Found{}, fmt.Errorf("wasmnet: net %s at memory offset %d: SHA-256 %s, want %s", n.Name, h.Offset, got, n.SHA256)
		}
		return Found{Net: n, Offset: h.Offset, Data: data}, nil
	}
	return Found{}, fmt.Errorf("%w: %s (%d bytes) at none of %d headers", ErrNotFound, n.Name, n.Size, len(headers))
}
