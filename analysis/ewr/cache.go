package ewr

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// resultVersion changes when the calculation changes, invalidating old
// cached results.
const resultVersion = "ewr-v1"

// resultKey identifies a calculation: the position with its history, the
// parameters and the included moves.
func resultKey(root *board.Board, pos Position, p Params, include []string) string {
	start := strings.TrimSpace(pos.StartFEN)
	if b, err := board.FromFENVariant(start, pos.Chess960); err == nil && start != "" {
		start = b.FEN()
	} else {
		start = board.StartFEN
	}
	if pos.Chess960 {
		start = "chess960 " + start // a standard key stays as it was
	}
	pj, _ := json.Marshal(p)
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n%s", resultVersion, start, strings.Join(pos.Moves, " "), root.FEN(), pj, strings.Join(include, " "))
	return hex.EncodeToString(h.Sum(nil))
}

// cachedResult returns the cached result for key. A corrupt entry is a miss.
func (c *Calculator) cachedResult(ctx context.Context, key string) (*Result, bool, error) {
	v, ok, err := c.Cache.CacheGet(ctx, KindResult, key)
	if err != nil {
		return nil, false, fmt.Errorf("ewr: result cache: %w", err)
	}
	if !ok {
		return nil, false, nil
	}
	var res Result
	if err := json.Unmarshal(v, &res); err != nil || res.Trees == nil {
		return nil, false, nil
	}
	if res.Moves == nil {
		res.Moves = []MoveResult{}
	}
	return &res, true, nil
}

// storeResult caches a complete result.
func (c *Calculator) storeResult(ctx context.Context, key string, res *Result) error {
	v, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("ewr: result cache: %w", err)
	}
	if err := c.Cache.CachePut(ctx, KindResult, key, v); err != nil {
		return fmt.Errorf("ewr: result cache: %w", err)
	}
	return nil
}
