package comparerun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// errNoSuchRun is memRunStore's answer for an unknown run id.
var errNoSuchRun = errors.New("no such run")

// memRunStore is an in-memory RunStore with the daemon store's semantics:
// ids in creation order, runs listed newest first, users compared without
// case, a reopened run keeping its games and start time.
type memRunStore struct {
	mu    sync.Mutex
	runs  []StoredRun                 // index id-1
	games map[int64]map[string]string // run id → game id → result
}

func newMemRunStore() *memRunStore { return &memRunStore{games: map[int64]map[string]string{}} }

func (s *memRunStore) run(id int64) (*StoredRun, error) {
	if id < 1 || int(id) > len(s.runs) {
		return nil, fmt.Errorf("run %d: %w", id, errNoSuchRun)
	}
	return &s.runs[id-1], nil
}

func (s *memRunStore) StartRun(_ context.Context, user, params string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := int64(len(s.runs) + 1)
	s.runs = append(s.runs, StoredRun{ID: id, User: user, Params: params, State: RunRunning, StartedAt: time.Now()})
	return id, nil
}

func (s *memRunStore) Run(_ context.Context, id int64) (StoredRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.run(id)
	if err != nil {
		return StoredRun{}, err
	}
	return *r, nil
}

func (s *memRunStore) ReopenRun(_ context.Context, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.run(id)
	if err != nil {
		return err
	}
	r.State, r.Report, r.FinishedAt = RunRunning, "", time.Time{}
	return nil
}

func (s *memRunStore) SaveRunGame(_ context.Context, id int64, gameID, result string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.run(id); err != nil {
		return err
	}
	if s.games[id] == nil {
		s.games[id] = map[string]string{}
	}
	s.games[id][gameID] = result
	return nil
}

func (s *memRunStore) RunGames(_ context.Context, id int64) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for k, v := range s.games[id] {
		out[k] = v
	}
	return out, nil
}

func (s *memRunStore) FinishRun(_ context.Context, id int64, state RunState, report string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.run(id)
	if err != nil {
		return err
	}
	r.State, r.Report, r.FinishedAt = state, report, time.Now()
	return nil
}

func (s *memRunStore) Runs(_ context.Context, user string, limit int) ([]StoredRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []StoredRun
	for i := len(s.runs) - 1; i >= 0 && len(out) < limit; i-- {
		if user == "" || strings.EqualFold(s.runs[i].User, user) {
			out = append(out, s.runs[i])
		}
	}
	return out, nil
}
