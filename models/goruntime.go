package models

import (
	"fmt"

	"github.com/outpostchess/outpost/models/maia1"
)

// goEvaluator runs Maia-1 batches on the pure-Go forward pass
// (maia1.Forward), spreading each batch's positions over threads
// goroutines. It has no ONNX Runtime session and nothing to release.
type goEvaluator struct {
	fw      *maia1.Forward
	threads int
}

// eval evaluates count positions of the Maia-1 input port into the policy
// and WDL ports.
func (g *goEvaluator) eval(ins, outs []port, inF [][]float32, _ [][]int64, out [][]float32, count int) error {
	if len(ins) != 1 || len(outs) != 2 {
		return fmt.Errorf("models: the pure-Go runtime runs Maia-1 only (%d inputs, %d outputs)", len(ins), len(outs))
	}
	return g.fw.EvalBatch(inF[0][:count*maia1.InputSize], out[0][:count*maia1.PolicySize], out[1][:count*3], count, g.threads)
}

func (*goEvaluator) close() error { return nil }
