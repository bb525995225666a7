package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "outpost.db")
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// reopen closes s and opens its file at path again, closed at the
// test's end.
func reopen(t *testing.T, s *Store, path string) *Store {
	t.Helper()
	require.NoError(t, s.Close())
	s2, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s2.Close() })
	return s2
}

func TestGameLifecycleSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	require.NoError(t, s.StartGame(ctx, Game{ID: "abcd1234", Opponent: "alice", Color: "white", Engine: "hard", Speed: "blitz"}))
	require.NoError(t, s.UpdateMoves(ctx, "abcd1234", "e2e4 e7e5"))
	// A replayed gameStart with another engine must not change the engine chosen.
	require.NoError(t, s.StartGame(ctx, Game{ID: "abcd1234", Opponent: "alice", Color: "white", Engine: "easy"}))
	active, err := s.ActiveGames(ctx)
	require.NoError(t, err)
	require.Len(t, active, 1)
	assert.Equal(t, "hard", active[0].Engine)
	assert.Equal(t, "e2e4 e7e5", active[0].Moves)

	s2 := reopen(t, s, path)
	g, err := s2.Game(ctx, "abcd1234")
	require.NoError(t, err)
	assert.False(t, g.Finished())
	ok, err := s2.FinishGame(ctx, "abcd1234", "mate", "white", "e2e4 e7e5", "[Event \"x\"]")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = s2.FinishGame(ctx, "abcd1234", "resign", "black", "", "")
	require.NoError(t, err)
	assert.False(t, ok, "a finished game is finished once")
	g, err = s2.Game(ctx, "abcd1234")
	require.NoError(t, err)
	assert.Equal(t, "mate", g.Status)
	assert.Equal(t, "white", g.Winner)
	active, err = s2.ActiveGames(ctx)
	require.NoError(t, err)
	assert.Empty(t, active)

	_, err = s2.Game(ctx, "nope")
	assert.True(t, errors.Is(err, ErrNotFound))
}

func TestReserveMoveOncePerPly(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	wins := make(chan string, 8)
	for _, mv := range []string{"e2e4", "d2d4", "c2c4", "g1f3", "b1c3", "f2f4", "b2b3", "g2g3"} {
		wg.Add(1)
		go func(mv string) {
			defer wg.Done()
			ok, _, err := s.ReserveMove(ctx, SentMove{GameID: "g1", Ply: 0, UCI: mv, WTime: time.Minute})
			assert.NoError(t, err)
			if ok {
				wins <- mv
			}
		}(mv)
	}
	wg.Wait()
	close(wins)
	var won []string
	for w := range wins {
		won = append(won, w)
	}
	require.Len(t, won, 1, "exactly one move may be reserved at a ply")
	ok, prev, err := s.ReserveMove(ctx, SentMove{GameID: "g1", Ply: 0, UCI: "a2a3"})
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, won[0], prev.UCI)
	assert.Equal(t, time.Minute, prev.WTime)

	require.NoError(t, s.ReleaseMove(ctx, "g1", 0))
	ok, _, err = s.ReserveMove(ctx, SentMove{GameID: "g1", Ply: 0, UCI: "a2a3"})
	require.NoError(t, err)
	assert.True(t, ok)
	moves, err := s.SentMoves(ctx, "g1")
	require.NoError(t, err)
	require.Len(t, moves, 1)
	assert.Equal(t, "a2a3", moves[0].UCI)
}

func TestSummaryPostedExactlyOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	require.NoError(t, s.EnqueueAnalysis(ctx, "g1"))
	ok, err := s.BeginPost(ctx, "g1")
	require.NoError(t, err)
	assert.False(t, ok, "nothing to post before the analysis is done")
	require.NoError(t, s.SaveAnalysis(ctx, "g1", `{"x":1}`, "line one"))
	// A replayed gameFinish must not reset a done analysis.
	require.NoError(t, s.EnqueueAnalysis(ctx, "g1"))
	a, err := s.AnalysisOf(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, AnalysisDone, a.State)
	assert.Equal(t, "line one", a.Summary)

	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := 0
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.BeginPost(ctx, "g1")
			assert.NoError(t, err)
			if ok {
				mu.Lock()
				winners++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, winners)
	pending, err := s.AnalysesIn(ctx, AnalysisPosting)
	require.NoError(t, err)
	require.Len(t, pending, 1)
	require.NoError(t, s.AbandonPost(ctx, "g1"))
	ok, err = s.BeginPost(ctx, "g1")
	require.NoError(t, err)
	assert.True(t, ok)
	require.NoError(t, s.FinishPost(ctx, "g1"))
	a, err = s.AnalysisOf(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, AnalysisPosted, a.State)
}

func TestCountsCacheDeclinesRuns(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	start := time.Now().Add(-time.Hour)
	require.NoError(t, s.StartGame(ctx, Game{ID: "a", Opponent: "BotOne", OpponentBot: true}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "b", Opponent: "botone", OpponentBot: true}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "c", Opponent: "human"}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "d", Opponent: "old", OpponentBot: true, StartedAt: start.Add(-48 * time.Hour)}))
	n, err := s.CountGamesSince(ctx, start, true, "")
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	n, err = s.CountGamesSince(ctx, start, false, "BOTONE")
	require.NoError(t, err)
	assert.Equal(t, 2, n)

	_, ok, err := s.CacheGet(ctx, "sfeval", "k")
	require.NoError(t, err)
	assert.False(t, ok)
	require.NoError(t, s.CachePut(ctx, "sfeval", "k", []byte("v1")))
	require.NoError(t, s.CachePut(ctx, "sfeval", "k", []byte("v2")))
	v, ok, err := s.CacheGet(ctx, "sfeval", "k")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "v2", string(v))

	require.NoError(t, s.RecordDecline(ctx, "Bob", "later"))
	d, err := s.DeclinedSince(ctx, "bob", start)
	require.NoError(t, err)
	assert.True(t, d)
	d, err = s.DeclinedSince(ctx, "bob", time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.False(t, d)

	id, err := s.StartRun(ctx, "alice", `{"nodes":1000}`)
	require.NoError(t, err)
	require.NoError(t, s.SaveRunGame(ctx, id, "g1", `{"exact":1}`))
	require.NoError(t, s.SaveRunGame(ctx, id, "g1", `{"exact":2}`))
	games, err := s.RunGames(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"g1": `{"exact":2}`}, games)
	require.NoError(t, s.FinishRun(ctx, id, RunFinished, `{"f1":0.9}`))
	runs, err := s.Runs(ctx, "ALICE", 10)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	assert.Equal(t, RunFinished, runs[0].State)
	assert.False(t, runs[0].FinishedAt.IsZero())
}

