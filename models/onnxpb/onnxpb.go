// Package onnxpb writes ONNX models (onnx.ModelProto) directly in protobuf
// wire format. It covers what Outpost needs to build inference graphs in Go:
// float32/int64 tensors, typed graph inputs and outputs with symbolic
// dimensions, nodes with int, float, ints and tensor attributes, and the
// model header (IR version, opset).
package onnxpb

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// ONNX tensor element types.
const (
	Float = 1 // TensorProto.FLOAT
	Int64 = 7 // TensorProto.INT64
)

// IRVersion is the ONNX IR version written (IR 8 goes with opset 17 and is
// read by ONNX Runtime 1.24).
const IRVersion = 8

// Opset is the default ai.onnx operator set version.
const Opset = 17

// Tensor is a constant tensor (an initializer or attribute value).
type Tensor struct {
	Name   string
	Dims   []int64
	Type   int // Float or Int64
	Floats []float32
	Ints   []int64
}

// FloatTensor returns a float32 tensor.
func FloatTensor(name string, data []float32, dims ...int64) Tensor {
	return Tensor{Name: name, Dims: dims, Type: Float, Floats: data}
}

// Int64Tensor returns an int64 tensor.
func Int64Tensor(name string, data []int64, dims ...int64) Tensor {
	return Tensor{Name: name, Dims: dims, Type: Int64, Ints: data}
}

// Dim is one dimension of a graph input/output: a fixed size, or a symbolic
// name (e.g. "batch") when Param is set.
type Dim struct {
	Value int64
	Param string
}

// Value is a typed graph input or output.
type Value struct {
	Name string
	Type int
	Dims []Dim
}

// Attr is a node attribute. Exactly one of the value fields is used, chosen by
// Kind.
type Attr struct {
	Name   string
	Kind   AttrKind
	Int    int64
	Float  float32
	Ints   []int64
	Tensor *Tensor
}

// AttrKind is the ONNX AttributeProto type.
type AttrKind int

// Attribute kinds.
const (
	AttrFloat  AttrKind = 1
	AttrInt    AttrKind = 2
	AttrTensor AttrKind = 4
	AttrInts   AttrKind = 7
)

// Int returns an int attribute.
func Int(name string, v int64) Attr { return Attr{Name: name, Kind: AttrInt, Int: v} }

// Ints returns an ints attribute.
func Ints(name string, v ...int64) Attr { return Attr{Name: name, Kind: AttrInts, Ints: v} }

// FloatAttr returns a float attribute.
func FloatAttr(name string, v float32) Attr { return Attr{Name: name, Kind: AttrFloat, Float: v} }

// Node is one operator application.
type Node struct {
	Op      string
	Name    string
	Inputs  []string
	Outputs []string
	Attrs   []Attr
}

// Graph is an ONNX graph under construction.
type Graph struct {
	Name         string
	Inputs       []Value
	Outputs      []Value
	Initializers []Tensor
	Nodes        []Node
	seq          int
}

// Init adds an initializer and returns its name.
func (g *Graph) Init(t Tensor) string {
	g.Initializers = append(g.Initializers, t)
	return t.Name
}

// Op appends a node with a generated output name and returns that name.
func (g *Graph) Op(op string, inputs []string, attrs ...Attr) string {
	g.seq++
	out := fmt.Sprintf("%s_%d", op, g.seq)
	g.Nodes = append(g.Nodes, Node{Op: op, Name: out, Inputs: inputs, Outputs: []string{out}, Attrs: attrs})
	return out
}

// OpTo appends a node writing the named output (used for graph outputs).
func (g *Graph) OpTo(out, op string, inputs []string, attrs ...Attr) string {
	g.Nodes = append(g.Nodes, Node{Op: op, Name: out, Inputs: inputs, Outputs: []string{out}, Attrs: attrs})
	return out
}

// Model is a whole ONNX model.
type Model struct {
	Producer string
	Graph    *Graph
	Opset    int64
	// Metadata becomes metadata_props (string key/value pairs).
	Metadata map[string]string
}

// Marshal encodes the model as an onnx.ModelProto.
func (m *Model) Marshal() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, IRVersion)
	b = appendString(b, 2, m.Producer)
	b = appendMessage(b, 7, marshalGraph(m.Graph))
	opset := m.Opset
	if opset == 0 {
		opset = Opset
	}
	var os []byte
	os = appendString(os, 1, "")
	os = protowire.AppendTag(os, 2, protowire.VarintType)
	os = protowire.AppendVarint(os, uint64(opset))
	b = appendMessage(b, 8, os)
	for _, k := range sortedKeys(m.Metadata) {
		var kv []byte
		kv = appendString(kv, 1, k)
		kv = appendString(kv, 2, m.Metadata[k])
		b = appendMessage(b, 14, kv)
	}
	return b
}

func marshalGraph(g *Graph) []byte {
	var b []byte
	for _, n := range g.Nodes {
		b = appendMessage(b, 1, marshalNode(n))
	}
	b = appendString(b, 2, g.Name)
	for _, t := range g.Initializers {
		b = appendMessage(b, 5, marshalTensor(t))
	}
	for _, v := range g.Inputs {
		b = appendMessage(b, 11, marshalValue(v))
	}
	for _, v := range g.Outputs {
		b = appendMessage(b, 12, marshalValue(v))
	}
	return b
}

func marshalNode(n Node) []byte {
	var b []byte
	for _, in := range n.Inputs {
		b = appendString(b, 1, in)
	}
	for _, out := range n.Outputs {
		b = appendString(b, 2, out)
	}
	b = appendString(b, 3, n.Name)
	b = appendString(b, 4, n.Op)
	for _, a := range n.Attrs {
		b = appendMessage(b, 5, marshalAttr(a))
	}
	return b
}

func marshalAttr(a Attr) []byte {
	var b []byte
	b = appendString(b, 1, a.Name)
	switch a.Kind {
	case AttrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.Float))
	case AttrInt:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.Int))
	case AttrTensor:
		b = appendMessage(b, 5, marshalTensor(*a.Tensor))
	case AttrInts:
		b = appendPacked(b, 8, a.Ints)
	}
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(a.Kind))
	return b
}

func marshalTensor(t Tensor) []byte {
	var b []byte
	if len(t.Dims) > 0 {
		b = appendPacked(b, 1, t.Dims)
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.Type))
	b = appendString(b, 8, t.Name)
	var raw []byte
	switch t.Type {
	case Float:
		raw = make([]byte, 4*len(t.Floats))
		for i, f := range t.Floats {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
		}
	case Int64:
		raw = make([]byte, 8*len(t.Ints))
		for i, v := range t.Ints {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
		}
	}
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return b
}

func marshalValue(v Value) []byte {
	var shape []byte
	for _, d := range v.Dims {
		var dim []byte
		if d.Param != "" {
			dim = appendString(dim, 2, d.Param)
		} else {
			dim = protowire.AppendTag(dim, 1, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(d.Value))
		}
		shape = appendMessage(shape, 1, dim)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, 1, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(v.Type))
	tt = appendMessage(tt, 2, shape)
	var typ []byte
	typ = appendMessage(typ, 1, tt)
	var b []byte
	b = appendString(b, 1, v.Name)
	b = appendMessage(b, 2, typ)
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// appendPacked appends vals as field num, a packed repeated int64.
func appendPacked(b []byte, num protowire.Number, vals []int64) []byte {
	var p []byte
	for _, v := range vals {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return appendMessage(b, num, p)
}

func appendMessage(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}
