package verify

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

func TestBackoffSchedule(t *testing.T) {
	b := Backoff{First: time.Minute, Max: 2 * time.Hour, Window: 48 * time.Hour}
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{
		{1, time.Minute}, {2, 2 * time.Minute}, {3, 4 * time.Minute}, {7, 64 * time.Minute},
		{8, 2 * time.Hour}, {9, 2 * time.Hour}, {100, 2 * time.Hour},
	} {
		assert.Equal(t, tc.want, b.Delay(tc.attempts), "attempts %d", tc.attempts)
	}
	t0 := time.UnixMilli(1_700_000_000_000)
	for _, tc := range []struct {
		name     string
		now      time.Time
		attempts int
		jitter   float64
		locked   time.Time
		want     time.Time
		ok       bool
	}{
		{"first retry", t0, 1, 0, time.Time{}, t0.Add(time.Minute), true},
		{"jitter adds at most a tenth", t0, 1, 0.999, time.Time{}, t0.Add(time.Minute + 5994*time.Millisecond), true},
		{"a 429 lockout postpones", t0, 1, 0, t0.Add(10 * time.Minute), t0.Add(10 * time.Minute), true},
		{"short lockout changes nothing", t0, 3, 0, t0.Add(time.Minute), t0.Add(4 * time.Minute), true},
		{"the last poll at the window's end", t0.Add(47 * time.Hour), 20, 0, time.Time{}, t0.Add(48 * time.Hour), true},
		{"window over", t0.Add(48 * time.Hour), 21, 0, time.Time{}, time.Time{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := b.Next(t0, tc.now, tc.attempts, tc.jitter, tc.locked)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
	// the whole window: the polls never hammer
	polls, now := 1, t0
	for attempts := 1; ; attempts++ {
		next, ok := b.Next(t0, now, attempts, 0.5, time.Time{})
		if !ok {
			break
		}
		require.True(t, next.After(now))
		now, polls = next, polls+1
	}
	assert.Equal(t, 30, polls, "polls in 48 hours: 1, 2, 4 … 64 minutes, then every 2 h (+5% jitter)")
}

func TestCheckCloud(t *testing.T) {
	lg := sampleExport(t)
	ours := lichessAnalysis(t, lg)
	ctx := context.Background()
	flagged := 0
	for _, p := range ours.Plies {
		if p.Judgement != analysis.NoJudgement {
			flagged++
		}
	}
	require.Equal(t, 14, flagged)
	boards, err := ours.ReplayBoards(context.Background(), false)
	require.NoError(t, err)

	t.Run("cloud evals like Lichess's agree on every critical ply", func(t *testing.T) {
		api := &fakeAPI{cloud: cloudFromLichess(t, ours, lg), clock: time.Now}
		rep, err := CheckCloud(ctx, api, ours, "")
		require.NoError(t, err)
		assert.Equal(t, MaxCloudPlies, len(rep.Positions), "bounded")
		assert.Equal(t, MaxCloudPlies, rep.Checked)
		assert.Equal(t, MaxCloudPlies, rep.Agree)
		assert.Zero(t, rep.Missing)
		assert.LessOrEqual(t, api.cloudHits, 2*MaxCloudPlies, "each position asked once")
		for i, p := range rep.Positions {
			if i > 0 {
				assert.Less(t, rep.Positions[i-1].Ply, p.Ply, "game order")
			}
			assert.Equal(t, p.Ours, p.Cloud)
		}
		// the blunders are all there: the worst plies are kept
		assert.Equal(t, 8, countName(rep, "Blunder"))
	})
	t.Run("missing, gate and disagreement", func(t *testing.T) {
		cloud := cloudFromLichess(t, ours, lg)
		// ply 12 (index 11, an inaccuracy): its position after is not in the cloud
		delete(cloud, boards[12].FEN())
		// ply 14 (index 13, a blunder): the cloud's best move is the move played
		c := *cloud[boards[13].FEN()]
		c.PVs = []lichess.PV{{Moves: ours.Plies[13].UCI, CP: c.PVs[0].CP, Mate: c.PVs[0].Mate}}
		cloud[boards[13].FEN()] = &c
		api := &fakeAPI{cloud: cloud, clock: time.Now}
		rep, err := CheckCloud(ctx, api, ours, "")
		require.NoError(t, err)
		byPly := map[int]CloudPosition{}
		for _, p := range rep.Positions {
			byPly[p.Ply] = p
		}
		assert.False(t, byPly[12].InCloud)
		assert.False(t, byPly[13].InCloud, "ply 13's position before is ply 12's after")
		assert.True(t, byPly[14].InCloud)
		assert.Equal(t, "none", byPly[14].Cloud, "the gate: the cloud's best move was played")
		assert.False(t, byPly[14].Agree)
		assert.Equal(t, 2, rep.Missing)
		assert.Equal(t, rep.Checked-1, rep.Agree)
	})
	t.Run("a 429 stops the check", func(t *testing.T) {
		api := &fakeAPI{cloud: cloudFromLichess(t, ours, lg), clock: time.Now, limit429: 1, lockFor: time.Minute}
		_, err := CheckCloud(ctx, api, ours, "")
		require.Error(t, err)
		assert.True(t, errors.Is(err, lichess.ErrRateLimited))
		assert.Equal(t, 1, api.cloudHits, "nothing more after the 429")
	})
}

func countName(rep CloudReport, name string) int {
	n := 0
	for _, p := range rep.Positions {
		if p.Ours == name {
			n++
		}
	}
	return n
}

func TestCheckServer(t *testing.T) {
	lg := sampleExport(t)
	ctx := context.Background()
	t.Run("no analysis yet", func(t *testing.T) {
		ours := lichessAnalysis(t, lg)
		_, found, err := CheckServer(ctx, &fakeAPI{export: withoutAnalysis(lg)}, ours)
		require.NoError(t, err)
		assert.False(t, found)
	})
	t.Run("the same evals agree on every judgement", func(t *testing.T) {
		ours := lichessAnalysis(t, lg)
		rep, found, err := CheckServer(ctx, &fakeAPI{export: lg}, ours)
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, 14, rep.Judgements)
		assert.Equal(t, 14, rep.Agree)
		assert.Equal(t, 43, rep.Comparison.Plies)
		assert.Empty(t, rep.Comparison.Disagreements)
	})
	t.Run("a disagreement is found and explained", func(t *testing.T) {
		ours := lichessAnalysis(t, lg)
		// our engine's best move at ply 14 was the move played: not judged
		played := ours.Plies[13].UCI
		ours.Plies[13].BestUCI = &played
		// ours is decoded from JSON, as a stored analysis is: the stored
		// path rebuilds it, which recomputes the gate from its best move
		rep, found, err := CheckServerDetect(ctx, &fakeAPI{export: lg}, ours, nil)
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, 14, rep.Judgements)
		assert.Equal(t, 13, rep.Agree)
		require.Len(t, rep.Comparison.Disagreements, 1)
		d := rep.Comparison.Disagreements[0]
		assert.Equal(t, 14, d.Ply)
		assert.Equal(t, analysis.CauseGate, d.Cause)
		assert.Equal(t, "Checked against Lichess's own analysis: 13/14 judgements agree.", Line(rep, Lichess))
		assert.Equal(t, "Checked against the sandbox's Lichess stand-in's own analysis: 13/14 judgements agree.", Line(rep, StandIn))
		assert.Equal(t, "The sandbox's Lichess stand-in's own analysis agrees: no inaccuracy, mistake or blunder.", Line(ServerReport{}, StandIn))
		assert.Equal(t, "Lichess's own analysis agrees: no inaccuracy, mistake or blunder.", Line(ServerReport{}, ""))
	})
	t.Run("the period is detected from Lichess's evals", func(t *testing.T) {
		ours := lichessAnalysis(t, lg)
		var seen *analysis.Game
		detect := func(_ context.Context, g *analysis.Game) (*analysis.Detection, error) {
			seen = g
			return &analysis.Detection{}, nil
		}
		rep, found, err := CheckServerDetect(ctx, &fakeAPI{export: lg}, ours, detect)
		require.NoError(t, err)
		require.True(t, found)
		require.NotNil(t, seen, "the detector ran")
		assert.Equal(t, len(lg.Analysis), len(seen.Lichess.Plies), "on the export's evals")
		assert.Contains(t, rep.Period, "no obtainable period gives Lichess's evals")
		failing := func(context.Context, *analysis.Game) (*analysis.Detection, error) {
			return nil, errors.New("no eval past ply 16")
		}
		rep, _, err = CheckServerDetect(ctx, &fakeAPI{export: lg}, ours, failing)
		require.NoError(t, err, "a failed detection is reported, not fatal")
		assert.Equal(t, "not detected: no eval past ply 16", rep.Period)
		raw, _ := json.Marshal(ServerReport{Judgements: 14, Agree: 13, Period: "Stockfish 16 (fishnet 2.7.0): 5/5 evals exact"})
		assert.Equal(t, "verified against Lichess: 13/14 judgements agree; Lichess's engine: Stockfish 16 (fishnet 2.7.0): 5/5 evals exact",
			Text(store.Verification{State: store.VerifyDone, Agree: 13, Judgements: 14, LichessResult: string(raw)}, Lichess))
	})
	t.Run("the summary's check builds only Lichess's analysis", func(t *testing.T) {
		// one pass per game through the summary (issue 33): the analysis
		// just made is compared as it is, not rebuilt; a stored one is
		var fresh, stored analysis.Counts
		_, found, err := CheckServer(analysis.WithCounts(ctx, &fresh), &fakeAPI{export: lg}, lichessAnalysis(t, lg))
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, int64(1), fresh.Builds.Load(), "the summary's check: Lichess's analysis only")
		assert.Equal(t, int64(1), fresh.Replays.Load(), "the summary's check: the export's moves once")
		_, _, err = CheckServerDetect(analysis.WithCounts(ctx, &stored), &fakeAPI{export: lg}, lichessAnalysis(t, lg), nil)
		require.NoError(t, err)
		assert.Equal(t, int64(2), stored.Builds.Load(), "a stored analysis: rebuilt, and Lichess's")

		// the background worker's round: the cloud check replays the stored
		// analysis once, and the export is read on those boards
		var round analysis.Counts
		rctx := analysis.WithCounts(ctx, &round)
		ours := lichessAnalysis(t, lg)
		_, err = CheckCloud(rctx, &fakeAPI{export: lg}, ours, "standard")
		require.NoError(t, err)
		_, found, err = CheckServerDetect(rctx, &fakeAPI{export: lg}, ours, nil)
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, int64(1), round.Replays.Load(), "a worker's round: the cloud check's replay only")
	})
	t.Run("another game is refused", func(t *testing.T) {
		ours := lichessAnalysis(t, lg)
		ours.Plies = ours.Plies[:10]
		_, _, err := CheckServer(ctx, &fakeAPI{export: lg}, ours)
		require.ErrorContains(t, err, "our analysis has 10 plies, Lichess's export 43")
		_, err = ours.ReplayBoards(ctx, false)
		require.NoError(t, err)
		_, _, err = CheckServer(ctx, &fakeAPI{export: lg}, ours)
		require.ErrorContains(t, err, "our analysis has 10 plies, Lichess's export 43", "with boards that do not fit the export")

		// the same moves from another start are another game: the export
		// is replayed from its own start, not read on our boards
		ours = lichessAnalysis(t, lg)
		_, err = ours.ReplayBoards(ctx, false)
		require.NoError(t, err)
		moved := *lg
		moved.InitialFEN = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
		_, _, err = CheckServer(ctx, &fakeAPI{export: &moved}, ours)
		require.Error(t, err, "an export from another start")
	})
}