func TestOpenRejectsNewerSchema(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	_, err := s.db.ExecContext(ctx, "PRAGMA user_version = 999")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	_, err = Open(ctx, path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "newer")
}

func TestLastGameWith(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	old := time.Now().Add(-3 * time.Hour).Truncate(time.Millisecond)
	recent := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	require.NoError(t, s.StartGame(ctx, Game{ID: "a", Opponent: "BotOne", StartedAt: old}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "b", Opponent: "botone", StartedAt: recent}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "c", Opponent: "other", StartedAt: time.Now()}))
	last, err := s.LastGameWith(ctx, "BOTONE")
	require.NoError(t, err)
	assert.True(t, last.Equal(recent), "latest game with botone: got %s, want %s", last, recent)
	never, err := s.LastGameWith(ctx, "stranger")
	require.NoError(t, err)
	assert.True(t, never.IsZero(), "no game with stranger")
}

// Regression (issue 18): a server that reused a finished game's id had the
// new game overwrite the finished record, and the new game got no chat
// (the old game's one-time flags covered it).
func TestReusedIDDoesNotOverwriteFinishedGame(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	require.NoError(t, s.StartGame(ctx, Game{ID: "reused01", Opponent: "alice", Color: "white"}))
	ok, err := s.FinishGame(ctx, "reused01", "mate", "white", "f2f3 e7e5 g2g4 d8h4", "[PGN]")
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, s.EnqueueAnalysis(ctx, "reused01"))
	require.NoError(t, s.CachePut(ctx, "chat-line", "reused01:greeting:player", []byte("sent")))

	// the id comes back for a new game
	require.NoError(t, s.StartGame(ctx, Game{ID: "reused01", Opponent: "bob", Color: "black"}))
	g, err := s.Game(ctx, "reused01")
	require.NoError(t, err)
	assert.False(t, g.Finished(), "the new game starts fresh")
	assert.Equal(t, "bob", g.Opponent)
	assert.Empty(t, g.Moves)
	_, flagged, err := s.CacheGet(ctx, "chat-line", "reused01:greeting:player")
	require.NoError(t, err)
	assert.False(t, flagged, "the new game must greet")
	_, err = s.AnalysisOf(ctx, "reused01")
	assert.ErrorIs(t, err, ErrNotFound)

	recent, err := s.RecentGames(ctx, 10)
	require.NoError(t, err)
	var old *Game
	for i := range recent {
		if strings.HasPrefix(recent[i].ID, "reused01~") {
			old = &recent[i]
		}
	}
	require.NotNil(t, old, "the finished game is kept: %+v", recent)
	assert.Equal(t, "mate", old.Status)
	assert.Equal(t, "alice", old.Opponent)
	a, err := s.AnalysisOf(ctx, old.ID)
	require.NoError(t, err)
	assert.Equal(t, AnalysisPending, a.State)
	_, flagged, _ = s.CacheGet(ctx, "chat-line", old.ID+":greeting:player")
	assert.True(t, flagged)

	// a replayed gameStart of a game in progress changes nothing
	require.NoError(t, s.StartGame(ctx, Game{ID: "reused01", Opponent: "bob", Color: "black"}))
	recent, _ = s.RecentGames(ctx, 10)
	assert.Len(t, recent, 2)
}

// TestRestartKeepsStartPosition: a restart replays gameStart without the
// start position (its fen is the current position, so the daemon records
// none) and possibly without speed or variant; the record keeps what the
// first start stored, and SetInitialFEN fills a position only where none
// was recorded.
func TestRestartKeepsStartPosition(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	const fen960 = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
	require.NoError(t, s.StartGame(ctx, Game{ID: "c960game", Opponent: "alice", Color: "white", Speed: "blitz",
		Variant: "chess960", InitialFEN: fen960}))
	require.NoError(t, s.StartGame(ctx, Game{ID: "c960game", Opponent: "alice", Color: "white"}))
	require.NoError(t, s.SetInitialFEN(ctx, "c960game", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
	g, err := s.Game(ctx, "c960game")
	require.NoError(t, err)
	assert.Equal(t, fen960, g.InitialFEN)
	assert.Equal(t, "chess960", g.Variant)
	assert.Equal(t, "blitz", g.Speed)

	// A game whose start was never recorded gets it from the runner.
	require.NoError(t, s.StartGame(ctx, Game{ID: "resumed1", Opponent: "bob", Variant: "chess960"}))
	require.NoError(t, s.SetInitialFEN(ctx, "resumed1", fen960))
	require.NoError(t, s.SetInitialFEN(ctx, "resumed1", ""))
	g, err = s.Game(ctx, "resumed1")
	require.NoError(t, err)
	assert.Equal(t, fen960, g.InitialFEN)
}
