package models

import (
	"container/list"
	"strings"
	"sync"

	"github.com/outpostchess/outpost/models/game"
)

// gameCacheSize bounds the replayed games kept by a Predictor (a few KB
// each), so memory stays flat however many predictions are made.
const gameCacheSize = 1024

// gameCache keeps recently replayed games so that a request whose game is a
// known game plus one move (the usual case for an engine playing a game or a
// tree search expanding a node) costs one move instead of a full replay.
// Cached games are immutable and shared.
type gameCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key string
	g   *game.Game
}

func newGameCache(max int) *gameCache {
	return &gameCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func cacheKey(fen string, moves []string, chess960 bool) string {
	mode := "std"
	if chess960 {
		mode = "960"
	}
	return mode + "\x00" + fen + "\x00" + strings.Join(moves, " ")
}

func (c *gameCache) get(key string) *game.Game {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cacheEntry).g
	}
	return nil
}

func (c *gameCache) put(key string, g *game.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, g: g})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}

// replay returns the game of fen + moves (a Chess960 game when chess960 is
// set), from the cache, by extending the cached parent game by its last
// move, or by a full replay.
func (c *gameCache) replay(fen string, moves []string, chess960 bool) (*game.Game, error) {
	key := cacheKey(fen, moves, chess960)
	if g := c.get(key); g != nil {
		return g, nil
	}
	var g *game.Game
	if n := len(moves); n > 0 {
		if parent := c.get(cacheKey(fen, moves[:n-1], chess960)); parent != nil {
			var err error
			if g, err = parent.Play(moves[n-1]); err != nil {
				return nil, err
			}
		}
	}
	if g == nil {
		var err error
		if g, err = game.NewVariant(fen, moves, chess960); err != nil {
			return nil, err
		}
	}
	c.put(key, g)
	return g, nil
}

// len returns the number of cached games.
func (c *gameCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