// TestCheckCloudChess960: a Chess960 game (castling rights of rooks that
// are not on a and h, the king not on e1) is replayed with its own rules
// and looked up in the Chess960 cloud; read as standard chess its start
// position is illegal.
func TestCheckCloudChess960(t *testing.T) {
	const start = "rnkrbbnq/pppppppp/8/8/8/8/PPPPPPPP/RNKRBBNQ w KQkq - 0 1"
	ours := &analysis.Analysis{ID: "c960", FEN: start, Plies: []analysis.Ply{
		{Ply: 1, UCI: "a2a3", SAN: "a3", Judgement: analysis.Blunder},
		{Ply: 2, UCI: "h7h6", SAN: "h6"},
	}}
	boards, err := ours.ReplayBoards(context.Background(), true)
	require.NoError(t, err)
	cp := 0
	api := &fakeAPI{clock: time.Now, cloud: map[string]*lichess.CloudEval{
		boards[0].FEN(): {Depth: 30, PVs: []lichess.PV{{Moves: "b2b3", CP: &cp}}},
		boards[1].FEN(): {Depth: 30, PVs: []lichess.PV{{Moves: "h7h6", CP: &cp}}},
	}}
	rep, err := CheckCloud(context.Background(), api, ours, "chess960")
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Checked)
	assert.Equal(t, []string{"chess960", "chess960"}, api.variants)

	_, err = CheckCloud(context.Background(), api, ours, "standard")
	require.Error(t, err, "as standard chess the start is illegal")
	assert.Contains(t, err.Error(), "c960")
}
