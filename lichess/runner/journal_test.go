package runner

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// errNoMove is memJournal's answer for a ply without a reservation.
var errNoMove = errors.New("no move reserved")

// memJournal is an in-memory Journal with the store's semantics: one
// reservation per (game, ply), kept until released.
type memJournal struct {
	mu    sync.Mutex
	moves map[string]SentMove // by game and ply
	lists map[string]string   // game moves by game id
	cache map[string][]byte   // by kind and key
}

func newMemJournal() *memJournal {
	return &memJournal{moves: map[string]SentMove{}, lists: map[string]string{}, cache: map[string][]byte{}}
}

func plyKey(gameID string, ply int) string { return fmt.Sprintf("%s/%d", gameID, ply) }

func (j *memJournal) ReserveMove(_ context.Context, m SentMove) (bool, SentMove, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if prev, ok := j.moves[plyKey(m.GameID, m.Ply)]; ok {
		return false, prev, nil
	}
	if m.SentAt.IsZero() {
		m.SentAt = time.Now()
	}
	j.moves[plyKey(m.GameID, m.Ply)] = m
	return true, m, nil
}

func (j *memJournal) ReleaseMove(_ context.Context, gameID string, ply int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.moves, plyKey(gameID, ply))
	return nil
}

func (j *memJournal) SentMoveAt(_ context.Context, gameID string, ply int) (SentMove, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	m, ok := j.moves[plyKey(gameID, ply)]
	if !ok {
		return SentMove{}, fmt.Errorf("journal: %s ply %d: %w", gameID, ply, errNoMove)
	}
	return m, nil
}

func (j *memJournal) UpdateMoves(_ context.Context, id, moves string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lists[id] = moves
	return nil
}

func (j *memJournal) CacheGet(_ context.Context, kind, key string) ([]byte, bool, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v, ok := j.cache[kind+"/"+key]
	return v, ok, nil
}

func (j *memJournal) CachePut(_ context.Context, kind, key string, value []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.cache[kind+"/"+key] = value
	return nil
}

// sentMoves returns the moves reserved in a game, by ply.
func (j *memJournal) sentMoves(gameID string) []SentMove {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []SentMove
	for _, m := range j.moves {
		if m.GameID == gameID {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Ply < out[b].Ply })
	return out
}
