package lc0

import (
	"errors"
	"fmt"
	"math"
)

// build dequantises the raw layers, checks every shape and folds batch norm.
func build(w *rawWeights) (*Net, error) {
	if !w.input.present || !w.input.weights.present {
		return nil, errors.New("missing input convolution")
	}
	n := &Net{}
	in, err := foldConv(w.input, InputPlanes, 3, "input")
	if err != nil {
		return nil, err
	}
	n.Input, n.Filters = in, in.Out
	if n.Filters == 0 {
		return nil, errors.New("input convolution has no filters")
	}
	if len(w.residual) == 0 {
		return nil, errors.New("no residual blocks")
	}
	for i, r := range w.residual {
		name := fmt.Sprintf("block %d", i)
		c1, err := foldConvOut(r.conv1, n.Filters, n.Filters, 3, name+" conv1")
		if err != nil {
			return nil, err
		}
		c2, err := foldConvOut(r.conv2, n.Filters, n.Filters, 3, name+" conv2")
		if err != nil {
			return nil, err
		}
		if !r.hasSE {
			return nil, fmt.Errorf("%s: missing squeeze-excitation unit", name)
		}
		se, err := buildSE(r.se, n.Filters, name)
		if err != nil {
			return nil, err
		}
		n.Blocks = append(n.Blocks, Residual{Conv1: c1, Conv2: c2, SE: se})
	}
	if !w.policy1.present {
		return nil, errors.New("missing policy1 convolution (only convolutional policy heads are supported)")
	}
	if n.Policy1, err = foldConvOut(w.policy1, n.Filters, n.Filters, 3, "policy1"); err != nil {
		return nil, err
	}
	if n.Policy, err = foldConvOut(w.policy, PolicyChannels, n.Filters, 3, "policy"); err != nil {
		return nil, err
	}
	if n.Value, err = foldConv(w.value, n.Filters, 1, "value"); err != nil {
		return nil, err
	}
	if n.Value1, err = dense(w.ip1ValW, w.ip1ValB, n.Value.Out*64, "ip1_val"); err != nil {
		return nil, err
	}
	if n.Value2, err = dense(w.ip2ValW, w.ip2ValB, n.Value1.Out, "ip2_val"); err != nil {
		return nil, err
	}
	if n.Value2.Out != 3 {
		return nil, fmt.Errorf("ip2_val: %d outputs, want 3 (WDL)", n.Value2.Out)
	}
	return n, nil
}

// foldConvOut is foldConv that also checks the output channel count.
func foldConvOut(c convBlock, out, in, k int, name string) (Conv, error) {
	conv, err := foldConv(c, in, k, name)
	if err != nil {
		return Conv{}, err
	}
	if conv.Out != out {
		return Conv{}, fmt.Errorf("%s: %d output channels, want %d", name, conv.Out, out)
	}
	return conv, nil
}

// foldConv dequantises a conv block with in input channels and a k×k kernel
// and folds its batch norm: s = gamma/sqrt(var+eps), W' = W*s,
// b' = beta - s*(mean - bias). Missing gamma is 1, missing beta/bias 0.
func foldConv(c convBlock, in, k int, name string) (Conv, error) {
	if !c.present || !c.weights.present {
		return Conv{}, fmt.Errorf("%s: missing convolution weights", name)
	}
	w, err := c.weights.dequantise()
	if err != nil {
		return Conv{}, fmt.Errorf("%s weights: %w", name, err)
	}
	per := in * k * k
	if len(w) == 0 || len(w)%per != 0 {
		return Conv{}, fmt.Errorf("%s: %d weights is not a multiple of %d×%d×%d", name, len(w), in, k, k)
	}
	out := len(w) / per
	vec := func(l layer, what string, def float32) ([]float32, error) {
		if !l.present {
			v := make([]float32, out)
			for i := range v {
				v[i] = def
			}
			return v, nil
		}
		v, err := l.dequantise()
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", name, what, err)
		}
		if len(v) != out {
			return nil, fmt.Errorf("%s %s: %d values, want %d", name, what, len(v), out)
		}
		return v, nil
	}
	bias, err := vec(c.biases, "biases", 0)
	if err != nil {
		return Conv{}, err
	}
	conv := Conv{Out: out, In: in, K: k, W: w, B: bias}
	if !c.means.present && !c.stddivs.present {
		return conv, nil
	}
	if !c.means.present || !c.stddivs.present {
		return Conv{}, fmt.Errorf("%s: batch norm needs both means and variances", name)
	}
	var bn [4][]float32 // means, variances, gammas, betas
	for i, v := range []struct {
		l    layer
		what string
		def  float32
	}{
		{c.means, "bn_means", 0}, {c.stddivs, "bn_stddivs", 1},
		{c.gammas, "bn_gammas", 1}, {c.betas, "bn_betas", 0},
	} {
		if bn[i], err = vec(v.l, v.what, v.def); err != nil {
			return Conv{}, err
		}
	}
	means, vars, gammas, betas := bn[0], bn[1], bn[2], bn[3]
	for o := 0; o < out; o++ {
		if vars[o] < 0 {
			return Conv{}, fmt.Errorf("%s: negative variance %v in channel %d", name, vars[o], o)
		}
		s := float64(gammas[o]) / math.Sqrt(float64(vars[o])+bnEpsilon)
		for i := o * per; i < (o+1)*per; i++ {
			w[i] = float32(float64(w[i]) * s)
		}
		bias[o] = float32(float64(betas[o]) - s*(float64(means[o])-float64(bias[o])))
	}
	return conv, nil
}

// dense dequantises a fully connected layer with in inputs.
func dense(wl, bl layer, in int, name string) (Dense, error) {
	if !wl.present || !bl.present {
		return Dense{}, fmt.Errorf("%s: missing weights or biases", name)
	}
	w, err := wl.dequantise()
	if err != nil {
		return Dense{}, fmt.Errorf("%s weights: %w", name, err)
	}
	b, err := bl.dequantise()
	if err != nil {
		return Dense{}, fmt.Errorf("%s biases: %w", name, err)
	}
	if len(b) == 0 || len(w) != len(b)*in {
		return Dense{}, fmt.Errorf("%s: %d weights and %d biases do not make a %d-input layer", name, len(w), len(b), in)
	}
	return Dense{Out: len(b), In: in, W: w, B: b}, nil
}

func buildSE(s seUnit, filters int, name string) (SE, error) {
	w1, err := s.w1.dequantise()
	if err != nil {
		return SE{}, fmt.Errorf("%s se w1: %w", name, err)
	}
	if len(w1) == 0 || len(w1)%filters != 0 {
		return SE{}, fmt.Errorf("%s se: %d w1 weights is not a multiple of %d", name, len(w1), filters)
	}
	fc1, err := dense(s.w1, s.b1, filters, name+" se fc1")
	if err != nil {
		return SE{}, err
	}
	fc2, err := dense(s.w2, s.b2, fc1.Out, name+" se fc2")
	if err != nil {
		return SE{}, err
	}
	if fc2.Out != 2*filters {
		return SE{}, fmt.Errorf("%s se: fc2 has %d outputs, want %d", name, fc2.Out, 2*filters)
	}
	return SE{FC1: fc1, FC2: fc2}, nil
}
