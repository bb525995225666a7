package ewr

import "context"

// Gate paces a calculation's engines: the daemon holds them back while a
// game is on the clock, so that the post-game calculation never takes CPU
// from a game. A nil Gate lets every engine search.
type Gate interface {
	// Allowed returns how many engines (numbered from 0) may search now,
	// and a channel closed when that may have changed.
	Allowed() (engines int, changed <-chan struct{})
}

// waitGate returns once at least one engine may search, or with ctx's
// error.
func waitGate(ctx context.Context, g Gate) error {
	for {
		n, changed := g.Allowed()
		if n > 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// GatedProber is a MoveProber that waits, before each batch of
// predictions, until Gate lets at least one engine search.
type GatedProber struct {
	MoveProber
	Gate Gate
}

// Probe implements MoveProber.
func (g GatedProber) Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error) {
	if g.Gate != nil {
		if err := waitGate(ctx, g.Gate); err != nil {
			return nil, err
		}
	}
	return g.MoveProber.Probe(ctx, reqs)
}
