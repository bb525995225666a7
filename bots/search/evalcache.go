package search

import "github.com/outpostchess/outpost/bots/board"

// evalCacheEntries is the eval cache's size: 2^16 entries of 16 bytes,
// 1 MiB per engine. Iterative deepening visits the same leaves again at
// every iteration, and transpositions reach them by other paths, so a
// small table that stays in the processor's cache answers a large share of
// the evaluations (measured in docs/engines.md); a larger one gains little
// and costs memory misses.
const evalCacheEntries = 1 << 16

// evalCache remembers static evaluations by position hash. Evaluate is a
// pure function of the position and the evaluation kind, so a hit returns
// exactly what Evaluate would, and the search visits the same nodes with or
// without the cache: it only saves time. An entry is replaced by the next
// position mapping to its slot.
type evalCache struct {
	kind    EvalKind
	entries [evalCacheEntries]evalCacheEntry
}

type evalCacheEntry struct {
	key   uint64
	score int32
	valid bool
}

// evaluate returns Evaluate(b, kind), from the cache when it holds b.
func (c *evalCache) evaluate(b *board.Board, kind EvalKind) int {
	return c.evaluateWith(b, kind, func() int { return Evaluate(b, kind) })
}

// evaluateWith returns the cached evaluation of b by kind, or compute's
// (which must equal Evaluate(b, kind)) stored for next time.
func (c *evalCache) evaluateWith(b *board.Board, kind EvalKind, compute func() int) int {
	if c.kind != kind {
		c.reset(kind)
	}
	key := b.Hash()
	e := &c.entries[key&(evalCacheEntries-1)]
	if e.valid && e.key == key {
		return int(e.score)
	}
	sc := compute()
	*e = evalCacheEntry{key: key, score: int32(sc), valid: true}
	return sc
}

// reset empties the cache for evaluations of kind.
func (c *evalCache) reset(kind EvalKind) {
	c.kind = kind
	clear(c.entries[:])
}
