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

// TestVerifiedAgainstLichessShown: the dashboard and the game page show a
// game's verification, naming what it was checked against — Lichess (the
// pages as they always were), or the sandbox's stand-in.
func TestVerifiedAgainstLichessShown(t *testing.T) {
	for _, tc := range []struct {
		against verify.Against
		want    []string
		not     string
	}{
		{verify.Lichess, []string{
			"verified against Lichess: 34/36 judgements agree, cloud eval 5/6",
			"waiting for Lichess&#39;s analysis (2 polls so far, next 11-25 12:03 UTC)",
			`<th scope="col">Analysis</th><th scope="col">Lichess</th>`,
			`<h2 id="verified-h">Verified against Lichess</h2>`,
			"<caption>Where Lichess&#39;s analysis judged differently</caption>",
			"<summary>Critical moves judged from Lichess&#39;s cloud evals</summary>",
		}, "stand-in"},
		{verify.StandIn, []string{
			"verified against the sandbox&#39;s Lichess stand-in: 34/36 judgements agree, cloud eval 5/6",
			"waiting for the sandbox&#39;s Lichess stand-in&#39;s analysis (2 polls so far, next 11-25 12:03 UTC)",
			`<th scope="col">Analysis</th><th scope="col">the sandbox&#39;s Lichess stand-in</th>`,
			`<h2 id="verified-h">Verified against the sandbox&#39;s Lichess stand-in</h2>`,
			"<caption>Where the sandbox&#39;s Lichess stand-in&#39;s analysis judged differently</caption>",
			"<summary>Critical moves judged from the sandbox&#39;s Lichess stand-in&#39;s cloud evals</summary>",
		}, "against Lichess"},
	} {
		t.Run(string(tc.against), func(t *testing.T) {
			body := verifiedPages(t, tc.against)
			for _, w := range tc.want {
				assert.Contains(t, body, w)
			}
			assert.NotContains(t, body, tc.not)
			assert.Contains(t, body, "<td>27</td><td class=\"san\">Rxe8</td><td>Mistake</td><td>Inaccuracy</td><td>borderline</td>")
			assert.Contains(t, body, "<td>14</td><td class=\"san\">Qxf7</td><td>Blunder</td><td>Mistake</td>")
		})
	}
}

// verifiedPages is the dashboard and the game page of a console checked
// against against, with two verifications in its store.
func verifiedPages(t *testing.T, against verify.Against) string {
	e := newTestEnv(t, func(o *Options) { o.Against = against })
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

	code, dash := e.get(t, "/")
	require.Equal(t, http.StatusOK, code)
	code, game := e.get(t, "/game/"+fixtureID)
	require.Equal(t, http.StatusOK, code)
	return dash + game
}

// TestRunsPageNamesAgainst: the comparison runs page names whose
// judgements the runs agree with as the console's Against says (the
// configured [lichess] url, verify.AgainstURL): Lichess for lichess.org,
// the sandbox's stand-in for a sandbox URL — never "Lichess" for the
// stand-in.
func TestRunsPageNamesAgainst(t *testing.T) {
	for _, tc := range []struct {
		url      string
		want     []string
		notWants string
	}{
		{"https://lichess.org", []string{
			"Agreement with Lichess over 2 finished runs",
			"agreement with Lichess&#39;s judgements, per finished run",
		}, "stand-in"},
		{"http://127.0.0.1:9663", []string{
			"Agreement with the sandbox&#39;s Lichess stand-in over 2 finished runs",
			"agreement with the sandbox&#39;s Lichess stand-in&#39;s judgements, per finished run",
		}, "with Lichess"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			e := newTestEnv(t, func(o *Options) { o.Against = verify.AgainstURL(tc.url) })
			body := e.page(t, "/runs")
			for _, w := range tc.want {
				assert.Contains(t, body, w)
			}
			assert.NotContains(t, body, tc.notWants)
		})
	}
}
