package comparerun

import (
	"context"
	"errors"
	"time"
)

// ErrNoRun is returned (wrapped) by LastReport when a key has no finished
// run.
var ErrNoRun = errors.New("no finished comparison run")

// RunStore keeps comparison runs and their games so that an interrupted run
// is resumed, not restarted. The daemon's store (internal/store) implements
// it.
type RunStore interface {
	// StartRun creates a running run of user (a Source's Key) with the
	// given parameters (JSON) and returns its id.
	StartRun(ctx context.Context, user, params string) (int64, error)
	// Run returns the run with that id.
	Run(ctx context.Context, runID int64) (StoredRun, error)
	// ReopenRun puts a failed or finished run back into the running state,
	// keeping its games and start time.
	ReopenRun(ctx context.Context, runID int64) error
	// SaveRunGame records one game's result (JSON) in a run.
	SaveRunGame(ctx context.Context, runID int64, gameID, result string) error
	// RunGames returns the results recorded in a run, by game id.
	RunGames(ctx context.Context, runID int64) (map[string]string, error)
	// FinishRun ends a run in state with its report (JSON).
	FinishRun(ctx context.Context, runID int64, state RunState, report string) error
	// Runs returns up to limit runs of user, newest first.
	Runs(ctx context.Context, user string, limit int) ([]StoredRun, error)
}

// RunState is the state of a comparison run.
type RunState string

// The comparison run states.
const (
	RunRunning  RunState = "running"
	RunFinished RunState = "finished"
	RunFailed   RunState = "failed"
)

// StoredRun is one comparison of our classifications with Lichess's over a
// user's games, as kept by a RunStore.
type StoredRun struct {
	ID         int64
	User       string
	Params     string // the analysis parameters, JSON
	State      RunState
	Report     string // the aggregated report, JSON
	StartedAt  time.Time
	FinishedAt time.Time
}
