// Package maiaengine is the Maia engine: it plays the move a human of a given
// rating is most likely to play, as predicted by a Maia-1 network, or samples
// from the predicted distribution with a temperature.
package maiaengine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/models"
)

// Option configures an Engine.
type Option func(*Engine) error

// WithTemperature sets the sampling temperature: 0 (the default) always plays
// the most likely move; T > 0 samples with probabilities proportional to
// p^(1/T) (T = 1 samples from the model's distribution).
func WithTemperature(t float64) Option {
	return func(e *Engine) error {
		if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("maia: temperature %v must be a finite number >= 0", t)
		}
		e.temperature = t
		return nil
	}
}

// WithSeed makes sampling reproducible.
func WithSeed(seed uint64) Option {
	return func(e *Engine) error {
		e.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		return nil
	}
}

// Engine is a Maia engine bound to one rating level. It is safe for
// concurrent use. It does not own the Predictor: Close leaves it open.
type Engine struct {
	pred  *models.Predictor
	model string

	mu          sync.Mutex
	temperature float64
	rng         *rand.Rand
}

// New returns the Maia engine for the Maia-1 level nearest rating.
func New(pred *models.Predictor, rating int, opts ...Option) (*Engine, error) {
	if pred == nil {
		return nil, errors.New("maia: nil predictor")
	}
	e := &Engine{pred: pred, model: models.Maia1Name(models.NearestMaia1(rating)),
		rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
	for _, o := range opts {
		if err := o(e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Name returns the model name, e.g. "maia-1500".
func (e *Engine) Name() string { return e.model }

// Variants implements engine.VariantPlayer: Maia plays standard chess only.
func (e *Engine) Variants() []string { return engine.NeuralVariants() }

// Close does nothing: the Predictor belongs to the caller.
func (e *Engine) Close() error { return nil }

// Info describes the engine.
func (e *Engine) Info() engine.Info {
	return engine.Info{Name: e.model, Author: "Maia (CSSLab), run by Outpost", Version: "1", Kind: engine.KindNeural,
		Features: map[string]bool{"wdl": true, "sampling": true}}
}

// Configure accepts "temperature" (>= 0) and "seed".
func (e *Engine) Configure(options map[string]string) error {
	for k, v := range options {
		switch k {
		case "temperature":
			t, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("maia: temperature %q: %w", v, err)
			}
			e.mu.Lock()
			err = WithTemperature(t)(e)
			e.mu.Unlock()
			if err != nil {
				return err
			}
		case "seed":
			s, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return fmt.Errorf("maia: seed %q: %w", v, err)
			}
			e.mu.Lock()
			_ = WithSeed(s)(e)
			e.mu.Unlock()
		default:
			return fmt.Errorf("maia: unknown option %q (want temperature or seed)", k)
		}
	}
	return nil
}

// SelectMove predicts the position and plays the most likely move (or a
// sampled one). The score is the value head's expected score converted to
// centipawns. Limits are ignored: one network evaluation is the whole search.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	pr, err := e.pred.PredictOne(ctx, models.Request{StartFEN: pos.StartFEN, Moves: pos.Moves, Chess960: pos.Chess960, Model: e.model})
	if err != nil {
		return engine.Move{}, fmt.Errorf("maia: %w", err)
	}
	if len(pr.Moves) == 0 {
		return engine.Move{}, errors.New("maia: no legal moves (game over)")
	}
	best := pr.Moves[0].UCI
	e.mu.Lock()
	if e.temperature > 0 {
		best = e.sample(pr)
	}
	e.mu.Unlock()
	return engine.Move{UCI: best, Score: score.CP(WinToCP(pr.Win)), HasScore: true, Depth: 1, Nodes: 1, PV: []string{best}}, nil
}

// sample draws a move with probability proportional to p^(1/T).
func (e *Engine) sample(pr models.Prediction) string {
	w := make([]float64, len(pr.Moves))
	var sum float64
	for i, m := range pr.Moves {
		w[i] = math.Pow(m.P, 1/e.temperature)
		sum += w[i]
	}
	if sum <= 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return pr.Moves[0].UCI
	}
	x := e.rng.Float64() * sum
	for i, m := range pr.Moves {
		x -= w[i]
		if x < 0 {
			return m.UCI
		}
	}
	return pr.Moves[len(pr.Moves)-1].UCI
}

// WinToCP converts an expected score in [0,1] to centipawns with the
// inverse of Lichess's winning-chances curve, clamped to ±1000.
func WinToCP(win float64) int {
	c := 2*win - 1
	c = math.Max(-0.999, math.Min(0.999, c))
	cp := math.Log((1+c)/(1-c)) / 0.00368208
	return int(math.Round(math.Max(-1000, math.Min(1000, cp))))
}

var (
	_ engine.Configurable = (*Engine)(nil)
	_ engine.Inspectable  = (*Engine)(nil)
)
