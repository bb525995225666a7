// Package lc0 reads Leela Chess Zero network files (gzip of a pblczero.Net
// protobuf, as used by the Maia-1 weights): it checks the format, dequantises
// LINEAR16 layers and folds batch normalisation into the convolutions, giving
// plain float32 tensors ready to be turned into an ONNX graph.
package lc0

// Supported format values (lczero-common proto/net.proto).
const (
	Magic            = 0x1c0 // Net.magic
	EncodingLinear16 = 1     // Format.weights_encoding LINEAR16
	InputClassical   = 1     // NetworkFormat.input INPUT_CLASSICAL_112_PLANE
	OutputWDL        = 2     // NetworkFormat.output OUTPUT_WDL
	NetworkSEHead    = 4     // NetworkFormat.network NETWORK_SE_WITH_HEADFORMAT
	PolicyConv       = 2     // NetworkFormat.policy POLICY_CONVOLUTION
	ValueWDL         = 2     // NetworkFormat.value VALUE_WDL

	// InputPlanes is the number of input planes of the classical encoding.
	InputPlanes = 112
	// PolicyChannels is the channel count of a convolutional policy head.
	PolicyChannels = 80
	// bnEpsilon is the batch-norm epsilon lc0 uses.
	bnEpsilon = 1e-5
)

// Format is the network's declared format.
type Format struct {
	WeightsEncoding int
	Input           int
	Output          int
	Network         int
	Policy          int
	Value           int
	MovesLeft       int
}

// Conv is a convolution with batch norm already folded in: W is laid out
// [Out][In][K][K] and B has Out entries.
type Conv struct {
	Out, In, K int
	W, B       []float32
}

// Dense is a fully connected layer: W is [Out][In], B has Out entries.
type Dense struct {
	Out, In int
	W, B    []float32
}

// SE is a squeeze-excitation unit: FC1 maps Filters → SE channels, FC2 maps
// SE channels → 2*Filters (first half gamma, second half beta).
type SE struct {
	FC1, FC2 Dense
}

// Residual is one residual block: two 3x3 convolutions and an SE unit.
type Residual struct {
	Conv1, Conv2 Conv
	SE           SE
}

// Net is a complete Maia/lc0 network with conv policy and WDL value heads.
type Net struct {
	Format  Format
	Filters int
	Input   Conv       // 3x3, 112 → Filters, then ReLU
	Blocks  []Residual // SE residual tower
	Policy1 Conv       // 3x3, Filters → Filters, then ReLU
	Policy  Conv       // 3x3, Filters → 80 (no activation)
	Value   Conv       // 1x1, Filters → value channels, then ReLU
	Value1  Dense      // value channels*64 → hidden, then ReLU
	Value2  Dense      // hidden → 3 (W, D, L logits)
}

// Params returns the number of parameters (weights and biases) of the net.
func (n *Net) Params() int {
	c := func(v Conv) int { return len(v.W) + len(v.B) }
	d := func(v Dense) int { return len(v.W) + len(v.B) }
	total := c(n.Input) + c(n.Policy1) + c(n.Policy) + c(n.Value) + d(n.Value1) + d(n.Value2)
	for _, b := range n.Blocks {
		total += c(b.Conv1) + c(b.Conv2) + d(b.SE.FC1) + d(b.SE.FC2)
	}
	return total
}
