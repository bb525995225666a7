package verify

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/lichess"
)

// sampleID is a real Lichess game with Lichess's server analysis
// (../shared/lichess-games/json).
const sampleID = "CCW6EEru"

// sampleExport reads the sample game's JSON export.
func sampleExport(t *testing.T) *lichess.Game {
	t.Helper()
	raw, err := os.ReadFile("../../../shared/lichess-games/json/" + sampleID + ".json")
	require.NoError(t, err)
	var g lichess.Game
	require.NoError(t, json.Unmarshal(raw, &g))
	return &g
}

// withoutAnalysis is an export before Lichess analysed the game.
func withoutAnalysis(g *lichess.Game) *lichess.Game {
	c := *g
	c.Analysis = nil
	c.Players.White.Analysis, c.Players.Black.Analysis = nil, nil
	return &c
}

// lichessAnalysis is Lichess's analysis of the sample, built from its own
// evals, as our stored analysis would look if we agreed on every eval and
// best move; it went through JSON like a stored one.
func lichessAnalysis(t *testing.T, lg *lichess.Game) *analysis.Analysis {
	t.Helper()
	g, err := comparerun.ConvertGame(context.Background(), lg, "test", 1, nil)
	require.NoError(t, err)
	a, err := analysis.BuildLichess(g)
	require.NoError(t, err)
	raw, err := json.Marshal(a)
	require.NoError(t, err)
	ours, err := Decode(lg.ID, string(raw))
	require.NoError(t, err)
	return ours
}

// fakeAPI is a scripted Lichess: cloud evals by FEN, an export that gains
// its analysis when told, and 429s on demand.
type fakeAPI struct {
	mu        sync.Mutex
	cloud     map[string]*lichess.CloudEval
	export    *lichess.Game
	analysed  *lichess.Game
	ready     bool
	limit429  int // answer this many of the next requests with 429
	locked    time.Time
	lockFor   time.Duration
	clock     func() time.Time
	exports   int
	cloudHits int
	variants  []string // the variant of each cloud lookup
	// exportErrs answer the next exports in turn; cloudErr every cloud
	// lookup (nil: none).
	exportErrs []error
	cloudErr   error
}

func (f *fakeAPI) rateLimited(op string) error {
	if f.limit429 > 0 {
		f.limit429--
		f.locked = f.clock().Add(f.lockFor)
		return &lichess.APIError{Status: 429, Method: "GET", Path: op, RetryAfter: f.lockFor}
	}
	return nil
}

func (f *fakeAPI) CloudEval(_ context.Context, fen string, _ int, variant string) (*lichess.CloudEval, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cloudHits++
	f.variants = append(f.variants, variant)
	if err := f.rateLimited("/api/cloud-eval"); err != nil {
		return nil, err
	}
	if f.cloudErr != nil {
		return nil, f.cloudErr
	}
	ev, ok := f.cloud[fen]
	if !ok {
		return nil, &lichess.APIError{Status: 404, Method: "GET", Path: "/api/cloud-eval"}
	}
	return ev, nil
}

func (f *fakeAPI) ExportGame(_ context.Context, id string, o lichess.ExportOptions) (*lichess.Game, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exports++
	if err := f.rateLimited("/game/export/" + id); err != nil {
		return nil, err
	}
	if len(f.exportErrs) > 0 {
		err := f.exportErrs[0]
		f.exportErrs = f.exportErrs[1:]
		return nil, err
	}
	if !o.Evals {
		panic("export without evals")
	}
	if f.ready {
		return f.analysed, nil
	}
	return f.export, nil
}

func (f *fakeAPI) LockedUntil() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.locked
}

// cloudFromLichess serves, for every position of the game, Lichess's own
// eval of it and its best move when Lichess named one, so that judging
// from the cloud reproduces Lichess's judgements.
func cloudFromLichess(t *testing.T, a *analysis.Analysis, lg *lichess.Game) map[string]*lichess.CloudEval {
	t.Helper()
	boards, err := a.ReplayBoards(context.Background(), false)
	require.NoError(t, err)
	out := map[string]*lichess.CloudEval{}
	for i, ma := range lg.Analysis {
		best := "0000" // a move that is never the one played
		if i+1 < len(lg.Analysis) && lg.Analysis[i+1].Best != "" {
			best = lg.Analysis[i+1].Best
		}
		out[boards[i+1].FEN()] = &lichess.CloudEval{Depth: 30, PVs: []lichess.PV{{Moves: best, CP: ma.Eval, Mate: ma.Mate}}}
	}
	first := "0000"
	if lg.Analysis[0].Best != "" {
		first = lg.Analysis[0].Best
	}
	cp := 15
	out[boards[0].FEN()] = &lichess.CloudEval{Depth: 30, PVs: []lichess.PV{{Moves: first, CP: &cp}}}
	return out
}

// advanceToNext moves the clock to its earliest pending timer (firing
// it); it reports false when no timer is pending.
func advanceToNext(c *lichess.ManualClock) bool {
	at, ok := c.NextDeadline()
	if !ok {
		return false
	}
	c.Advance(at.Sub(c.Now()))
	return true
}
