package lc0

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxUncompressed bounds the decompressed size of a weights file (lc0 nets
// used with Outpost are a few MB; this stops gzip bombs).
const maxUncompressed = 512 << 20

// layer is a quantised lc0 Layer message.
type layer struct {
	min, max float32
	params   []byte
	present  bool
}

// convBlock is a raw lc0 ConvBlock message.
type convBlock struct {
	weights, biases, means, stddivs, gammas, betas layer
	present                                        bool
}

type seUnit struct{ w1, b1, w2, b2 layer }

type residual struct {
	conv1, conv2 convBlock
	se           seUnit
	hasSE        bool
}

type rawWeights struct {
	input, policy, policy1, value convBlock
	residual                      []residual
	ipPolW, ipPolB                layer
	ip1ValW, ip1ValB              layer
	ip2ValW, ip2ValB              layer
}

// ReadFile reads and converts a gzip-compressed lc0 weights file.
func ReadFile(path string) (*Net, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lc0: %w", err)
	}
	defer f.Close()
	n, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// Read reads a gzip-compressed lc0 network from r and converts it.
func Read(r io.Reader) (*Net, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("lc0: not a gzip file: %w", err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(zr, maxUncompressed+1))
	if err != nil {
		return nil, fmt.Errorf("lc0: decompress: %w", err)
	}
	if n > maxUncompressed {
		return nil, fmt.Errorf("lc0: decompressed network larger than %d bytes", maxUncompressed)
	}
	return Parse(buf.Bytes())
}

// Parse converts an uncompressed pblczero.Net protobuf message.
func Parse(b []byte) (*Net, error) {
	var (
		magic    uint32
		hasMagic bool
		format   Format
		raw      rawWeights
		hasW     bool
	)
	err := walk(b, func(f field) error {
		switch f.Num {
		case 1:
			if err := wantType(f, protowire.Fixed32Type, "magic"); err != nil {
				return err
			}
			magic, hasMagic = f.Fixed, true
		case 4:
			if err := wantType(f, protowire.BytesType, "format"); err != nil {
				return err
			}
			return parseFormat(f.Bytes, &format)
		case 10:
			if err := wantType(f, protowire.BytesType, "weights"); err != nil {
				return err
			}
			hasW = true
			return parseWeights(f.Bytes, &raw)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("lc0: %w", err)
	}
	if !hasMagic || magic != Magic {
		return nil, fmt.Errorf("lc0: bad magic %#x, want %#x", magic, Magic)
	}
	if err := checkFormat(format); err != nil {
		return nil, fmt.Errorf("lc0: %w", err)
	}
	if !hasW {
		return nil, errors.New("lc0: no weights in file")
	}
	net, err := build(&raw)
	if err != nil {
		return nil, fmt.Errorf("lc0: %w", err)
	}
	net.Format = format
	return net, nil
}

func checkFormat(f Format) error {
	checks := []struct {
		name      string
		got, want int
	}{
		{"weights encoding", f.WeightsEncoding, EncodingLinear16},
		{"input format", f.Input, InputClassical},
		{"output format", f.Output, OutputWDL},
		{"network format", f.Network, NetworkSEHead},
		{"policy format", f.Policy, PolicyConv},
		{"value format", f.Value, ValueWDL},
	}
	for _, c := range checks {
		if c.got != c.want {
			return fmt.Errorf("unsupported %s %d (want %d; only Maia-1 style SE nets with conv policy and WDL value are supported)", c.name, c.got, c.want)
		}
	}
	return nil
}

func parseFormat(b []byte, out *Format) error {
	return walk(b, func(f field) error {
		switch f.Num {
		case 1:
			if err := wantType(f, protowire.VarintType, "format.weights_encoding"); err != nil {
				return err
			}
			out.WeightsEncoding = int(f.Varint)
		case 2:
			if err := wantType(f, protowire.BytesType, "format.network_format"); err != nil {
				return err
			}
			netFormat := map[protowire.Number]*int{
				1: &out.Input, 2: &out.Output, 3: &out.Network,
				4: &out.Policy, 5: &out.Value, 6: &out.MovesLeft,
			}
			return walk(f.Bytes, func(g field) error {
				if err := wantType(g, protowire.VarintType, "network_format field"); err != nil {
					return err
				}
				if dst, ok := netFormat[g.Num]; ok {
					*dst = int(g.Varint)
				}
				return nil
			})
		}
		return nil
	})
}

// parseWeights reads a Weights message: fields 1 to 11 are length-delimited
// conv blocks, layers or (field 2, repeated) residual blocks.
func parseWeights(b []byte, w *rawWeights) error {
	convs := map[protowire.Number]*convBlock{1: &w.input, 3: &w.policy, 6: &w.value, 11: &w.policy1}
	layers := map[protowire.Number]*layer{
		4: &w.ipPolW, 5: &w.ipPolB,
		7: &w.ip1ValW, 8: &w.ip1ValB,
		9: &w.ip2ValW, 10: &w.ip2ValB,
	}
	return walk(b, func(f field) error {
		if f.Num < 1 || f.Num > 11 {
			return nil
		}
		if err := wantType(f, protowire.BytesType, "weights field"); err != nil {
			return err
		}
		var err error
		if c, ok := convs[f.Num]; ok {
			err = parseConv(f.Bytes, c)
		} else if l, ok := layers[f.Num]; ok {
			err = parseLayer(f.Bytes, l)
		} else { // field 2
			var r residual
			err = parseResidual(f.Bytes, &r)
			w.residual = append(w.residual, r)
		}
		if err != nil {
			return fmt.Errorf("weights field %d: %w", f.Num, err)
		}
		return nil
	})
}

func parseResidual(b []byte, r *residual) error {
	return walk(b, func(f field) error {
		switch f.Num {
		case 1, 2, 3:
			if err := wantType(f, protowire.BytesType, "residual field"); err != nil {
				return err
			}
		}
		switch f.Num {
		case 1:
			return parseConv(f.Bytes, &r.conv1)
		case 2:
			return parseConv(f.Bytes, &r.conv2)
		case 3:
			r.hasSE = true
			return parseLayers(f.Bytes, "se field", map[protowire.Number]*layer{
				1: &r.se.w1, 2: &r.se.b1, 3: &r.se.w2, 4: &r.se.b2,
			})
		}
		return nil
	})
}

func parseConv(b []byte, c *convBlock) error {
	c.present = true
	return parseLayers(b, "conv block field", map[protowire.Number]*layer{
		1: &c.weights, 2: &c.biases, 3: &c.means,
		4: &c.stddivs, 5: &c.gammas, 6: &c.betas,
	})
}

// parseLayers walks a message whose fields named in layers are
// length-delimited Layer messages, parsing each into its destination; what
// names such a field in errors. Other fields are skipped.
func parseLayers(b []byte, what string, layers map[protowire.Number]*layer) error {
	return walk(b, func(f field) error {
		dst, ok := layers[f.Num]
		if !ok {
			return nil
		}
		if err := wantType(f, protowire.BytesType, what); err != nil {
			return err
		}
		return parseLayer(f.Bytes, dst)
	})
}

func parseLayer(b []byte, l *layer) error {
	l.present = true
	return walk(b, func(f field) error {
		switch f.Num {
		case 1:
			if err := wantType(f, protowire.Fixed32Type, "layer.min_val"); err != nil {
				return err
			}
			l.min = f.float32()
		case 2:
			if err := wantType(f, protowire.Fixed32Type, "layer.max_val"); err != nil {
				return err
			}
			l.max = f.float32()
		case 3:
			if err := wantType(f, protowire.BytesType, "layer.params"); err != nil {
				return err
			}
			l.params = f.Bytes
		}
		return nil
	})
}

// dequantise expands a LINEAR16 layer: value = min + (max-min)*q/65535.
func (l layer) dequantise() ([]float32, error) {
	if len(l.params)%2 != 0 {
		return nil, fmt.Errorf("LINEAR16 params have odd length %d", len(l.params))
	}
	if isBad(l.min) || isBad(l.max) {
		return nil, fmt.Errorf("layer range [%v, %v] is not finite", l.min, l.max)
	}
	out := make([]float32, len(l.params)/2)
	lo, span := float64(l.min), float64(l.max)-float64(l.min)
	for i := range out {
		q := binary.LittleEndian.Uint16(l.params[2*i:])
		out[i] = float32(lo + span*float64(q)/65535)
	}
	return out, nil
}

func isBad(f float32) bool { return math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) }
