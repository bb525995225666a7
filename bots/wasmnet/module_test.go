package wasmnet

import (
	"bytes"
	"errors"
	"testing"
)

// uleb encodes v as unsigned LEB128.
func uleb(v uint64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, c|0x80)
			continue
		}
		return append(out, c)
	}
}

// sleb32 encodes v as signed LEB128.
func sleb32(v int32) []byte {
	var out []byte
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

// section is one section: id, size, body.
func section(id byte, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return append(append([]byte{id}, uleb(uint64(len(b)))...), b...)
}

// active is a kind 0 segment at offset.
func active(offset int32, data string) []byte {
	return bytes.Join([][]byte{{0x00, opI32Const}, sleb32(offset), {opEnd}, uleb(uint64(len(data))), []byte(data)}, nil)
}

// module is a module with a type section (ignored) and the data segments.
func module(segs ...[]byte) []byte {
	data := append(uleb(uint64(len(segs))), bytes.Join(segs, nil)...)
	return bytes.Join([][]byte{magic, section(1, []byte{0x01, 0x60, 0x00, 0x00}), section(sectionData, data), section(0, []byte{0x04, 'n', 'a', 'm', 'e'})}, nil)
}

func TestDataSegments(t *testing.T) {
	passive := append([]byte{0x01}, append(uleb(3), "pas"...)...)
	mem2 := bytes.Join([][]byte{{0x02}, uleb(1), {opI32Const}, sleb32(8), {opEnd}, uleb(2), []byte("m1")}, nil)
	i64 := bytes.Join([][]byte{{0x00, opI64Const}, uleb(300), {opEnd}, uleb(1), []byte("w")}, nil)
	segs, err := DataSegments(module(active(16, "abc"), passive, active(0, "xy"), mem2, i64, active(200, "")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{
		{Offset: 16, Data: []byte("abc")},
		{Passive: true, Data: []byte("pas")},
		{Offset: 0, Data: []byte("xy")},
		{Memory: 1, Offset: 8, Data: []byte("m1")},
		{Offset: 300, Data: []byte("w")},
		{Offset: 200, Data: []byte{}},
	}
	if len(segs) != len(want) {
		t.Fatalf("%d segments, want %d: %+v", len(segs), len(want), segs)
	}
	for i := range want {
		g, w := segs[i], want[i]
		if g.Passive != w.Passive || g.Memory != w.Memory || g.Offset != w.Offset || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("segment %d: %+v, want %+v", i, g, w)
		}
	}
	mem, err := Memory(segs, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	// the passive and memory-1 segments are left out; the gaps are zero
	wantMem := make([]byte, 301)
	copy(wantMem[16:], "abc")
	copy(wantMem[0:], "xy")
	copy(wantMem[300:], "w")
	if !bytes.Equal(mem, wantMem) {
		t.Errorf("memory %q, want %q", mem, wantMem)
	}
	if _, err := Memory(segs, 300); err == nil {
		t.Error("memory past the limit accepted")
	}
}

func TestDataSegmentsNoDataSection(t *testing.T) {
	segs, err := DataSegments(append(append([]byte{}, magic...), section(1, []byte{0x00})...))
	if err != nil || len(segs) != 0 {
		t.Fatalf("segments %v, err %v", segs, err)
	}
}

// TestDataSegmentsNegativeOffset: an i32 offset is an unsigned address.
func TestDataSegmentsNegativeOffset(t *testing.T) {
	segs, err := DataSegments(module(active(-1, "z")))
	if err != nil || len(segs) != 1 || segs[0].Offset != 0xffffffff {
		t.Fatalf("segments %+v, err %v", segs, err)
	}
	if _, err := Memory(segs, 1<<20); err == nil {
		t.Error("a segment at 4 GiB accepted under a 1 MiB limit")
	}
}

func TestDataSegmentsErrors(t *testing.T) {
	good := module(active(4, "abcd"))
	dataAt := bytes.Index(good, []byte{sectionData})
	for _, tc := range []struct {
		name string
		wasm []byte
		want string
	}{
		{"empty", nil, "preamble"},
		{"not wasm", []byte("\x7fELF\x02\x01\x01\x00"), "preamble"},
		{"version 2", []byte{0, 'a', 's', 'm', 2, 0, 0, 0}, "preamble"},
		{"section past the end", append(append([]byte{}, magic...), 11, 0x10, 0x00), "past the end"},
		{"truncated size", append(append([]byte{}, magic...), 11, 0x80), "unexpected end"},
		{"long size", append(append([]byte{}, magic...), 11, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), "too long"},
		{"truncated module", good[:len(good)-3], "past the end"},
		{"kind 3", module([]byte{0x03}), "segment kind 3"},
		{"global offset", module([]byte{0x00, 0x23, 0x00, opEnd, 0x00}), "opcode 0x23"},
		{"no end", module([]byte{0x00, opI32Const, 0x01, 0x00, 0x00}), "want end"},
		{"segment past section", module(bytes.Join([][]byte{{0x00, opI32Const, 0x00, opEnd}, uleb(9), []byte("ab")}, nil)), "past the end"},
		{"two data sections", append(append([]byte{}, good...), good[dataAt:dataAt+2+int(good[dataAt+1])]...), "two data sections"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DataSegments(tc.wasm)
			if err == nil || !errors.Is(err, ErrFormat) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Fatalf("err = %v, want ErrFormat with %q", err, tc.want)
			}
		})
	}
}

func TestDataSegmentsTrailingBytes(t *testing.T) {
	body := append(uleb(1), append(active(0, "a"), 0xff)...)
	wasm := append(append([]byte{}, magic...), section(sectionData, body)...)
	if _, err := DataSegments(wasm); err == nil || !errors.Is(err, ErrFormat) {
		t.Fatalf("err = %v, want the byte after the last segment refused", err)
	}
	body = append(uleb(5), active(0, "a")...) // count says 5, one present
	wasm = append(append([]byte{}, magic...), section(sectionData, body)...)
	if _, err := DataSegments(wasm); err == nil || !errors.Is(err, ErrFormat) {
		t.Fatalf("err = %v, want the missing segments refused", err)
	}
}

// FuzzDataSegments: any input gives segments or an error wrapping
// ErrFormat, never a panic; the segments lie inside the input; Memory with
// a small limit never allocates past it.
func FuzzDataSegments(f *testing.F) {
	f.Add(module(active(16, "abc"), active(0, "xy")))
	f.Add(module([]byte{0x01, 0x01, 'p'}))
	f.Add(append(append([]byte{}, magic...), 11, 0x80))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, wasm []byte) {
		segs, err := DataSegments(wasm)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		total := 0
		for _, s := range segs {
			total += len(s.Data)
		}
		if total > len(wasm) {
			t.Fatalf("segments hold %d bytes of a %d-byte module", total, len(wasm))
		}
		if mem, err := Memory(segs, 1<<16); err == nil && len(mem) > 1<<16 {
			t.Fatalf("memory of %d bytes past the limit", len(mem))
		}
	})
}
