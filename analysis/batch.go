package analysis

import (
	"context"
	"fmt"
)

// BatchOptions is how AnalyseBatch analyses games.
type BatchOptions struct {
	// LichessEvals classifies from the evals the games carry (Lichess's
	// own analysis) and starts no engine.
	LichessEvals bool
	// Pool configures the engines started for the batch (closed at its
	// end); Engine shapes their analysis.
	Pool   PoolConfig
	Engine EngineOptions
}

// BatchResult is what AnalyseBatch produced.
type BatchResult struct {
	// Analyses are the games analysed, in input order, each compared with
	// Lichess's analysis when the game carries one.
	Analyses []*Analysis
	// Skipped says, one line each, which games were not analysed (or not
	// compared) and why.
	Skipped []string
	// Interrupted wraps the context's error when the batch stopped early;
	// Analyses then holds the games finished before.
	Interrupted error
}

// AnalyseBatch analyses games with a pool of engines (or from their
// Lichess evals), skipping the games that fail with a message each rather
// than failing the batch: what `outpost analyse` runs. Its error is for
// a batch that could not run at all (no engine).
func AnalyseBatch(ctx context.Context, games []*Game, o BatchOptions) (BatchResult, error) {
	var r BatchResult
	if o.LichessEvals {
		for _, g := range games {
			a, err := BuildLichess(g)
			if err != nil {
				r.Skipped = append(r.Skipped, fmt.Sprintf("%s game %d (%s): %v", g.Source, g.Index, g.Key(), err))
				continue
			}
			r.Analyses = append(r.Analyses, a)
		}
	} else if len(games) > 0 {
		pool, err := NewPool(ctx, o.Pool)
		if err != nil {
			return BatchResult{}, err
		}
		res, errs, err := pool.AnalyseGames(ctx, games, o.Engine)
		if cerr := pool.Close(); cerr != nil {
			o.Pool.Logger.Warn().Err(cerr).Msg("closing engines")
		}
		if err != nil && res == nil {
			return BatchResult{}, err
		}
		r.Interrupted = err
		for i, a := range res {
			switch {
			case errs[i] != nil:
				r.Skipped = append(r.Skipped, errs[i].Error())
			case a != nil:
				r.Analyses = append(r.Analyses, a)
			}
		}
	}
	for _, a := range r.Analyses {
		if err := a.CompareWithLichess(); err != nil {
			r.Skipped = append(r.Skipped, err.Error())
		}
	}
	return r, nil
}
