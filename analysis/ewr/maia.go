package ewr

import (
	"context"

	"github.com/outpostchess/outpost/models"
)

// MaiaProber is the MoveProber of a models.Predictor: each request becomes
// one Predictor request (the nearest Maia-1 level to the side to move's
// rating) and one call carries a whole tree level, which the Predictor
// batches.
type MaiaProber struct {
	P *models.Predictor
	// Model forces a model ("maia2", "maia-1500"); empty picks the Maia-1
	// level nearest each request's rating.
	Model string
}

// NewMaiaProber returns the prober of p.
func NewMaiaProber(p *models.Predictor) *MaiaProber { return &MaiaProber{P: p} }

// Probe implements MoveProber.
func (m *MaiaProber) Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error) {
	mr := make([]models.Request, len(reqs))
	for i, r := range reqs {
		mr[i] = models.Request{StartFEN: r.StartFEN, Moves: r.Moves, Chess960: r.Chess960, Rating: r.Rating, OppRating: r.OppRating, Model: m.Model}
	}
	preds, err := m.P.Predict(ctx, mr)
	if err != nil {
		return nil, err
	}
	out := make([][]MoveProb, len(preds))
	for i, pr := range preds {
		ms := make([]MoveProb, len(pr.Moves))
		for j, x := range pr.Moves {
			ms[j] = MoveProb{UCI: x.UCI, P: x.P}
		}
		out[i] = ms
	}
	return out, nil
}

// New returns a Calculator on real engines: Maia through pred, Stockfish
// through ev (StartEngines, or PoolEvaluator for an analysis.Pool), and
// cache (nil for none; an internal/store *Store works).
func New(pred *models.Predictor, ev Evaluator, cache Cache) *Calculator {
	c := &Calculator{Prober: NewMaiaProber(pred), Evaluator: ev}
	if cache != nil {
		c.Cache = cache
	}
	return c
}
