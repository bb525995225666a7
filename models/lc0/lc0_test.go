package lc0

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

const shared = "../../../shared/models/maia1"

func TestReadMaia(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(shared, "maia-*.pb.gz"))
	if len(paths) == 0 {
		t.Skip("Maia-1 weights not available in ../shared")
	}
	if len(paths) != 9 {
		t.Fatalf("%d weight files, want 9", len(paths))
	}
	for _, p := range paths[:2] {
		n, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n.Filters != 64 || len(n.Blocks) != 6 || n.Blocks[0].SE.FC1.Out != 8 {
			t.Errorf("%s: %d filters, %d blocks, SE %d", p, n.Filters, len(n.Blocks), n.Blocks[0].SE.FC1.Out)
		}
		if n.Policy.Out != 80 || n.Value.Out != 32 || n.Value1.Out != 128 || n.Value2.Out != 3 {
			t.Errorf("%s: heads %d/%d/%d/%d", p, n.Policy.Out, n.Value.Out, n.Value1.Out, n.Value2.Out)
		}
		// 868,355 stored parameters minus 2,784 folded batch-norm values.
		if got := n.Params(); got != 865571 {
			t.Errorf("%s: %d parameters after folding, want 865571", p, got)
		}
		if n.Format.MovesLeft != 0 {
			t.Errorf("moves-left head %d", n.Format.MovesLeft)
		}
		for _, v := range n.Input.W {
			if math.IsNaN(float64(v)) {
				t.Fatal("NaN weight")
			}
		}
	}
}

// quant encodes values as a LINEAR16 layer message.
func quant(vals []float32) []byte {
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi == lo {
		hi = lo + 1
	}
	params := make([]byte, 2*len(vals))
	for i, v := range vals {
		q := math.Round(float64(v-lo) / float64(hi-lo) * 65535)
		binary.LittleEndian.PutUint16(params[2*i:], uint16(q))
	}
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, math.Float32bits(lo))
	b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, math.Float32bits(hi))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendBytes(b, params)
}

func msg(b []byte, num protowire.Number, body []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func TestDequantiseAndFold(t *testing.T) {
	// A 1x1 conv with 2 inputs and 2 outputs and batch norm.
	w := []float32{1, 2, 3, 4}
	var cb []byte
	cb = msg(cb, 1, quant(w))
	cb = msg(cb, 2, quant([]float32{0.5, -0.5}))
	cb = msg(cb, 3, quant([]float32{1, 2}))    // means
	cb = msg(cb, 4, quant([]float32{4, 0.25})) // variances
	cb = msg(cb, 5, quant([]float32{2, 1}))    // gammas
	cb = msg(cb, 6, quant([]float32{0, 1}))    // betas
	var c convBlock
	if err := parseConv(cb, &c); err != nil {
		t.Fatal(err)
	}
	conv, err := foldConv(c, 2, 1, "t")
	if err != nil {
		t.Fatal(err)
	}
	s0 := 2 / math.Sqrt(4+1e-5)
	s1 := 1 / math.Sqrt(0.25+1e-5)
	wantW := []float64{1 * s0, 2 * s0, 3 * s1, 4 * s1}
	wantB := []float64{0 - s0*(1-0.5), 1 - s1*(2+0.5)}
	for i, v := range wantW {
		if math.Abs(float64(conv.W[i])-v) > 1e-3 {
			t.Errorf("W[%d] = %v, want %v", i, conv.W[i], v)
		}
	}
	for i, v := range wantB {
		if math.Abs(float64(conv.B[i])-v) > 1e-3 {
			t.Errorf("B[%d] = %v, want %v", i, conv.B[i], v)
		}
	}
	// Exact LINEAR16 mapping: q=0 → min, q=65535 → max.
	l := layer{min: -1, max: 3, params: []byte{0, 0, 0xff, 0xff, 0xff, 0x7f}, present: true}
	v, err := l.dequantise()
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != -1 || v[1] != 3 || math.Abs(float64(v[2])-(-1+4*32767.0/65535)) > 1e-6 {
		t.Errorf("dequantise = %v", v)
	}
}

func TestParseErrors(t *testing.T) {
	var noMagic []byte
	noMagic = protowire.AppendTag(noMagic, 1, protowire.Fixed32Type)
	noMagic = protowire.AppendFixed32(noMagic, 0x1234)
	var badFormat []byte
	badFormat = protowire.AppendTag(badFormat, 1, protowire.Fixed32Type)
	badFormat = protowire.AppendFixed32(badFormat, Magic)
	badFormat = msg(badFormat, 4, []byte{0x08, 0x02}) // weights_encoding 2
	for name, b := range map[string][]byte{
		"empty":       {},
		"bad magic":   noMagic,
		"bad format":  badFormat,
		"truncated":   {0x0d, 0xc0, 0x01},
		"garbage tag": {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"wrong type":  {0x08, 0x01},
		"huge length": {0x52, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Read(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("non-gzip input accepted")
	}
}

func FuzzParse(f *testing.F) {
	if raw, err := os.ReadFile(filepath.Join(shared, "maia-1100.pb.gz")); err == nil {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err == nil {
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(zr)
			b := buf.Bytes()
			f.Add(b[:200])
			f.Add(b[:5000])
			// Flip bytes in the middle of the weights.
			c := bytes.Clone(b)
			c[len(c)/2] ^= 0xff
			f.Add(c)
		}
	}
	f.Add([]byte{0x0d, 0xc0, 0x01, 0x00, 0x00})
	f.Add([]byte{0x52, 0x02, 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := Parse(b)
		if err == nil && (n == nil || n.Filters == 0) {
			t.Fatal("nil error without a usable net")
		}
	})
}
