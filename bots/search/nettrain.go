package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/outpostchess/outpost/bots/board"
)

// NetSample is one training position for TrainNet: the position and its
// target score in centipawns from the side to move's point of view (a
// stronger engine's search score).
type NetSample struct {
	stm, nstm [32]uint16 // input indices seen by the side to move and by the other side
	n         uint8      // pieces on the board (entries used in stm and nstm)
	Target    float32    // win probability, sigmoid(cp / netScale)
	base      float32    // the hand-written evaluation (EvalPlus) in logit units: the network learns the rest
}

// NewNetSample builds a sample of b scored cp centipawns for the side to
// move.
func NewNetSample(b *board.Board, cp int) (NetSample, error) {
	var s NetSample
	us := b.SideToMove()
	for sq := range 64 {
		p := b.PieceAt(board.Square(sq))
		if p == board.NoPiece {
			continue
		}
		if s.n == 32 {
			return NetSample{}, fmt.Errorf("search: net sample %s: more than 32 pieces", b.FEN())
		}
		s.stm[s.n] = uint16(netFeature(us, p, board.Square(sq)))
		s.nstm[s.n] = uint16(netFeature(us^1, p, board.Square(sq)))
		s.n++
	}
	s.Target = float32(logistic(float64(cp) / netScale))
	s.base = float32(Evaluate(b, EvalPlus)) / netScale
	return s, nil
}

// TrainOptions configures TrainNet.
type TrainOptions struct {
	Epochs       int     // passes over the samples (default 30)
	Batch        int     // samples per Adam step (default 16384)
	LearningRate float64 // Adam's step (default 0.001), divided by 10 over the last third of the epochs
	WeightDecay  float64 // decoupled weight decay per step, times the learning rate (AdamW); 0: none
	Seed         uint64  // initial weights and shuffling
	// Init, when set, is the network training starts from instead of
	// random weights (fine-tuning on new samples), and weight decay then
	// pulls toward Init's weights instead of toward zero: the new samples
	// move the network only where they say something.
	Init *Net
	// Progress, when set, is called after each epoch with the mean
	// squared error on the training samples and on holdOut.
	Progress func(epoch int, train, holdOut float64)
}

// floatNet is the network in floating point while it trains.
type floatNet struct {
	w1 []float32 // netInputs × netHidden
	b1 []float32
	w2 []float32 // 2 × netHidden
	b2 []float32 // one value
}

func (f *floatNet) params() [][]float32 {
	return [][]float32{f.w1, f.b1, f.w2, f.b2}
}

// TrainNet fits a network to samples by minimising the squared error
// between sigmoid(EvalPlus/400 + output) and each sample's target, with
// Adam over mini-batches (decoupled weight decay: the correction stays
// small where the data say little), and returns it quantised. holdOut is
// only measured.
func TrainNet(ctx context.Context, samples, holdOut []NetSample, opts TrainOptions) (*Net, error) {
	if len(samples) == 0 {
		return nil, fmt.Errorf("search: train net: no samples")
	}
	if opts.Epochs == 0 {
		opts.Epochs = 30
	}
	if opts.Batch == 0 {
		opts.Batch = 16384
	}
	if opts.LearningRate == 0 {
		opts.LearningRate = 0.001
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6f7574706f7374))
	net, anchor := newFloatNet(rng), (*floatNet)(nil)
	if opts.Init != nil {
		net, anchor = opts.Init.dequantise(), opts.Init.dequantise()
	}
	grad := zeroFloatNet()
	opt := newNetAdam(net.params())
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	for ep := 1; ep <= opts.Epochs; ep++ {
		lr := opts.LearningRate
		if ep > opts.Epochs*2/3 {
			lr /= 10
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss float64
		for start := 0; start < len(order); start += opts.Batch {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("search: train net: %w", err)
			}
			batch := order[start:min(start+opts.Batch, len(order))]
			for _, p := range grad.params() {
				clear(p)
			}
			for _, i := range batch {
				loss += net.backward(&samples[i], grad)
			}
			opt.step(net, grad, anchor, lr, opts.WeightDecay)
		}
		if opts.Progress != nil {
			opts.Progress(ep, loss/float64(len(samples)), net.meanLoss(holdOut))
		}
	}
	return net.quantise(), nil
}

// zeroFloatNet is a network (or a gradient) of zeros.
func zeroFloatNet() *floatNet {
	return &floatNet{w1: make([]float32, netInputs*netHidden), b1: make([]float32, netHidden), w2: make([]float32, 2*netHidden), b2: make([]float32, 1)}
}

func newFloatNet(rng *rand.Rand) *floatNet {
	f := zeroFloatNet()
	// Uniform initial weights of about 1/sqrt(fan-in): ~30 active inputs
	// per view, 2×netHidden units into the output.
	for i := range f.w1 {
		f.w1[i] = float32((rng.Float64()*2 - 1) / math.Sqrt(30))
	}
	for i := range f.w2 {
		f.w2[i] = float32((rng.Float64()*2 - 1) / math.Sqrt(2*netHidden))
	}
	return f
}

