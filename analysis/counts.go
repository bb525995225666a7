package analysis

import (
	"context"
	"sync/atomic"
)

// Counts counts the work of one request (a daemon's summary, a report):
// the games replayed from their moves and the analyses built from evals.
// A caller that wants them puts a Counts in the request's context
// (WithCounts); the analysis packages count into it where they replay a
// game (AnalyseGames, the expected-winrate calculation) or build an
// analysis (Build through AnalyseGames). A test of one summary reads them
// so that a replay or a build added back on the way fails it.
type Counts struct {
	Replays, Builds atomic.Int64
}

type countsKey struct{}

// WithCounts returns ctx carrying c.
func WithCounts(ctx context.Context, c *Counts) context.Context {
	return context.WithValue(ctx, countsKey{}, c)
}

// CountReplay counts one replay of a game's moves into ctx's Counts, if
// any.
func CountReplay(ctx context.Context) {
	if c, ok := ctx.Value(countsKey{}).(*Counts); ok {
		c.Replays.Add(1)
	}
}

// CountBuild counts one Build into ctx's Counts, if any (Build takes no
// context: its callers count it).
func CountBuild(ctx context.Context) {
	if c, ok := ctx.Value(countsKey{}).(*Counts); ok {
		c.Builds.Add(1)
	}
}
