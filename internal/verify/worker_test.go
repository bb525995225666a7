package verify

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// workerRig runs a worker on an in-memory store with the sample game
// finished and analysed (our analysis = Lichess's evals) and a fake clock.
type workerRig struct {
	st      *store.Store
	api     *fakeAPI
	clock   *lichess.ManualClock
	updates chan store.Verification
	idle    chan struct{}
	stop    func()
}

func newWorkerRig(t *testing.T, cloud bool) *workerRig {
	return newWorkerRigWith(t, cloud, 0)
}

// newWorkerRigWith starts the rig with the first limit429 requests
// answered 429.
func newWorkerRigWith(t *testing.T, cloud bool, limit429 int) *workerRig {
	t.Helper()
	return newWorkerRigAPI(t, cloud, func(f *fakeAPI) { f.limit429 = limit429 })
}

// newWorkerRigAPI starts the rig after setup has scripted the fake API.
func newWorkerRigAPI(t *testing.T, cloud bool, setup func(*fakeAPI), opts ...func(*Options)) *workerRig {
	t.Helper()
	lg := sampleExport(t)
	ours := lichessAnalysis(t, lg)
	st, g := analysedSample(t, ours)
	r := &workerRig{st: st, clock: lichess.NewManualClock(g.FinishedAt.Add(time.Second)),
		updates: make(chan store.Verification, 100), idle: make(chan struct{}, 100)}
	r.api = &fakeAPI{cloud: cloudFromLichess(t, ours, lg), export: withoutAnalysis(lg), analysed: lg,
		clock: r.clock.Now, lockFor: 30 * time.Minute}
	setup(r.api)
	o := Options{API: r.api, Store: st, Clock: r.clock, Cloud: cloud, Seed: 7, Logger: zerolog.Nop(),
		Hooks: Hooks{
			Updated: func(v store.Verification) { r.updates <- v },
			Idle:    func() { r.idle <- struct{}{} },
		}}
	for _, f := range opts {
		f(&o)
	}
	w, err := New(o)
	require.NoError(t, err)
	r.stop = runWorker(t, w)
	return r
}

// analysedSample returns an in-memory store holding the sample game,
// finished, with ours as its analysis, and the stored game.
func analysedSample(t *testing.T, ours *analysis.Analysis) (*store.Store, store.Game) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	raw, err := json.Marshal(ours)
	require.NoError(t, err)
	require.NoError(t, st.StartGame(ctx, store.Game{ID: sampleID, Opponent: "x", Color: "white"}))
	_, err = st.FinishGame(ctx, sampleID, "resign", "white", "", "")
	require.NoError(t, err)
	require.NoError(t, st.EnqueueAnalysis(ctx, sampleID))
	require.NoError(t, st.SaveAnalysis(ctx, sampleID, string(raw), "summary"))
	g, err := st.Game(ctx, sampleID)
	require.NoError(t, err)
	return st, g
}

// runWorker runs w until the returned stop is called, or the test ends.
func runWorker(t *testing.T, w *Worker) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// analysisAppears makes the fake API's export carry the server analysis
// from the next poll on.
func (r *workerRig) analysisAppears() {
	r.api.mu.Lock()
	r.api.ready = true
	r.api.mu.Unlock()
}

// round waits for the worker's next record update, advancing the clock to
// its next timer each time it idles. The worker sends a round's update
// before it idles, so an update already sent is taken before the clock
// moves, and the idle kept for the next round: a select that saw both
// ready could pick the idle first (a busy machine made it do so once in
// 30 runs, the clock a minute ahead).
func (r *workerRig) round(t *testing.T) store.Verification {
	t.Helper()
	timeout := time.After(30 * time.Second) // a deadlock guard only, never reached when working
	for {
		select {
		case v := <-r.updates:
			return v
		case <-r.idle:
			select {
			case v := <-r.updates:
				r.idle <- struct{}{} // the idle after v, for the next round
				return v
			default:
			}
			advanceToNext(r.clock)
		case <-timeout:
			t.Fatal("the worker made no progress")
		}
	}
}

