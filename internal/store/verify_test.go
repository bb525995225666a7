package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// finishedAnalysed records a finished game whose analysis is in state st.
func finishedAnalysed(t *testing.T, s *Store, id string, st AnalysisState) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, s.StartGame(ctx, Game{ID: id, Opponent: "alice", Color: "white"}))
	_, err := s.FinishGame(ctx, id, "mate", "white", "e2e4", "")
	require.NoError(t, err)
	require.NoError(t, s.EnqueueAnalysis(ctx, id))
	if st != AnalysisPending {
		require.NoError(t, s.SaveAnalysis(ctx, id, `{"id":"`+id+`"}`, "line"))
	}
	if st == AnalysisPosted {
		ok, err := s.BeginPost(ctx, id)
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, s.FinishPost(ctx, id))
	}
}

func TestVerificationLifecycleSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	finishedAnalysed(t, s, "pending1", AnalysisPending)
	finishedAnalysed(t, s, "done0001", AnalysisDone)
	finishedAnalysed(t, s, "posted01", AnalysisPosted)

	un, err := s.Unverified(ctx, 10)
	require.NoError(t, err)
	var ids []string
	for _, g := range un {
		ids = append(ids, g.ID)
	}
	assert.ElementsMatch(t, []string{"done0001", "posted01"}, ids, "only analysed games are verified")

	t0 := time.UnixMilli(1_700_000_000_000)
	require.NoError(t, s.EnqueueVerification(ctx, "done0001", t0, t0))
	require.NoError(t, s.EnqueueVerification(ctx, "posted01", t0, t0.Add(time.Hour)))
	require.NoError(t, s.EnqueueVerification(ctx, "done0001", t0, t0.Add(5*time.Hour)), "a second enqueue keeps the record")
	un, err = s.Unverified(ctx, 10)
	require.NoError(t, err)
	assert.Empty(t, un)

	due, err := s.DueVerifications(ctx, t0.Add(time.Minute), 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	assert.Equal(t, "done0001", due[0].GameID)
	assert.Equal(t, VerifyWaiting, due[0].State)
	next, ok, err := s.NextVerificationAt(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, t0, next)

	require.NoError(t, s.SaveCloudCheck(ctx, "done0001", 6, 5, 1, `{"checked":6}`))
	require.NoError(t, s.RetryVerification(ctx, "done0001", 1, t0.Add(2*time.Minute), ""))

	s2 := reopen(t, s, path)
	v, err := s2.Verification(ctx, "done0001")
	require.NoError(t, err)
	assert.True(t, v.CloudDone)
	assert.Equal(t, [3]int{6, 5, 1}, [3]int{v.CloudChecked, v.CloudAgree, v.CloudMissing})
	assert.Equal(t, 1, v.Attempts)
	assert.Equal(t, t0.Add(2*time.Minute), v.NextAt)
	assert.Equal(t, t0, v.FinishedAt)

	require.NoError(t, s2.SaveLichessCheck(ctx, "done0001", 36, 34, `{"judgements":36}`))
	require.NoError(t, s2.EndVerification(ctx, "posted01", VerifyExpired, "no analysis"))
	v, err = s2.Verification(ctx, "done0001")
	require.NoError(t, err)
	assert.Equal(t, VerifyDone, v.State)
	assert.Equal(t, [2]int{36, 34}, [2]int{v.Judgements, v.Agree})
	assert.JSONEq(t, `{"judgements":36}`, v.LichessResult)
	_, ok, err = s2.NextVerificationAt(ctx)
	require.NoError(t, err)
	assert.False(t, ok, "nothing waits any more")
	recent, err := s2.RecentVerifications(ctx, 10)
	require.NoError(t, err)
	assert.Len(t, recent, 2)

	_, err = s2.Verification(ctx, "nope")
	assert.True(t, errors.Is(err, ErrNotFound))
	assert.True(t, errors.Is(s2.RetryVerification(ctx, "nope", 1, t0, ""), ErrNotFound))
}
