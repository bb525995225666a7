package maiaengine

import (
	"context"
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/models"
)

// Names returns the engine names Register adds: "maia-1100" … "maia-1900".
func Names() []string {
	out := make([]string, 0, len(models.Maia1Levels))
	for _, level := range models.Maia1Levels {
		out = append(out, models.Maia1Name(level))
	}
	return out
}

// Register is the bots.New option that adds the maia-NNNN engines (one per
// Maia-1 level). With a predictor the engines share it (it stays open when
// they close); with nil each engine opens its own predictor from the models
// configuration (environment and defaults) and closes it with the engine,
// so a machine without ONNX Runtime or the weights fails at build time,
// naming what is missing, rather than with "unknown engine". The engines
// live beside the models (floor 2), so the app registers them: bots (floor
// 1) does not import models.
func Register(pred *models.Predictor) bots.Option {
	b := map[string]bots.Builder{}
	for _, level := range models.Maia1Levels {
		b[models.Maia1Name(level)] = builder(pred, level)
	}
	return bots.WithEngines(b)
}

func builder(shared *models.Predictor, level int) bots.Builder {
	return func(ctx context.Context, s bots.Spec, seed bots.Seed) (engine.Engine, error) {
		pred, owned := shared, false
		if pred == nil {
			cfg, err := models.LoadConfig()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
			if pred, err = models.NewPredictor(cfg); err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
			owned = true
		}
		closePred := func() {
			if owned {
				_ = pred.Close()
			}
		}
		if err := warm(ctx, pred, models.Maia1Name(level)); err != nil {
			closePred()
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		var opts []Option
		if seed.Set {
			opts = append(opts, WithSeed(seed.Value))
		}
		e, err := New(pred, level, opts...)
		if err != nil {
			closePred()
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		if owned {
			return &ownedPredictor{Engine: e, pred: pred}, nil
		}
		return e, nil
	}
}

// ownedPredictor is a maia engine that closes its own predictor.
type ownedPredictor struct {
	*Engine
	pred *models.Predictor
}

// Close closes the engine and its predictor.
func (o *ownedPredictor) Close() error {
	return errors.Join(o.Engine.Close(), o.pred.Close())
}

// warm loads a Maia model and, when it has evaluated nothing yet, runs it
// once on the start position. A runtime's first evaluation of a model pays
// for its allocations and kernel choices (many times one move's
// evaluation), and a Maia engine's single evaluation has no best move so
// far to answer with at a deadline: paying that first cost while the engine
// is built, before any clock runs, keeps the first move within its budget.
func warm(ctx context.Context, pred *models.Predictor, model string) error {
	if err := pred.Load(model); err != nil {
		return err
	}
	if pred.Stats()[model].Positions > 0 {
		return nil
	}
	if _, err := pred.PredictOne(ctx, models.Request{Model: model}); err != nil {
		return fmt.Errorf("warm-up evaluation: %w", err)
	}
	return nil
}