func TestWorkerPollsWithBackoffUntilTheAnalysisAppears(t *testing.T) {
	r := newWorkerRig(t, true)
	start := r.clock.Now()

	v := r.round(t) // first round at once: cloud check, no server analysis yet
	assert.Equal(t, store.VerifyWaiting, v.State)
	assert.True(t, v.CloudDone)
	assert.Equal(t, MaxCloudPlies, v.CloudChecked)
	assert.Equal(t, MaxCloudPlies, v.CloudAgree)
	assert.Equal(t, 1, v.Attempts)
	assert.Equal(t, start, r.clock.Now(), "the first poll right away")
	assert.WithinRange(t, v.NextAt, start.Add(time.Minute), start.Add(66*time.Second))
	hits := r.api.cloudHits

	v = r.round(t)
	assert.Equal(t, 2, v.Attempts)
	assert.Equal(t, hits, r.api.cloudHits, "the cloud is asked once per game")
	assert.WithinRange(t, v.NextAt, r.clock.Now().Add(2*time.Minute), r.clock.Now().Add(132*time.Second))

	// a 429: the next poll waits for the lockout, not the back-off
	r.api.mu.Lock()
	r.api.limit429 = 1
	r.api.mu.Unlock()
	v = r.round(t)
	assert.Equal(t, 3, v.Attempts)
	assert.Contains(t, v.Error, "429")
	assert.Equal(t, r.clock.Now().Add(30*time.Minute), v.NextAt)

	r.analysisAppears()
	v = r.round(t)
	assert.Equal(t, store.VerifyDone, v.State)
	assert.Equal(t, 14, v.Judgements)
	assert.Equal(t, 14, v.Agree)
	assert.Empty(t, v.Error)
	var rep ServerReport
	require.NoError(t, json.Unmarshal([]byte(v.LichessResult), &rep))
	assert.Equal(t, 43, rep.Comparison.Plies)
	assert.Equal(t, 4, r.api.exports)
}

// TestWorkerGivesUpAgainstTheStandIn: against the sandbox the expired
// reason names the sandbox's stand-in, not Lichess.
// slowRescan is the store's rescan interval in the tests that run the
// worker's manual clock across its whole 48-hour window: with the default
// minute it wakes 2,880 times for nothing (one game, already queued), each
// wake-up three SQLite queries, 20 s of CPU under the race detector; the
// polls are due by the back-off, which the rescan never delays.
func slowRescan(o *Options) { o.Rescan = 12 * time.Hour }

func TestWorkerGivesUpAgainstTheStandIn(t *testing.T) {
	r := newWorkerRigAPI(t, false, func(*fakeAPI) {}, func(o *Options) { o.Against = StandIn }, slowRescan)
	var v store.Verification
	for v.State == "" || v.State == store.VerifyWaiting {
		v = r.round(t)
	}
	assert.Equal(t, store.VerifyExpired, v.State)
	assert.Contains(t, v.Error, "no analysis from the sandbox's Lichess stand-in within 48h")
	assert.Equal(t, "no analysis from the sandbox's Lichess stand-in ("+v.Error+")", Text(v, StandIn))
}

func TestWorkerGivesUpAfterTheWindow(t *testing.T) {
	r := newWorkerRigAPI(t, false, func(*fakeAPI) {}, slowRescan)
	start := r.clock.Now()
	var v store.Verification
	for v.State == "" || v.State == store.VerifyWaiting {
		v = r.round(t)
	}
	assert.Equal(t, store.VerifyExpired, v.State)
	assert.Contains(t, v.Error, "no Lichess analysis within 48h")
	assert.False(t, v.CloudDone, "cloud check off")
	assert.Zero(t, r.api.cloudHits)
	assert.LessOrEqual(t, r.api.exports, 31, "polls in 48 hours")
	assert.GreaterOrEqual(t, r.api.exports, 25)
	assert.False(t, r.clock.Now().Before(start.Add(48*time.Hour-time.Second)))
	r.stop()
	// a restart does not start over
	got, err := r.st.Verification(context.Background(), sampleID)
	require.NoError(t, err)
	assert.Equal(t, store.VerifyExpired, got.State)
}

func TestWorkerCloud429WaitsForTheLockout(t *testing.T) {
	r := newWorkerRigWith(t, true, 1)
	start := r.clock.Now()
	v := r.round(t)
	assert.False(t, v.CloudDone)
	assert.Equal(t, 1, v.Attempts, "a failed round counts")
	assert.Contains(t, v.Error, "429")
	assert.Equal(t, start.Add(30*time.Minute), v.NextAt, "not before the lockout ends")
	r.api.mu.Lock()
	assert.Zero(t, r.api.exports, "no export poll in a rate-limited round")
	assert.Equal(t, 1, r.api.cloudHits, "nothing after the 429")
	r.api.mu.Unlock()

	v = r.round(t)
	assert.True(t, v.CloudDone)
	assert.Equal(t, 2, v.Attempts)
	assert.Equal(t, start.Add(30*time.Minute), r.clock.Now())
}
