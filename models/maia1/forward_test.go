package maia1

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/outpostchess/outpost/models/lc0"
)

// sharedWeights is the reference copy of the Maia-1 weights.
const sharedWeights = "../../../shared/models/maia1"

// refForward is an independent float64 evaluation of net, written as the
// layer definitions read (direct convolution loops over the padded board,
// no column matrix): the oracle the optimised forward pass is checked
// against.
func refForward(net *lc0.Net, in []float32) (logits []float64, wdl [3]float64) {
	x := make([]float64, len(in))
	for i, v := range in {
		x[i] = float64(v)
	}
	relu := func(v []float64) []float64 {
		for i := range v {
			v[i] = math.Max(0, v[i])
		}
		return v
	}
	x = relu(refConv(net.Input, x))
	for _, b := range net.Blocks {
		y := relu(refConv(b.Conv1, x))
		y = refConv(b.Conv2, y)
		mean := make([]float64, net.Filters)
		for c := range mean {
			for s := range 64 {
				mean[c] += y[c*64+s] / 64
			}
		}
		gb := refDense(b.SE.FC2, relu(refDense(b.SE.FC1, mean)))
		for c := range net.Filters {
			g := 1 / (1 + math.Exp(-gb[c]))
			for s := range 64 {
				i := c*64 + s
				x[i] = math.Max(0, y[i]*g+gb[net.Filters+c]+x[i])
			}
		}
	}
	p := refConv(net.Policy, relu(refConv(net.Policy1, x)))
	logits = make([]float64, PolicySize)
	for i, g := range GatherIndices() {
		logits[i] = p[g]
	}
	v := refDense(net.Value2, relu(refDense(net.Value1, relu(refConv(net.Value, x)))))
	m := math.Max(v[0], math.Max(v[1], v[2]))
	sum := 0.0
	for i := range 3 {
		wdl[i] = math.Exp(v[i] - m)
		sum += wdl[i]
	}
	for i := range 3 {
		wdl[i] /= sum
	}
	return logits, wdl
}

// refConv is a same-padded K×K convolution, [out][in][K][K] weights.
func refConv(c lc0.Conv, x []float64) []float64 {
	out := make([]float64, c.Out*64)
	pad := c.K / 2
	for o := range c.Out {
		for r := range 8 {
			for f := range 8 {
				s := float64(c.B[o])
				for i := range c.In {
					for dy := range c.K {
						for dx := range c.K {
							rr, ff := r+dy-pad, f+dx-pad
							if rr < 0 || rr > 7 || ff < 0 || ff > 7 {
								continue
							}
							s += float64(c.W[((o*c.In+i)*c.K+dy)*c.K+dx]) * x[i*64+rr*8+ff]
						}
					}
				}
				out[o*64+r*8+f] = s
			}
		}
	}
	return out
}

func refDense(d lc0.Dense, x []float64) []float64 {
	out := make([]float64, d.Out)
	for o := range d.Out {
		out[o] = float64(d.B[o])
		for i := range d.In {
			out[o] += float64(d.W[o*d.In+i]) * x[i]
		}
	}
	return out
}

// randomNet builds a small network of Maia-1's architecture with random
// weights: filters channels, blocks SE blocks, odd sizes so that the tiled
// kernel's remainder loops run too.
func randomNet(rng *rand.Rand, filters, blocks, seCh, valCh, hidden int) *lc0.Net {
	vec := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32((rng.Float64()*2 - 1) * scale)
		}
		return v
	}
	conv := func(in, out, k int) lc0.Conv {
		return lc0.Conv{In: in, Out: out, K: k, W: vec(out*in*k*k, 1/math.Sqrt(float64(in*k*k))), B: vec(out, 0.1)}
	}
	dense := func(in, out int) lc0.Dense {
		return lc0.Dense{In: in, Out: out, W: vec(out*in, 1/math.Sqrt(float64(in))), B: vec(out, 0.1)}
	}
	n := &lc0.Net{Filters: filters, Input: conv(Planes, filters, 3)}
	for range blocks {
		n.Blocks = append(n.Blocks, lc0.Residual{Conv1: conv(filters, filters, 3), Conv2: conv(filters, filters, 3),
			SE: lc0.SE{FC1: dense(filters, seCh), FC2: dense(seCh, 2*filters)}})
	}
	n.Policy1, n.Policy = conv(filters, filters, 3), conv(filters, lc0.PolicyChannels, 3)
	n.Value = conv(filters, valCh, 1)
	n.Value1, n.Value2 = dense(valCh*64, hidden), dense(hidden, 3)
	return n
}

