package maia1

import (
	"fmt"

	"github.com/outpostchess/outpost/models/lc0"
	"github.com/outpostchess/outpost/models/onnxpb"
)

// Graph input and output names of a converted Maia-1 model.
const (
	InputName  = "input"  // float32 [N,112,8,8]
	PolicyName = "policy" // float32 [N,1858] logits
	WDLName    = "wdl"    // float32 [N,3] softmaxed [W, D, L], side to move's view
)

// BuildONNX converts a parsed lc0 network into a serialized ONNX model
// (opset 17, dynamic batch). Batch norm is already folded into the
// convolutions by package lc0, so the graph holds only Conv, Relu, ReduceMean,
// Gemm, Sigmoid, Mul, Add, Reshape, Gather and Softmax.
func BuildONNX(net *lc0.Net, name string) ([]byte, error) {
	if net == nil || len(net.Blocks) == 0 {
		return nil, fmt.Errorf("maia1: empty network")
	}
	g := &onnxpb.Graph{Name: name}
	batch := onnxpb.Dim{Param: "batch"}
	g.Inputs = []onnxpb.Value{{Name: InputName, Type: onnxpb.Float, Dims: []onnxpb.Dim{batch, {Value: lc0.InputPlanes}, {Value: 8}, {Value: 8}}}}
	g.Outputs = []onnxpb.Value{
		{Name: PolicyName, Type: onnxpb.Float, Dims: []onnxpb.Dim{batch, {Value: PolicySize}}},
		{Name: WDLName, Type: onnxpb.Float, Dims: []onnxpb.Dim{batch, {Value: 3}}},
	}
	f := net.Filters
	x := conv(g, "input", InputName, net.Input)
	x = g.Op("Relu", []string{x})
	seShape := g.Init(onnxpb.Int64Tensor("se_shape", []int64{-1, int64(f), 1, 1}, 4))
	for i, b := range net.Blocks {
		p := fmt.Sprintf("block%d", i)
		y := conv(g, p+"_conv1", x, b.Conv1)
		y = g.Op("Relu", []string{y})
		y = conv(g, p+"_conv2", y, b.Conv2)
		// Squeeze-excitation.
		s := g.Op("ReduceMean", []string{y}, onnxpb.Ints("axes", 2, 3), onnxpb.Int("keepdims", 0))
		s = gemm(g, p+"_se1", s, b.SE.FC1, 0, b.SE.FC1.Out)
		s = g.Op("Relu", []string{s})
		gamma := gemm(g, p+"_se_gamma", s, b.SE.FC2, 0, f)
		beta := gemm(g, p+"_se_beta", s, b.SE.FC2, f, f)
		gamma = g.Op("Sigmoid", []string{gamma})
		gamma = g.Op("Reshape", []string{gamma, seShape})
		beta = g.Op("Reshape", []string{beta, seShape})
		y = g.Op("Mul", []string{y, gamma})
		y = g.Op("Add", []string{y, beta})
		y = g.Op("Add", []string{y, x})
		x = g.Op("Relu", []string{y})
	}
	// Policy head.
	p := conv(g, "policy1", x, net.Policy1)
	p = g.Op("Relu", []string{p})
	p = conv(g, "policy", p, net.Policy)
	flat := g.Init(onnxpb.Int64Tensor("policy_flat", []int64{-1, int64(net.Policy.Out * 64)}, 2))
	p = g.Op("Reshape", []string{p, flat})
	idx := g.Init(onnxpb.Int64Tensor("policy_map", GatherIndices(), PolicySize))
	g.OpTo(PolicyName, "Gather", []string{p, idx}, onnxpb.Int("axis", 1))
	// Value head.
	v := conv(g, "value", x, net.Value)
	v = g.Op("Relu", []string{v})
	vflat := g.Init(onnxpb.Int64Tensor("value_flat", []int64{-1, int64(net.Value.Out * 64)}, 2))
	v = g.Op("Reshape", []string{v, vflat})
	v = gemm(g, "value1", v, net.Value1, 0, net.Value1.Out)
	v = g.Op("Relu", []string{v})
	v = gemm(g, "value2", v, net.Value2, 0, 3)
	g.OpTo(WDLName, "Softmax", []string{v}, onnxpb.Int("axis", 1))
	m := &onnxpb.Model{Producer: "outpost", Graph: g, Metadata: map[string]string{"outpost.model": name}}
	return m.Marshal(), nil
}

// conv adds a same-padded convolution with bias.
func conv(g *onnxpb.Graph, name, x string, c lc0.Conv) string {
	w := g.Init(onnxpb.FloatTensor(name+"_w", c.W, int64(c.Out), int64(c.In), int64(c.K), int64(c.K)))
	b := g.Init(onnxpb.FloatTensor(name+"_b", c.B, int64(c.Out)))
	pad := int64(c.K / 2)
	return g.Op("Conv", []string{x, w, b},
		onnxpb.Ints("kernel_shape", int64(c.K), int64(c.K)),
		onnxpb.Ints("pads", pad, pad, pad, pad))
}

// gemm adds y = x·Wᵀ + b using rows [from, from+n) of the dense layer d.
func gemm(g *onnxpb.Graph, name, x string, d lc0.Dense, from, n int) string {
	w := g.Init(onnxpb.FloatTensor(name+"_w", d.W[from*d.In:(from+n)*d.In], int64(n), int64(d.In)))
	b := g.Init(onnxpb.FloatTensor(name+"_b", d.B[from:from+n], int64(n)))
	return g.Op("Gemm", []string{x, w, b}, onnxpb.Int("transB", 1))
}
