package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/sandbox/fishnet"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/internal/web"
	"github.com/outpostchess/outpost/models/modeltest"
)

// fakeStockfish scores every position as equal; when slow it never
// answers (the calculation outlasts any bound).
type fakeStockfish struct{ slow bool }

func (f fakeStockfish) Evaluate(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
	if f.slow {
		<-ctx.Done()
		return ctx.Err()
	}
	for i := range reqs {
		onResult(i, score.Score{CP: 0})
	}
	return nil
}

// TestDemoSummaryEWR plays games against the sandbox with the real
// post-game analysis (Stockfish at a small node budget) and a fake expected-
// winrate calculator: each summary carries the expected-winrate line, or,
// when the calculation outlasts its bound, says it was not ready — and is
// still posted exactly once.
func TestDemoSummaryEWR(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	if testing.Short() {
		t.Skip("plays a game")
	}
	for _, tc := range []struct {
		name  string
		slow  bool
		bound time.Duration
		want  string
	}{
		// No bound (as `outpost run --sandbox --games N`): the summary
		// waits for the line, so no machine is too busy for it.
		{"line in the summary", false, 0, "Critical moment "},
		// The slow fake never answers: any bound is exceeded.
		{"bound exceeded", true, time.Second, postgame.EWRNotReady},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t, 4*time.Minute)
			cfg := fastConfig()
			cfg.Engines.Default = "easy" // a weak bot: the game has a judged move
			sum := realSummariser(t, cfg)
			sum.WithEWR(postgame.EWROptions{Prober: ewrtest.UniformProber{}, Evaluator: fakeStockfish{slow: tc.slow}, Timeout: tc.bound, Mode: ewr.ModeFast})
			res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Summariser: sum, Dir: t.TempDir(), Logger: zerolog.Nop()})
			require.NoError(t, err)
			require.Len(t, res.Summary, 1)
			for id, lines := range res.Summary {
				var found []string
				for _, l := range lines {
					if strings.HasPrefix(l, tc.want) {
						found = append(found, l)
					}
				}
				require.Len(t, found, 1, "one expected-winrate line in %q", lines)
				assertPostedOnce(t, res, id, lines)
			}
		})
	}
}

