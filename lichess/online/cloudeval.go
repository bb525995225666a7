package online

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess"
)

// CloudEvaler is the part of *lichess.Client the cloud-eval source uses.
type CloudEvaler interface {
	CloudEval(ctx context.Context, fen string, multiPV int, variant string) (*lichess.CloudEval, error)
}

// CloudEvalOptions configure a CloudEval source.
type CloudEvalOptions struct {
	// MinDepth is the least depth of an evaluation the source plays
	// from; shallower ones are ignored (lichess-bot's min_depth).
	MinDepth int
	// MultiPV is how many variations to ask for (1–5); the best of them
	// for the side to move is played. 0 means 1.
	MultiPV int
}

// CloudEval plays the best move of Lichess's cloud evaluation when the
// position is in the cloud at depth MinDepth or more. A position not in
// the cloud is ErrNoMove; so is any answer it cannot use.
type CloudEval struct {
	api  CloudEvaler
	opts CloudEvalOptions
}

// NewCloudEval returns a cloud-eval source asking api.
func NewCloudEval(api CloudEvaler, opts CloudEvalOptions) (*CloudEval, error) {
	if api == nil {
		return nil, errors.New("online: cloud eval: no Lichess client")
	}
	if opts.MultiPV < 0 || opts.MultiPV > 5 {
		return nil, fmt.Errorf("online: cloud eval: multipv %d: want 1 to 5", opts.MultiPV)
	}
	if opts.MinDepth < 0 {
		return nil, fmt.Errorf("online: cloud eval: min depth %d: want 0 or more", opts.MinDepth)
	}
	return &CloudEval{api: api, opts: opts}, nil
}

// Name returns "cloud-eval".
func (c *CloudEval) Name() string { return NameCloudEval }

// Move returns the cloud's best move for the side to move.
func (c *CloudEval) Move(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	b, err := position(pos, false)
	if err != nil {
		return engine.Move{}, err
	}
	ev, err := c.api.CloudEval(ctx, b.FEN(), max(c.opts.MultiPV, 1), "")
	if errors.Is(err, lichess.ErrNotFound) {
		return engine.Move{}, movesource.ErrNoMove
	}
	if err != nil {
		return engine.Move{}, fmt.Errorf("online: cloud eval: %w", err)
	}
	if ev.Depth < c.opts.MinDepth {
		return engine.Move{}, movesource.ErrNoMove
	}
	return PickCloudMove(b, ev)
}

// PickCloudMove returns the move starting the best variation of ev for
// b's side to move, among those whose first move is legal in b: a mate
// for it first (the shortest), then the highest centipawns, then a mate
// against it (the longest). ErrNoMove when no variation is usable.
func PickCloudMove(b *board.Board, ev *lichess.CloudEval) (engine.Move, error) {
	white := b.SideToMove() == board.White
	var best engine.Move
	bestKey := 0
	found := false
	for _, pv := range ev.PVs {
		moves := strings.Fields(pv.Moves)
		if len(moves) == 0 {
			continue
		}
		uci, ok := legal(b, moves[0])
		if !ok {
			continue
		}
		sc, ok := sideScore(pv, white)
		if !ok {
			continue
		}
		if k := scoreKey(sc); !found || k > bestKey {
			moves[0] = uci
			best = engine.Move{UCI: uci, Score: sc, HasScore: true, Depth: ev.Depth, Nodes: int64(ev.KNodes) * 1000, PV: moves, Source: NameCloudEval}
			bestKey, found = k, true
		}
	}
	if !found {
		return engine.Move{}, movesource.ErrNoMove
	}
	return best, nil
}

// sideScore turns a variation's White-view score into the side to move's.
func sideScore(pv lichess.PV, white bool) (score.Score, bool) {
	sign := 1
	if !white {
		sign = -1
	}
	switch {
	case pv.Mate != nil && *pv.Mate != 0:
		return score.Mate(sign * *pv.Mate), true
	case pv.CP != nil:
		return score.CP(sign * *pv.CP), true
	}
	return score.Score{}, false
}

// mateKey puts every mate beyond any centipawn score.
const mateKey = 1 << 30

// scoreKey orders scores for the side to move: shorter own mates above
// longer ones above any centipawns, above longer mates against, above
// shorter ones.
func scoreKey(s score.Score) int { return s.Rank(mateKey) }
