package web

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/verify"
)

func TestVerifiedAgainstLichessShown(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	require.NoError(t, e.st.EnqueueVerification(ctx, fixtureID, t0, t0))
	require.NoError(t, e.st.EnqueueVerification(ctx, "plain001", t0, t0.Add(3*time.Minute)))
	cloud, _ := json.Marshal(verify.CloudReport{Checked: 6, Agree: 5, Positions: []verify.CloudPosition{
		{Ply: 14, SAN: "Qxf7", Ours: "Blunder", InCloud: true, Cloud: "Mistake"}}})
	require.NoError(t, e.st.SaveCloudCheck(ctx, fixtureID, 6, 5, 0, string(cloud)))
	rep, _ := json.Marshal(verify.ServerReport{Judgements: 36, Agree: 34, Comparison: &analysis.Comparison{
		Disagreements: []analysis.Disagree{{Ply: 27, SAN: "Rxe8", Lichess: "Mistake", Ours: "Inaccuracy", Cause: "borderline"}}}})
	require.NoError(t, e.st.SaveLichessCheck(ctx, fixtureID, 36, 34, string(rep)))
	require.NoError(t, e.st.RetryVerification(ctx, "plain001", 2, t0.Add(3*time.Minute), ""))

	code, body := e.get(t, "/")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "verified against Lichess: 34/36 judgements agree, cloud eval 5/6")
	assert.Contains(t, body, "waiting for Lichess&#39;s analysis (2 polls so far, next 11-25 12:03 UTC)")

	code, body = e.get(t, "/game/"+fixtureID)
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `<h2 id="verified-h">Verified against Lichess</h2>`)
	assert.Contains(t, body, "<td>27</td><td class=\"san\">Rxe8</td><td>Mistake</td><td>Inaccuracy</td><td>borderline</td>")
	assert.Contains(t, body, "<td>14</td><td class=\"san\">Qxf7</td><td>Blunder</td><td>Mistake</td>")
}