// TestDemoSummaryVerifiedAgainstLichess plays a game against the sandbox,
// whose stand-in fishnet analyses it and fills the cloud with its
// positions; the daemon's summary then carries the agreement line, and the
// verification worker stores the checks against the cloud evals and the
// server analysis, which the web console shows.
func TestDemoSummaryVerifiedAgainstLichess(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	ctx := testContext(t, 4*time.Minute)
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	cfg.Verify.ChatLine = true
	sum := realSummariser(t, cfg)
	fish := fishnet.New(fishnet.Config{Pool: summaryPool(t), Nodes: 30000, CloudDepth: 8})
	defer fish.Close()
	verified := map[string]store.Verification{}
	var mu sync.Mutex
	var out bytes.Buffer
	// at most 30 plies (the sparring partner resigns in place of its 16th
	// move): every one is analysed twice by Stockfish, ours and fishnet's
	var logs testkit.SyncBuffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", SparringResignAfter: 15, Dir: t.TempDir(),
		Logger: zerolog.New(&logs).Level(zerolog.InfoLevel), Out: &out,
		Summariser: sum, Sandbox: sandbox.Config{Analyser: fish},
		Verify: verify.Options{Hooks: verify.Hooks{Updated: func(v store.Verification) {
			mu.Lock()
			defer mu.Unlock()
			verified[v.GameID] = v
		}}},
	})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	var v store.Verification
	for id := range res.Summary {
		v = verified[id]
	}
	srv := res.Sandbox
	require.Equal(t, store.VerifyDone, v.State, v.Error)
	// the verification's log lines name the bot (and their game)
	verifyLines := 0
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(l), &rec) == nil && rec["component"] == "verify" {
			verifyLines++
			assert.Equal(t, BotName, rec["bot"], l)
		}
	}
	assert.Positive(t, verifyLines, "the worker logged its checks")
	// the demo's line names the sandbox's stand-in, not Lichess
	assert.Contains(t, out.String(), "--- "+verify.Text(v, verify.StandIn)+" ---")
	assert.Contains(t, out.String(), "--- verified against the sandbox's Lichess stand-in: ")
	assert.NotContains(t, out.String(), "verified against Lichess")

	st := openStore(t, res)
	defer st.Close()
	ours, err := st.AnalysisOf(context.Background(), v.GameID)
	require.NoError(t, err)
	a, err := verify.Decode(v.GameID, ours.Result)
	require.NoError(t, err)
	critical := 0
	for _, p := range a.Plies {
		if p.Judgement != analysis.NoJudgement {
			critical++
		}
	}
	t.Logf("game %s: %d plies, %d judged by us; Lichess %d/%d agree, cloud %d/%d (%d missing)",
		v.GameID, len(a.Plies), critical, v.Agree, v.Judgements, v.CloudAgree, v.CloudChecked, v.CloudMissing)

	// the server analysis: compared judgement by judgement
	assert.GreaterOrEqual(t, v.Judgements, critical, "every ply we judged is counted")
	assert.LessOrEqual(t, v.Agree, v.Judgements)
	assert.Contains(t, v.LichessResult, `"comparison"`)
	// the cloud: every critical ply looked up, the sandbox knows the game's positions
	require.True(t, v.CloudDone)
	assert.Equal(t, min(critical, verify.MaxCloudPlies), v.CloudChecked+v.CloudMissing)
	if critical > 0 {
		assert.Positive(t, v.CloudChecked)
	}
	assert.LessOrEqual(t, v.CloudAgree, v.CloudChecked)

	// the chat line said the same at summary time
	line := verify.Line(verify.ServerReport{Judgements: v.Judgements, Agree: v.Agree}, verify.StandIn)
	assert.Contains(t, line, "the sandbox's Lichess stand-in's own analysis")
	found := false
	for _, l := range srv.Chat(v.GameID) {
		if l.User == BotName && l.Text == line {
			found = true
		}
	}
	assert.True(t, found, "chat line %q posted", line)

	// the sandbox's export carries Lichess's formats
	pgn, err := srv.ExportPGN(v.GameID)
	require.NoError(t, err)
	assert.Contains(t, pgn, `[Annotator "lichess.org"]`)
	assert.Contains(t, pgn, "[%eval ")

	// and the console shows it
	console, err := web.New(web.Options{Store: st, Logger: zerolog.Nop(), Against: verify.StandIn})
	require.NoError(t, err)
	defer console.Close()
	get := func(path string) string {
		rec := httptest.NewRecorder()
		console.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8090"+path, nil))
		require.Equal(t, http.StatusOK, rec.Code, path)
		return rec.Body.String()
	}
	// the dashboard lists the 30 most recent games; the sparring partner may
	// have played more while the first was analysed (quick repetitions)
	recent, err := st.RecentGames(context.Background(), 30)
	require.NoError(t, err)
	for _, g := range recent {
		if g.ID == v.GameID {
			dash := get("/")
			assert.Contains(t, dash, html.EscapeString(verify.Text(v, verify.StandIn)))
			assert.Contains(t, dash, `<th scope="col">the sandbox&#39;s Lichess stand-in</th>`)
		}
	}
	page := get("/game/" + v.GameID)
	assert.Contains(t, page, "Verified against the sandbox&#39;s Lichess stand-in")
	assert.NotContains(t, page, "Verified against Lichess")
	assert.Contains(t, page, html.EscapeString(verify.Text(v, verify.StandIn)))
}

// TestDemoChess960SummaryEWR plays a Chess960 game against the sandbox with
// the real post-game analysis and the real Maia: the summary carries the
// expected-winrate line (Maia replays the game from its X-FEN start with
// its castling rights), never "could not be computed".
func TestDemoChess960SummaryEWR(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	cfg := fastConfig()
	cfg.Engines.Default = "easy" // a weak bot: the game has a judged move
	sum := realSummariser(t, cfg)
	pred := modeltest.Predictor(t, 1500)
	ctx := testContext(t, 4*time.Minute)
	sum.WithEWR(postgame.EWROptions{Prober: ewr.NewMaiaProber(pred), Evaluator: fakeStockfish{}, Mode: ewr.ModeFast})
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+1", Summariser: sum, Dir: t.TempDir(),
		Logger: zerolog.Nop(), SparringVariant: "chess960"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	for id, lines := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		_, is960 := board.Chess960Number(g.InitialFEN)
		require.True(t, is960, "game %s starts from %q", id, g.InitialFEN)
		text := strings.Join(lines, "\n")
		assert.NotContains(t, text, postgame.EWRFailed)
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "Critical moment ") {
				n++
			}
		}
		assert.Equal(t, 1, n, "one expected-winrate line in %q", lines)
	}
}
