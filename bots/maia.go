package bots

import (
	"context"
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/maia"
	"github.com/outpostchess/outpost/models"
)

// WithPredictor shares a Maia predictor with the maia-* engines New builds
// (it stays open when they close). Without it each maia engine opens its own
// predictor from the models configuration (environment and defaults) and
// closes it with the engine.
func WithPredictor(p *models.Predictor) Option {
	return func(c *config) error {
		if p == nil {
			return errors.New("bots: nil predictor")
		}
		c.predictor = p
		return nil
	}
}

// maiaBuilders returns a builder for each Maia-1 level ("maia-1100" …
// "maia-1900").
func maiaBuilders() map[string]builder {
	m := map[string]builder{}
	for _, level := range models.Maia1Levels {
		m[models.Maia1Name(level)] = buildMaia(level)
	}
	return m
}

func buildMaia(level int) builder {
	return func(ctx context.Context, s Spec, c *config) (engine.Engine, error) {
		pred, owned := c.predictor, false
		if pred == nil {
			cfg, err := models.LoadConfig()
			if err != nil {
				return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
			}
			if pred, err = models.NewPredictor(cfg); err != nil {
				return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
			}
			owned = true
		}
		closePred := func() {
			if owned {
				_ = pred.Close()
			}
		}
		if err := warmMaia(ctx, pred, models.Maia1Name(level)); err != nil {
			closePred()
			return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
		}
		var opts []maia.Option
		if c.seeded {
			opts = append(opts, maia.WithSeed(c.seed))
		}
		e, err := maia.New(pred, level, opts...)
		if err != nil {
			closePred()
			return nil, fmt.Errorf("bots: %s: %w", s.Name, err)
		}
		var out engine.Engine = e
		if owned {
			out = &ownedPredictor{Engine: e, pred: pred}
		}
		return configure(out, c.options(s))
	}
}

// ownedPredictor is a maia engine that closes its own predictor.
type ownedPredictor struct {
	*maia.Engine
	pred *models.Predictor
}

// Close closes the engine and its predictor.
func (o *ownedPredictor) Close() error {
	return errors.Join(o.Engine.Close(), o.pred.Close())
}

// warmMaia loads a Maia model and, when it has evaluated nothing yet, runs
// it once on the start position. A runtime's first evaluation of a model
// pays for its allocations and kernel choices (many times one move's
// evaluation), and a Maia engine's single evaluation has no best move so
// far to answer with at a deadline: paying that first cost while the engine
// is built, before any clock runs, keeps the first move within its budget.
func warmMaia(ctx context.Context, pred *models.Predictor, model string) error {
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
