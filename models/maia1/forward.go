package maia1

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/outpostchess/outpost/models/lc0"
)

// Forward is the pure-Go forward pass of a Maia-1 network: the same
// computation as the ONNX graph BuildONNX writes (input convolution, SE
// residual tower, convolutional policy head gathered to 1858 logits, WDL
// value head with softmax), in float32, for builds without ONNX Runtime.
// It is safe for concurrent use; each evaluation uses its own scratch
// buffers, recycled through a pool owned by the Forward.
type Forward struct {
	net    *lc0.Net
	gather [PolicySize]int64
	pool   sync.Pool // *scratch
}

// scratch holds one position's intermediate tensors.
type scratch struct {
	x, y, z []float32 // tower activations, [Filters][64] each
	pol     []float32 // policy conv output, [80][64]
	val     []float32 // value conv output, [value channels][64]
	hidden  []float32 // value hidden layer
	se      []float32 // SE squeeze, hidden and excitation vectors
	cols    []float32 // column matrix of the widest convolution
	par     int       // goroutines per convolution (output channels split)
}

// convShape is the shape a convolution of the network must have.
type convShape struct {
	name          string
	c             lc0.Conv
	in, out, kern int
}

// NewForward checks that net has the shapes the forward pass implements
// (3×3 tower and policy convolutions, 1×1 value convolution, 80 policy
// channels, 112 input planes) and returns its evaluator.
func NewForward(net *lc0.Net) (*Forward, error) {
	if net == nil || len(net.Blocks) == 0 {
		return nil, fmt.Errorf("maia1: empty network")
	}
	f := net.Filters
	checks := []convShape{
		{"input", net.Input, Planes, f, 3},
		{"policy1", net.Policy1, f, f, 3},
		{"policy", net.Policy, f, lc0.PolicyChannels, 3},
		{"value", net.Value, f, net.Value.Out, 1},
	}
	for i, b := range net.Blocks {
		checks = append(checks,
			convShape{fmt.Sprintf("block %d conv1", i), b.Conv1, f, f, 3},
			convShape{fmt.Sprintf("block %d conv2", i), b.Conv2, f, f, 3})
	}
	for _, c := range checks {
		if c.c.In != c.in || c.c.Out != c.out || c.c.K != c.kern || len(c.c.W) != c.out*c.in*c.kern*c.kern || len(c.c.B) != c.out {
			return nil, fmt.Errorf("maia1: %s convolution is %d→%d %d×%d, want %d→%d %d×%d",
				c.name, c.c.In, c.c.Out, c.c.K, c.c.K, c.in, c.out, c.kern, c.kern)
		}
	}
	if net.Value1.In != net.Value.Out*PlaneSize || net.Value2.In != net.Value1.Out || net.Value2.Out != 3 {
		return nil, fmt.Errorf("maia1: value head %d→%d→%d does not fit %d value channels", net.Value1.In, net.Value1.Out, net.Value2.Out, net.Value.Out)
	}
	fw := &Forward{net: net, gather: policy.gather}
	fw.pool.New = func() any { return fw.newScratch() }
	return fw, nil
}

// newScratch allocates the buffers of one evaluation.
func (fw *Forward) newScratch() *scratch {
	n := fw.net
	plane := n.Filters * PlaneSize
	se := 0
	for _, b := range n.Blocks {
		se = max(se, n.Filters+b.SE.FC1.Out+b.SE.FC2.Out)
	}
	return &scratch{
		x: make([]float32, plane), y: make([]float32, plane), z: make([]float32, plane),
		pol:    make([]float32, n.Policy.Out*PlaneSize),
		val:    make([]float32, n.Value.Out*PlaneSize),
		hidden: make([]float32, n.Value1.Out+3),
		se:     make([]float32, se),
		cols:   make([]float32, PlaneSize*max(Planes, n.Filters)*9),
	}
}

// Eval evaluates one position: in holds its InputSize input planes (as
// Encode writes them), policy receives the PolicySize logits and wdl the
// softmaxed [win, draw, loss] of the side to move.
func (fw *Forward) Eval(in, policy, wdl []float32) error {
	return fw.eval(in, policy, wdl, 1)
}

// eval is Eval with each convolution's output channels split over par
// goroutines.
func (fw *Forward) eval(in, policy, wdl []float32, par int) error {
	if len(in) != InputSize || len(policy) != PolicySize || len(wdl) != 3 {
		return fmt.Errorf("maia1: eval buffers of %d, %d and %d floats, want %d, %d and 3", len(in), len(policy), len(wdl), InputSize, PolicySize)
	}
	s := fw.pool.Get().(*scratch)
	defer fw.pool.Put(s)
	s.par = par
	fw.tower(s, in)
	fw.policyHead(s, policy)
	fw.valueHead(s, wdl)
	return nil
}

// EvalBatch evaluates n positions laid out one after another in in, policy
// and wdl with up to workers goroutines: several positions go to separate
// goroutines, each evaluated whole (no synchronisation inside a forward
// pass); a single position has its convolutions' output channels split
// over the workers instead, for the latency of one move. It returns when
// all are done.
func (fw *Forward) EvalBatch(in, policy, wdl []float32, n, workers int) error {
	if len(in) < n*InputSize || len(policy) < n*PolicySize || len(wdl) < n*3 {
		return fmt.Errorf("maia1: batch buffers too small for %d positions", n)
	}
	if n == 1 {
		return fw.eval(in[:InputSize], policy[:PolicySize], wdl[:3], max(1, workers))
	}
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				// The lengths were checked above, so eval cannot fail.
				_ = fw.eval(in[k*InputSize:(k+1)*InputSize], policy[k*PolicySize:(k+1)*PolicySize], wdl[k*3:k*3+3], 1)
			}
		})
	}
	wg.Wait()
	return nil
}

// tower runs the input convolution and the residual blocks, leaving the
// tower's output in s.x.
func (fw *Forward) tower(s *scratch, in []float32) {
	n := fw.net
	applyConv(s.x, in, n.Input, s.cols, s.par)
	relu(s.x)
	for i := range n.Blocks {
		b := &n.Blocks[i]
		applyConv(s.y, s.x, b.Conv1, s.cols, s.par)
		relu(s.y)
		applyConv(s.z, s.y, b.Conv2, s.cols, s.par)
		squeezeExcite(s.z, &b.SE, s.se)
		for j, v := range s.z {
			s.x[j] = max(0, v+s.x[j])
		}
	}
}
