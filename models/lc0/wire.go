package lc0

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// field is one decoded protobuf field: its number, wire type and payload.
// Bytes is set for length-delimited fields, Varint for varints and Fixed for
// 32-bit fields (64-bit fixed fields are accepted and skipped).
type field struct {
	Num    protowire.Number
	Type   protowire.Type
	Bytes  []byte
	Varint uint64
	Fixed  uint32
}

// walk calls fn for every top-level field of the protobuf message b. It
// returns a clear error on malformed input instead of panicking.
func walk(b []byte, fn func(f field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("bad field tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		f := field{Num: num, Type: typ}
		var m int
		var what string
		switch typ {
		case protowire.VarintType:
			f.Varint, m = protowire.ConsumeVarint(b)
			what = "varint"
		case protowire.Fixed32Type:
			f.Fixed, m = protowire.ConsumeFixed32(b)
			what = "fixed32"
		case protowire.Fixed64Type:
			_, m = protowire.ConsumeFixed64(b)
			what = "fixed64"
		case protowire.BytesType:
			f.Bytes, m = protowire.ConsumeBytes(b)
			what = "length-delimited value"
		case protowire.StartGroupType:
			_, m = protowire.ConsumeGroup(num, b)
			what = "group"
		default:
			return fmt.Errorf("field %d: unsupported wire type %d", num, typ)
		}
		if m < 0 {
			return fmt.Errorf("field %d: bad %s: %w", num, what, protowire.ParseError(m))
		}
		b = b[m:]
		if typ == protowire.StartGroupType {
			continue
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// wantType checks that f has the wire type the schema expects.
func wantType(f field, t protowire.Type, what string) error {
	if f.Type != t {
		return fmt.Errorf("%s (field %d): wire type %d, want %d", what, f.Num, f.Type, t)
	}
	return nil
}

// float32 decodes a fixed32 field as a float.
func (f field) float32() float32 { return math.Float32frombits(f.Fixed) }
