package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

func apiErr(status int) error {
	return &lichess.APIError{Status: status, Method: "GET", Path: "/game/export/" + sampleID}
}

func TestPermanent(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"400 bad request", apiErr(400), true},
		{"401 bad token", apiErr(401), true},
		{"403 forbidden", apiErr(403), true},
		{"404 game not found", apiErr(404), true},
		{"410 gone", apiErr(410), true},
		{"404 wrapped", fmt.Errorf("verify: export of x: %w", apiErr(404)), true},
		{"408 request timeout", apiErr(408), false},
		{"429 rate limited", apiErr(429), false},
		{"500", apiErr(500), false},
		{"502", apiErr(502), false},
		{"503", apiErr(503), false},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, false},
		{"timeout", context.DeadlineExceeded, false},
		{"other", errors.New("unexpected EOF"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Permanent(tc.err))
		})
	}
}

// waitIdle waits until the worker has nothing due and waits on its timer.
func (r *workerRig) waitIdle(t *testing.T) {
	t.Helper()
	select {
	case <-r.idle:
	case <-time.After(30 * time.Second): // a deadlock guard only
		t.Fatal("the worker never went idle")
	}
}

// TestWorkerStopsOnPermanentErrors: an export answered 404, 400, 401 or
// 403 ends the verification at once, failed with the reason stored, and the
// game is never polled again, even 48 hours later.
func TestWorkerStopsOnPermanentErrors(t *testing.T) {
	for _, status := range []int{404, 400, 401, 403} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			r := newWorkerRigAPI(t, false, func(f *fakeAPI) { f.exportErrs = []error{apiErr(status)} })
			v := r.round(t)
			assert.Equal(t, store.VerifyFailed, v.State)
			assert.Contains(t, v.Error, "permanent")
			assert.Contains(t, v.Error, fmt.Sprintf("HTTP %d", status))
			assert.Contains(t, Text(v, Lichess), "not verified: permanent")
			// nothing is due any more: the worker idles; 49 hours on it
			// has still polled once
			r.waitIdle(t)
			r.clock.Advance(49 * time.Hour)
			r.waitIdle(t)
			r.api.mu.Lock()
			assert.Equal(t, 1, r.api.exports, "one poll only")
			r.api.mu.Unlock()
			r.stop()
			got, err := r.st.Verification(context.Background(), sampleID)
			require.NoError(t, err)
			assert.Equal(t, store.VerifyFailed, got.State, "final across restarts")
		})
	}
}

// TestWorkerRetriesTransientErrors: 5xx answers and network errors are
// polled again with back-off, a Retry-After is honoured, and the analysis
// is compared once it appears.
func TestWorkerRetriesTransientErrors(t *testing.T) {
	unavailable := &lichess.APIError{Status: 503, Method: "GET", Path: "/game/export/" + sampleID, RetryAfter: 45 * time.Minute}
	network := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	r := newWorkerRigAPI(t, false, func(f *fakeAPI) { f.exportErrs = []error{apiErr(502), unavailable, network} })
	start := r.clock.Now()

	v := r.round(t)
	assert.Equal(t, store.VerifyWaiting, v.State)
	assert.Contains(t, v.Error, "HTTP 502")
	assert.WithinRange(t, v.NextAt, start.Add(time.Minute), start.Add(66*time.Second), "the back-off")

	v = r.round(t)
	assert.Equal(t, store.VerifyWaiting, v.State)
	assert.Contains(t, v.Error, "HTTP 503")
	assert.Equal(t, r.clock.Now().Add(45*time.Minute), v.NextAt, "the answer's Retry-After, longer than the back-off")

	v = r.round(t)
	assert.Equal(t, store.VerifyWaiting, v.State)
	assert.Contains(t, v.Error, "connection refused")
	assert.Equal(t, 3, v.Attempts)

	r.analysisAppears()
	v = r.round(t)
	assert.Equal(t, store.VerifyDone, v.State)
	assert.Equal(t, 14, v.Agree)
	assert.Equal(t, 4, r.api.exports)
}

// TestWorkerCloudPermanentErrorSkipsTheCloud: a cloud that refuses the
// lookups for good (403) is recorded as skipped with the reason, and the
// export is still polled in the same round.
func TestWorkerCloudPermanentErrorSkipsTheCloud(t *testing.T) {
	r := newWorkerRigAPI(t, true, func(f *fakeAPI) {
		f.cloudErr = &lichess.APIError{Status: 403, Method: "GET", Path: "/api/cloud-eval"}
	})
	v := r.round(t)
	assert.Equal(t, store.VerifyWaiting, v.State)
	assert.True(t, v.CloudDone)
	assert.Zero(t, v.CloudChecked)
	var rep CloudReport
	require.NoError(t, json.Unmarshal([]byte(v.CloudResult), &rep))
	assert.Contains(t, rep.Error, "HTTP 403")
	assert.Contains(t, Text(v, Lichess), "cloud eval skipped")
	r.api.mu.Lock()
	assert.Equal(t, 1, r.api.cloudHits, "the cloud is not asked again")
	assert.Equal(t, 1, r.api.exports, "the export polled in the same round")
	r.api.mu.Unlock()

	v = r.round(t)
	assert.Equal(t, 2, v.Attempts)
	r.api.mu.Lock()
	assert.Equal(t, 1, r.api.cloudHits, "the cloud is not asked again")
	r.api.mu.Unlock()
}

// TestPermanentErrorWarnNamesBotAndGame: the warn line of an export
// answered 404 names the game and the bot, whose name the daemon gives
// through its AccountRead hook (ChainAccountRead, as Attach wires it).
func TestPermanentErrorWarnNamesBotAndGame(t *testing.T) {
	lg := sampleExport(t)
	ours := lichessAnalysis(t, lg)
	st, g := analysedSample(t, ours)
	clock := lichess.NewManualClock(g.FinishedAt.Add(time.Second))
	api := &fakeAPI{export: withoutAnalysis(lg), clock: clock.Now, exportErrs: []error{apiErr(404)}}
	var logs testkit.SyncBuffer
	updates := make(chan store.Verification, 10)
	w, err := New(Options{API: api, Store: st, Clock: clock, Seed: 7, Logger: zerolog.New(&logs).With().Str("component", "verify").Logger(),
		Hooks: Hooks{Updated: func(v store.Verification) { updates <- v }}})
	require.NoError(t, err)
	var hooks daemon.Hooks
	seen := ""
	hooks.AccountRead = func(u string) { seen = u }
	ChainAccountRead(&hooks, w)
	hooks.AccountRead("OutpostBot") // what the daemon does once it has read its account
	assert.Equal(t, "OutpostBot", seen, "the hook already there still runs")
	runWorker(t, w)
	select {
	case v := <-updates:
		require.Equal(t, store.VerifyFailed, v.State)
	case <-time.After(30 * time.Second): // a deadlock guard only
		t.Fatal("no verification round")
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, "permanent error") {
			require.NoError(t, json.Unmarshal([]byte(l), &line))
		}
	}
	require.NotNil(t, line, "no permanent-error line in:\n%s", logs.String())
	assert.Equal(t, "warn", line["level"])
	assert.Equal(t, "OutpostBot", line["bot"])
	assert.Equal(t, sampleID, line["game"])
	assert.Equal(t, "verify", line["component"])
}
