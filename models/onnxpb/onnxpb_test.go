package onnxpb

import (
	"encoding/binary"
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// fields decodes one message level into number → raw values.
func fields(t *testing.T, b []byte) map[protowire.Number][][]byte {
	t.Helper()
	out := map[protowire.Number][][]byte{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			t.Fatalf("field %d: %v", num, protowire.ParseError(m))
		}
		val := b[:m]
		if typ == protowire.BytesType {
			val, _ = protowire.ConsumeBytes(b)
		}
		out[num] = append(out[num], val)
		b = b[m:]
	}
	return out
}

func varint(t *testing.T, b []byte) uint64 {
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		t.Fatal("bad varint")
	}
	return v
}

func TestMarshalStructure(t *testing.T) {
	g := &Graph{Name: "g"}
	g.Inputs = []Value{{Name: "x", Type: Float, Dims: []Dim{{Param: "batch"}, {Value: 2}}}}
	g.Outputs = []Value{{Name: "y", Type: Float, Dims: []Dim{{Param: "batch"}, {Value: 2}}}}
	w := g.Init(FloatTensor("w", []float32{1.5, -2}, 2))
	g.OpTo("y", "Add", []string{"x", w})
	g.Op("Softmax", []string{"y"}, Int("axis", 1), Ints("perm", 0, 1), FloatAttr("alpha", 0.5))
	b := (&Model{Producer: "test", Graph: g, Metadata: map[string]string{"k": "v"}}).Marshal()

	top := fields(t, b)
	if varint(t, top[1][0]) != IRVersion {
		t.Error("ir_version")
	}
	if string(top[2][0]) != "test" {
		t.Error("producer")
	}
	opset := fields(t, top[8][0])
	if varint(t, opset[2][0]) != Opset {
		t.Error("opset version")
	}
	meta := fields(t, top[14][0])
	if string(meta[1][0]) != "k" || string(meta[2][0]) != "v" {
		t.Error("metadata")
	}
	graph := fields(t, top[7][0])
	if len(graph[1]) != 2 || string(graph[2][0]) != "g" || len(graph[5]) != 1 || len(graph[11]) != 1 || len(graph[12]) != 1 {
		t.Fatalf("graph fields: %d nodes, %d inits", len(graph[1]), len(graph[5]))
	}
	node := fields(t, graph[1][0])
	if string(node[4][0]) != "Add" || string(node[1][0]) != "x" || string(node[1][1]) != "w" || string(node[2][0]) != "y" {
		t.Error("Add node")
	}
	soft := fields(t, graph[1][1])
	if len(soft[5]) != 3 {
		t.Fatalf("%d attributes", len(soft[5]))
	}
	attr := fields(t, soft[5][0])
	if string(attr[1][0]) != "axis" || varint(t, attr[3][0]) != 1 || varint(t, attr[20][0]) != uint64(AttrInt) {
		t.Error("int attribute")
	}
	init := fields(t, graph[5][0])
	raw := init[9][0]
	if varint(t, init[2][0]) != Float || string(init[8][0]) != "w" || len(raw) != 8 ||
		math.Float32frombits(binary.LittleEndian.Uint32(raw[4:])) != -2 {
		t.Error("initializer")
	}
	in := fields(t, graph[11][0])
	typ := fields(t, fields(t, in[2][0])[1][0])
	dims := fields(t, typ[2][0])[1]
	if string(fields(t, dims[0])[2][0]) != "batch" || varint(t, fields(t, dims[1])[1][0]) != 2 {
		t.Error("input shape")
	}
}