// forward returns the hidden sums of both views and the output logit.
func (f *floatNet) forward(s *NetSample, hs, hn *[netHidden]float32) float32 {
	copy(hs[:], f.b1)
	copy(hn[:], f.b1)
	for k := range s.n {
		ws := f.w1[int(s.stm[k])*netHidden:][:netHidden]
		wn := f.w1[int(s.nstm[k])*netHidden:][:netHidden]
		for i := range netHidden {
			hs[i] += ws[i]
			hn[i] += wn[i]
		}
	}
	out := f.b2[0]
	for i := range netHidden {
		out += clamp01(hs[i])*f.w2[i] + clamp01(hn[i])*f.w2[netHidden+i]
	}
	return out
}

// backward adds the gradient of s's squared error to g and returns the
// error.
func (f *floatNet) backward(s *NetSample, g *floatNet) float64 {
	var hs, hn [netHidden]float32
	p := float32(logistic(float64(s.base + f.forward(s, &hs, &hn))))
	diff := p - s.Target
	d := 2 * diff * p * (1 - p)
	g.b2[0] += d
	var ds, dn [netHidden]float32
	for i := range netHidden {
		g.w2[i] += d * clamp01(hs[i])
		g.w2[netHidden+i] += d * clamp01(hn[i])
		if hs[i] > 0 && hs[i] < 1 {
			ds[i] = d * f.w2[i]
		}
		if hn[i] > 0 && hn[i] < 1 {
			dn[i] = d * f.w2[netHidden+i]
		}
		g.b1[i] += ds[i] + dn[i]
	}
	for k := range s.n {
		gs := g.w1[int(s.stm[k])*netHidden:][:netHidden]
		gn := g.w1[int(s.nstm[k])*netHidden:][:netHidden]
		for i := range netHidden {
			gs[i] += ds[i]
			gn[i] += dn[i]
		}
	}
	return float64(diff * diff)
}

// meanLoss is the mean squared error over samples (0 for none).
func (f *floatNet) meanLoss(samples []NetSample) float64 {
	if len(samples) == 0 {
		return 0
	}
	var sum float64
	var hs, hn [netHidden]float32
	for i := range samples {
		p := float32(logistic(float64(samples[i].base + f.forward(&samples[i], &hs, &hn))))
		d := float64(p - samples[i].Target)
		sum += d * d
	}
	return sum / float64(len(samples))
}

// quantise rounds the network to Net's fixed point.
func (f *floatNet) quantise() *Net {
	n := new(Net)
	q := func(x float32, scale float64) int16 {
		return int16(max(-32767, min(32767, math.Round(float64(x)*scale))))
	}
	for in := range netInputs {
		for i := range netHidden {
			n.w1[in][i] = q(f.w1[in*netHidden+i], netQA)
		}
	}
	for i := range netHidden {
		n.b1[i] = q(f.b1[i], netQA)
	}
	for i := range n.w2 {
		n.w2[i] = q(f.w2[i], netQB)
	}
	n.b2 = int32(math.Round(float64(f.b2[0]) * netQA * netQB))
	return n
}

// dequantise is quantise's inverse: n in floating point.
func (n *Net) dequantise() *floatNet {
	f := zeroFloatNet()
	for in := range netInputs {
		for i := range netHidden {
			f.w1[in*netHidden+i] = float32(float64(n.w1[in][i]) / netQA)
		}
	}
	for i := range netHidden {
		f.b1[i] = float32(float64(n.b1[i]) / netQA)
	}
	for i := range n.w2 {
		f.w2[i] = float32(float64(n.w2[i]) / netQB)
	}
	f.b2[0] = float32(float64(n.b2) / (netQA * netQB))
	return f
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }

// netAdam is Adam's optimiser (β1 0.9, β2 0.999) over a floatNet's
// parameters.
type netAdam struct {
	m, v [][]float32
	t    int
}

func newNetAdam(params [][]float32) *netAdam {
	a := &netAdam{}
	for _, p := range params {
		a.m = append(a.m, make([]float32, len(p)))
		a.v = append(a.v, make([]float32, len(p)))
	}
	return a
}

// step moves net against the gradient g (a batch's sum: Adam's step does
// not depend on the gradient's scale) by learning rate lr, and decays each
// weight toward anchor's (toward zero when anchor is nil).
func (a *netAdam) step(net, g, anchor *floatNet, lr, decay float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	ps, gs := net.params(), g.params()
	var as [][]float32
	if anchor != nil {
		as = anchor.params()
	}
	for k, p := range ps {
		m, v, gr := a.m[k], a.v[k], gs[k]
		for i := range p {
			x := float64(gr[i])
			m[i] = float32(b1*float64(m[i]) + (1-b1)*x)
			v[i] = float32(b2*float64(v[i]) + (1-b2)*x*x)
			toward := 0.0
			if as != nil {
				toward = float64(as[k][i])
			}
			p[i] -= float32(lr*(float64(m[i])/c1)/(math.Sqrt(float64(v[i])/c2)+eps) + lr*decay*(float64(p[i])-toward))
		}
	}
}

// logistic is 1 / (1 + e^-x): the network's output as a win probability.
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
