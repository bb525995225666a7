package search

import "github.com/outpostchess/outpost/bots/board"

// Bound kinds stored in the transposition table.
const (
	boundNone  uint8 = iota
	boundUpper       // all moves failed low: score is an upper bound
	boundLower       // a move failed high: score is a lower bound
	boundExact       // PV node: exact score
)

type ttEntry struct {
	key   uint64
	move  board.Move
	score int16
	depth int8
	bound uint8
	gen   uint8
}

// ttable is a direct-mapped transposition table. An entry is replaced when
// it is from an older search, belongs to another position, or was searched
// no deeper than the new result.
type ttable struct {
	entries []ttEntry
	mask    uint64
	gen     uint8
}

func newTT(mb int) *ttable {
	if mb < 1 {
		mb = 1
	}
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &ttable{entries: make([]ttEntry, n), mask: n - 1}
}

func (t *ttable) clear() {
	clear(t.entries)
	t.gen = 0
}

func (t *ttable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *ttable) store(key uint64, m board.Move, score, depth, ply int, bound uint8) {
	e := &t.entries[key&t.mask]
	if e.key == key && e.gen == t.gen && int(e.depth) > depth && bound != boundExact {
		return
	}
	if m == board.NullMove && e.key == key {
		m = e.move // keep the old best move for ordering
	}
	*e = ttEntry{key: key, move: m, score: int16(scoreToTT(score, ply)), depth: int8(depth), bound: bound, gen: t.gen}
}

// Mate scores are stored relative to the node (distance from it), not the
// root, so that they stay correct when the position is reached at another ply.
func scoreToTT(s, ply int) int {
	switch {
	case s > mateBound:
		return s + ply
	case s < -mateBound:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s > mateBound:
		return s - ply
	case s < -mateBound:
		return s + ply
	}
	return s
}
