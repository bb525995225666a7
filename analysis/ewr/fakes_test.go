package ewr

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// fakeProber answers from a table keyed by the position (FEN without move
// counters) reached by the request; other positions get a uniform
// distribution over their legal moves.
type fakeProber struct {
	mu    sync.Mutex
	table map[string][]MoveProb
	calls int
	reqs  []ProbeRequest
}

func (f *fakeProber) Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := make([][]MoveProb, len(reqs))
	for i, r := range reqs {
		f.reqs = append(f.reqs, r)
		b, err := replay(Position{StartFEN: r.StartFEN, Moves: r.Moves, Chess960: r.Chess960})
		if err != nil {
			return nil, err
		}
		if ms, ok := f.table[evalKey(b)]; ok {
			out[i] = ms
			continue
		}
		legal := b.LegalMoves()
		for _, m := range legal {
			out[i] = append(out[i], MoveProb{UCI: m.String(), P: 1 / float64(len(legal))})
		}
	}
	return out, nil
}

// fakeEvaluator scores positions from a table keyed by FEN without move
// counters (side to move's view), else def. It counts requests per key.
type fakeEvaluator struct {
	mu    sync.Mutex
	table map[string]score.Score
	def   func(key string) score.Score
	// byDepth, when set, scores every position not in table from its key
	// and the depth asked for.
	byDepth func(key string, depth int) score.Score
	count   map[string]int
	calls   int
	delay   time.Duration
	failOn  string
}

func (f *fakeEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	f.mu.Lock()
	f.calls++
	if f.count == nil {
		f.count = map[string]int{}
	}
	f.mu.Unlock()
	for i, r := range reqs {
		if f.delay > 0 {
			select {
			case <-time.After(f.delay):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if r.FEN == f.failOn {
			return fmt.Errorf("engine crashed on %s", r.FEN)
		}
		f.mu.Lock()
		f.count[r.FEN]++
		s, ok := f.table[r.FEN]
		f.mu.Unlock()
		if !ok && f.byDepth != nil {
			s, ok = f.byDepth(r.FEN, r.Depth), true
		}
		if !ok {
			if f.def == nil {
				return fmt.Errorf("fake: no score for %s", r.FEN)
			}
			s = f.def(r.FEN)
		}
		onResult(i, s)
	}
	return nil
}

func (f *fakeEvaluator) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.count {
		n += c
	}
	return n
}

// memCache is an in-memory Cache.
type memCache struct {
	mu   sync.Mutex
	m    map[string][]byte
	gets int
	hits int
}

func (c *memCache) CacheGet(_ context.Context, kind, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	v, ok := c.m[kind+"\x00"+key]
	if ok {
		c.hits++
	}
	return v, ok, nil
}

func (c *memCache) CachePut(_ context.Context, kind, key string, v []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[kind+"\x00"+key] = append([]byte(nil), v...)
	return nil
}

// keyAfter returns the evaluation key of the position after moves from fen.
func keyAfter(fen string, moves ...string) string {
	b, err := replay(Position{StartFEN: fen, Moves: moves})
	if err != nil {
		panic(err)
	}
	return evalKey(b)
}

// wr is the mapping under test, for building expectations.
func wr(cp int) float64 { return score.Score{CP: cp}.Winrate() }

// sideToMove returns the colour to move in a key.
func sideToMove(key string) board.Color {
	b, err := board.FromFEN(key)
	if err != nil {
		panic(err)
	}
	return b.SideToMove()
}