// compareForward evaluates positions with Forward (one at a time and as a
// batch over two goroutines) and with refForward, and returns the largest
// differences of logits and WDL.
func compareForward(t *testing.T, net *lc0.Net, inputs [][]float32) (dLogit, dWDL float64) {
	t.Helper()
	fw, err := NewForward(net)
	if err != nil {
		t.Fatal(err)
	}
	n := len(inputs)
	batchIn := make([]float32, 0, n*InputSize)
	for _, in := range inputs {
		batchIn = append(batchIn, in...)
	}
	batchPol, batchWDL := make([]float32, n*PolicySize), make([]float32, n*3)
	if err := fw.EvalBatch(batchIn, batchPol, batchWDL, n, 2); err != nil {
		t.Fatal(err)
	}
	// One position alone has its channels split over three goroutines.
	onePol, oneWDL := make([]float32, PolicySize), make([]float32, 3)
	if err := fw.EvalBatch(inputs[0], onePol, oneWDL, 1, 3); err != nil {
		t.Fatal(err)
	}
	pol, wdl := make([]float32, PolicySize), make([]float32, 3)
	for k, in := range inputs {
		if err := fw.Eval(in, pol, wdl); err != nil {
			t.Fatal(err)
		}
		refL, refW := refForward(net, in)
		for i := range PolicySize {
			dLogit = max(dLogit, math.Abs(float64(pol[i])-refL[i]))
			if batchPol[k*PolicySize+i] != pol[i] || k == 0 && onePol[i] != pol[i] {
				t.Fatalf("position %d: logit %d = %v in a batch, %v split over goroutines, %v alone", k, i, batchPol[k*PolicySize+i], onePol[i], pol[i])
			}
		}
		for i := range 3 {
			dWDL = max(dWDL, math.Abs(float64(wdl[i])-refW[i]))
		}
	}
	return dLogit, dWDL
}

// randomPlanes returns an input with random 0/1 piece planes and a
// rule-50 plane, like encoded positions but unconstrained.
func randomPlanes(rng *rand.Rand) []float32 {
	in := make([]float32, InputSize)
	for i := range in {
		if rng.IntN(8) == 0 {
			in[i] = 1
		}
	}
	for s := range 64 {
		in[planeRule50*PlaneSize+s] = 17
	}
	return in
}

// TestForwardMatchesReference checks the optimised float32 forward pass
// against the float64 reference on random networks (odd channel counts
// exercise the kernel's remainder paths) and, when ../shared has them, the
// real Maia-1 1500 weights on encoded game positions.
func TestForwardMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name                               string
		filters, blocks, se, value, hidden int
	}{{"7 filters", 7, 1, 3, 5, 9}, {"16 filters", 16, 2, 4, 8, 32}} {
		t.Run(c.name, func(t *testing.T) {
			net := randomNet(rng, c.filters, c.blocks, c.se, c.value, c.hidden)
			inputs := [][]float32{randomPlanes(rng), randomPlanes(rng), randomPlanes(rng)}
			dl, dw := compareForward(t, net, inputs)
			if dl > 1e-4 || dw > 1e-5 {
				t.Errorf("max |Δlogit| = %g, max |ΔWDL| = %g, want ≤ 1e-4 and ≤ 1e-5", dl, dw)
			}
		})
	}
	t.Run("maia-1500", func(t *testing.T) {
		path := filepath.Join(sharedWeights, "maia-1500.pb.gz")
		if _, err := os.Stat(path); err != nil {
			t.Skip("Maia-1 weights not available in ../shared")
		}
		net, err := lc0.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs := [][]float32{
			planes(t, ""),
			planes(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"),
			planes(t, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 12 40"),
		}
		dl, dw := compareForward(t, net, inputs)
		t.Logf("max |Δlogit| = %.2g, max |ΔWDL| = %.2g", dl, dw)
		if dl > 1e-4 || dw > 1e-5 {
			t.Errorf("max |Δlogit| = %g, max |ΔWDL| = %g, want ≤ 1e-4 and ≤ 1e-5", dl, dw)
		}
	})
}

// TestNewForwardShapes rejects networks the forward pass does not
// implement, naming the layer.
func TestNewForwardShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bad := randomNet(rng, 8, 1, 2, 4, 8)
	bad.Blocks[0].Conv2.K = 1
	if _, err := NewForward(bad); err == nil {
		t.Error("1×1 tower convolution accepted")
	}
	bad = randomNet(rng, 8, 1, 2, 4, 8)
	bad.Value1.In++
	if _, err := NewForward(bad); err == nil {
		t.Error("mismatched value head accepted")
	}
	if _, err := NewForward(nil); err == nil {
		t.Error("nil network accepted")
	}
	good := randomNet(rng, 8, 1, 2, 4, 8)
	fw, err := NewForward(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Eval(make([]float32, InputSize-1), make([]float32, PolicySize), make([]float32, 3)); err == nil {
		t.Error("short input accepted")
	}
}

// BenchmarkForward times the pure-Go forward pass of the Maia-1 1500 net on
// one position, single-threaded.
//
//	go test ./models/maia1 -run '^$' -bench Forward
func BenchmarkForward(b *testing.B) {
	net, err := lc0.ReadFile(filepath.Join(sharedWeights, "maia-1500.pb.gz"))
	if err != nil {
		b.Skip("Maia-1 weights not available in ../shared")
	}
	fw, err := NewForward(net)
	if err != nil {
		b.Fatal(err)
	}
	in := make([]float32, InputSize)
	for i := range in {
		in[i] = float32(i%7) / 7
	}
	pol, wdl := make([]float32, PolicySize), make([]float32, 3)
	for b.Loop() {
		if err := fw.Eval(in, pol, wdl); err != nil {
			b.Fatal(err)
		}
	}
}
