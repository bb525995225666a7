package wasmnet

import (
	"bytes"
	"errors"
	"fmt"
)

// Section ids of the WebAssembly binary format used here.
const (
	sectionData = 11
)

// Opcodes of constant offset expressions.
const (
	opI32Const = 0x41
	opI64Const = 0x42
	opEnd      = 0x0b
)

// magic is the module preamble: "\0asm" and binary format version 1.
var magic = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

// ErrFormat is wrapped by every error about a malformed module.
var ErrFormat = errors.New("wasmnet: malformed WebAssembly module")

// Segment is one data segment of a module.
type Segment struct {
	// Passive segments are copied by the program at run time, not at
	// instantiation; Offset and Memory are then zero.
	Passive bool
	// Memory is the index of the memory an active segment initialises.
	Memory uint32
	// Offset is where an active segment's bytes go in its memory.
	Offset uint64
	// Data are the bytes (a slice of the module's bytes).
	Data []byte
}

// reader reads a module's bytes, recording where it failed.
type reader struct {
	b   []byte
	off int
}

func (r *reader) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", ErrFormat, what, r.off)
}

func (r *reader) byte(what string) (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.fail(what + ": unexpected end")
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// uleb reads an unsigned LEB128 integer of at most bits bits.
func (r *reader) uleb(bits uint, what string) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= bits {
			return 0, r.fail(what + ": integer too long")
		}
		c, err := r.byte(what)
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if bits < 64 && v>>bits != 0 {
				return 0, r.fail(what + ": integer out of range")
			}
			return v, nil
		}
	}
}

// sleb reads a signed LEB128 integer of at most bits bits.
func (r *reader) sleb(bits uint, what string) (int64, error) {
	var v int64
	var shift uint
	maxShift := 7 * ((bits + 6) / 7) // ceil(bits/7) bytes at most
	for {
		if shift >= maxShift {
			return 0, r.fail(what + ": integer too long")
		}
		c, err := r.byte(what)
		if err != nil {
			return 0, err
		}
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, nil
		}
	}
}

// bytes reads n bytes.
func (r *reader) bytes(n uint64, what string) ([]byte, error) {
	if n > uint64(len(r.b)-r.off) {
		return nil, r.fail(fmt.Sprintf("%s: %d bytes past the end", what, n-uint64(len(r.b)-r.off)))
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

// DataSegments parses a WebAssembly module and returns its data segments
// in order. The segments' bytes are slices of wasm.
func DataSegments(wasm []byte) ([]Segment, error) {
	if len(wasm) < len(magic) || !bytes.Equal(wasm[:len(magic)], magic) {
		return nil, fmt.Errorf("%w: no WebAssembly version 1 preamble (\\0asm 1)", ErrFormat)
	}
	r := &reader{b: wasm, off: len(magic)}
	var segs []Segment
	seen := false
	for r.off < len(r.b) {
		id, err := r.byte("section id")
		if err != nil {
			return nil, err
		}
		size, err := r.uleb(32, "section size")
		if err != nil {
			return nil, err
		}
		body, err := r.bytes(size, fmt.Sprintf("section %d", id))
		if err != nil {
			return nil, err
		}
		if id != sectionData {
			continue
		}
		if seen {
			return nil, fmt.Errorf("%w: two data sections", ErrFormat)
		}
		seen = true
		base := r.off - len(body)
		if segs, err = dataSection(&reader{b: r.b[:r.off], off: base}); err != nil {
			return nil, err
		}
	}
	return segs, nil
}

// dataSection parses the body of the data section.
func dataSection(r *reader) ([]Segment, error) {
	n, err := r.uleb(32, "data segment count")
	if err != nil {
		return nil, err
	}
	var segs []Segment // not preallocated: n comes from the input
	for i := uint64(0); i < n; i++ {
		s, err := segment(r)
		if err != nil {
			return nil, fmt.Errorf("data segment %d: %w", i, err)
		}
		segs = append(segs, s)
	}
	if r.off != len(r.b) {
		return nil, r.fail(fmt.Sprintf("%d bytes after the last data segment", len(r.b)-r.off))
	}
	return segs, nil
}

// segment parses one data segment: kind 0 (active, memory 0), 1 (passive)
// or 2 (active, explicit memory).
func segment(r *reader) (Segment, error) {
	kind, err := r.uleb(32, "segment kind")
	if err != nil {
		return Segment{}, err
	}
	var s Segment
	switch kind {
	case 0, 2:
		if kind == 2 {
			m, err := r.uleb(32, "memory index")
			if err != nil {
				return Segment{}, err
			}
			s.Memory = uint32(m)
		}
		if s.Offset, err = offsetExpr(r); err != nil {
			return Segment{}, err
		}
	case 1:
		s.Passive = true
	default:
		return Segment{}, r.fail(fmt.Sprintf("segment kind %d (want 0, 1 or 2)", kind))
	}
	n, err := r.uleb(32, "segment length")
	if err != nil {
		return Segment{}, err
	}
	if s.Data, err = r.bytes(n, "segment bytes"); err != nil {
		return Segment{}, err
	}
	return s, nil
}

// offsetExpr reads a constant offset expression: i32.const or i64.const
// followed by end. Offsets read as unsigned, as memory addresses are.
func offsetExpr(r *reader) (uint64, error) {
	op, err := r.byte("offset expression")
	if err != nil {
		return 0, err
	}
	var v int64
	switch op {
	case opI32Const:
		x, err := r.sleb(32, "i32.const")
		if err != nil {
			return 0, err
		}
		v = int64(uint32(int32(x)))
	case opI64Const:
		if v, err = r.sleb(64, "i64.const"); err != nil {
			return 0, err
		}
	default:
		return 0, r.fail(fmt.Sprintf("offset expression opcode 0x%02x (only constant offsets, i32.const or i64.const, are supported)", op))
	}
	end, err := r.byte("offset expression end")
	if err != nil {
		return 0, err
	}
	if end != opEnd {
		return 0, r.fail(fmt.Sprintf("offset expression ends with 0x%02x, want end (0x0b)", end))
	}
	return uint64(v), nil
}

// Memory rebuilds memory 0's initial contents from the active segments:
// each segment's bytes copied to its offset, everything else zero. The
// memory ends with the last segment's last byte; a memory larger than
// limit bytes is an error (the offsets come from the input).
func Memory(segs []Segment, limit uint64) ([]byte, error) {
	var size uint64
	for i, s := range segs {
		if s.Passive || s.Memory != 0 {
			continue
		}
		end := s.Offset + uint64(len(s.Data))
		if end < s.Offset || end > limit {
			return nil, fmt.Errorf("wasmnet: data segment %d ends at %d, past the limit of %d bytes", i, end, limit)
		}
		size = max(size, end)
	}
	mem := make([]byte, size)
	for _, s := range segs {
		if !s.Passive && s.Memory == 0 {
			copy(mem[s.Offset:], s.Data)
		}
	}
	return mem, nil
}
