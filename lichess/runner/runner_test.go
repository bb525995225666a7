package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/notnil/chess"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/timeman"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// scripted is a test engine: it plays the moves it is given in order when
// they are legal, and the first legal move otherwise. It can be made to
// fail or to answer an illegal move.
type scripted struct {
	moves   []string
	illegal bool
	fail    bool
	score   score.Score
	scored  bool // the moves carry score
	calls   atomic.Int32
}

func (s *scripted) SelectMove(ctx context.Context, pos engine.Position, _ engine.Limits) (engine.Move, error) {
	s.calls.Add(1)
	if s.fail {
		return engine.Move{}, errors.New("engine crashed")
	}
	if s.illegal {
		return engine.Move{UCI: "a1a8"}, nil
	}
	// notnil/chess, independent of the runner's own board, is the referee.
	g, err := notnilGame(pos)
	if err != nil {
		return engine.Move{}, err
	}
	valid := map[string]bool{}
	for _, m := range g.Position().ValidMoves() {
		valid[chess.UCINotation{}.Encode(g.Position(), m)] = true
	}
	for _, m := range s.moves {
		if valid[m] {
			return engine.Move{UCI: m, Score: s.score, HasScore: s.scored, Depth: 3}, nil
		}
	}
	mv := g.Position().ValidMoves()[0]
	return engine.Move{UCI: chess.UCINotation{}.Encode(g.Position(), mv), Score: s.score, HasScore: s.scored, Depth: 3}, nil
}

// notnilGame replays pos with notnil/chess.
func notnilGame(pos engine.Position) (*chess.Game, error) {
	g := chess.NewGame()
	if pos.StartFEN != "" {
		opt, err := chess.FEN(pos.StartFEN)
		if err != nil {
			return nil, err
		}
		g = chess.NewGame(opt)
	}
	for _, m := range pos.Moves {
		mv, err := chess.UCINotation{}.Decode(g.Position(), m)
		if err != nil {
			return nil, err
		}
		if err := g.Move(mv); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) Close() error { return nil }

type world struct {
	srv   *sandbox.Server
	bot   *lichess.Client
	alice *lichess.Client
	store *memJournal
}

func newWorld(t *testing.T, cfg sandbox.Config) *world {
	t.Helper()
	cfg.Accounts = []sandbox.Account{{Name: "Bot1", Token: "bot-token-1", Bot: true}, {Name: "Alice", Token: "alice-token-1"}}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = 200 * time.Millisecond
	}
	srv := sandbox.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { cancel(); srv.Close() })
	mk := func(tok string) *lichess.Client {
		c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(tok), StreamTimeout: 2 * time.Second, ReconnectMin: -1})
		require.NoError(t, err)
		return c
	}
	return &world{srv: srv, bot: mk("bot-token-1"), alice: mk("alice-token-1"), store: newMemJournal()}
}

// challenge has alice challenge the bot and the bot accept; it returns the
// game id.
func (w *world) challenge(t *testing.T, p lichess.ChallengeParams) string {
	t.Helper()
	ctx := context.Background()
	ch, err := w.alice.CreateChallenge(ctx, "bot1", p)
	require.NoError(t, err)
	require.NoError(t, w.bot.AcceptChallenge(ctx, ch.ID, ""))
	return ch.ID
}

// gameCfg is the conduct of the config's defaults, with short chat lines.
func gameCfg() Conduct {
	return Conduct{
		MoveOverhead: 100 * time.Millisecond, AbortAfter: 30 * time.Second,
		AcceptDraw: DrawByEval, DrawEvalCP: 20, DrawMinPly: 60,
		ResignBelowCP: -1000, ResignMoves: 5, ClaimVictory: true,
		Greeting: "Hi {opponent}, {engine} here", Goodbye: "GG {opponent}", GreetingRooms: []string{"player"},
		ChatCommands: true, CorrespondenceMoveTime: 30 * time.Second,
		EngineOutputRooms: []string{"spectator"}, OfferDrawMoves: 10,
	}
}

func (w *world) runner(id string, eng engine.Engine, g Conduct) *Runner {
	return New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: g, Logger: zerolog.Nop(),
		UnknownOutcomeRetry: 200 * time.Millisecond}, w.bot.Bot(), eng, w.store)
}

// reply has Alice answer the bot's first move with a legal move, offering
// a draw when asked.
func (w *world) reply(t *testing.T, ctx context.Context, id string, offerDraw bool) {
	t.Helper()
	snap, _ := w.srv.Game(id)
	move := "e7e5"
	if snap.Moves[0] == "e2e4" {
		move = "e7e6"
	}
	require.NoError(t, w.alice.Board().Move(ctx, id, move, offerDraw))
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func (w *world) movesIn(id string) int {
	g, _ := w.srv.Game(id)
	return len(g.Moves)
}

func runAsync(ctx context.Context, r *Runner) chan runResult {
	ch := make(chan runResult, 1)
	go func() {
		out, err := r.Run(ctx)
		ch <- runResult{out, err}
	}()
	return ch
}

// playGame has alice challenge the bot with p and plays the game in the
// background with eng and g (set adjusting the runner when not nil), for
// 30 seconds at most: it returns the game, the run's context and the
// channel of its result.
func (w *world) playGame(t *testing.T, p lichess.ChallengeParams, eng engine.Engine, g Conduct, set func(*Runner)) (string, context.Context, chan runResult) {
	t.Helper()
	id := w.challenge(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	r := w.runner(id, eng, g)
	if set != nil {
		set(r)
	}
	return id, ctx, runAsync(ctx, r)
}

// runResult is what a runner run by runAsync returned.
type runResult struct {
	out Outcome
	err error
}

// aliceResigns has alice resign game id and returns the outcome of the
// runner playing it, which must have ended without error.
func (w *world) aliceResigns(t *testing.T, ctx context.Context, id string, done <-chan runResult) Outcome {
	t.Helper()
	require.NoError(t, w.alice.Board().Resign(ctx, id))
	res := <-done
	require.NoError(t, res.err)
	return res.out
}

func TestRunnerPlaysGreetsAnswersAndFinishes(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	eng := &scripted{moves: []string{"e2e4", "g1f3", "f1c4"}, score: score.Score{CP: 35}, scored: true}
	id, ctx, done := w.playGame(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black}, eng, gameCfg(), nil)

	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	require.NoError(t, w.alice.Board().Move(ctx, id, "e7e5", false))
	waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
	require.NoError(t, w.alice.Board().Chat(ctx, id, lichess.RoomPlayer, "!eval"))
	require.NoError(t, w.alice.Board().Chat(ctx, id, lichess.RoomPlayer, "!eval now"))
	require.NoError(t, w.alice.Board().Chat(ctx, id, lichess.RoomSpectator, "!engine"))
	require.NoError(t, w.alice.Board().Chat(ctx, id, lichess.RoomSpectator, "!eval"))
	waitFor(t, "chat replies", func() bool { return len(w.srv.Chat(id)) >= 9 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, lichess.StatusResign, res.Status)
	assert.Equal(t, lichess.White, res.Winner)
	assert.Equal(t, lichess.White, res.Color)
	assert.Equal(t, []string{"e2e4", "e7e5", "g1f3"}, res.Moves)
	assert.Len(t, res.Latencies, 2)

	var texts []string
	for _, l := range w.srv.Chat(id) {
		if strings.EqualFold(l.User, "bot1") {
			texts = append(texts, l.Room+": "+l.Text)
		}
	}
	assert.Contains(t, texts, "player: Hi Alice, scripted here")
	// The engine's thinking goes to spectators only; the opponent is
	// politely refused (engine_output_rooms = ["spectator"]).
	assert.Contains(t, texts, "spectator: My evaluation: +0.35 (depth 3, my point of view)")
	assert.Contains(t, texts, "player: "+engineOutputRefusal)
	assert.NotContains(t, texts, "player: My evaluation: +0.35 (depth 3, my point of view)")
	assert.Contains(t, texts, "player: Usage: !eval (no arguments)")
	assert.Contains(t, texts, "spectator: I'm playing with scripted.")
	assert.Contains(t, texts, "player: GG Alice")

	// A restarted runner for the finished game greets no one again.
	before := len(w.srv.Chat(id))
	r2 := w.runner(id, eng, gameCfg())
	out, err := r2.Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, lichess.StatusResign, out.Status)
	assert.Equal(t, before, len(w.srv.Chat(id)))
}

func TestRunnerFallsBackOnBrokenEngine(t *testing.T) {
	for _, eng := range []*scripted{{fail: true}, {illegal: true}} {
		w := newWorld(t, sandbox.Config{})
		id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		done := runAsync(ctx, w.runner(id, eng, gameCfg()))
		waitFor(t, "fallback move", func() bool { return w.movesIn(id) == 1 })
		w.reply(t, ctx, id, false)
		waitFor(t, "second fallback move", func() bool { return w.movesIn(id) == 3 })
		require.NoError(t, w.alice.Board().Resign(ctx, id))
		res := <-done
		cancel()
		require.NoError(t, res.err)
		assert.Equal(t, 2, res.out.Fallbacks)
		g, _ := w.srv.Game(id)
		assert.Equal(t, "resign", g.Status)
	}
}

func TestRunnerResendsReservedMoveAfterRestart(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
	// A previous life of the daemon reserved d2d4 at ply 0 and died before
	// (or after) sending it: the new runner must send d2d4, not its own choice.
	ok, _, err := w.store.ReserveMove(context.Background(), SentMove{GameID: id, Ply: 0, UCI: "d2d4"})
	require.NoError(t, err)
	require.True(t, ok)
	eng := &scripted{moves: []string{"e2e4"}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := runAsync(ctx, w.runner(id, eng, gameCfg()))
	waitFor(t, "the reserved move", func() bool { return w.movesIn(id) == 1 })
	g, _ := w.srv.Game(id)
	assert.Equal(t, []string{"d2d4"}, g.Moves)
	w.aliceResigns(t, ctx, id, done)
}

func TestRunnerDrawPolicies(t *testing.T) {
	tests := []struct {
		policy string
		score  int
		drawn  bool
	}{
		{DrawAlways, 300, true},
		{DrawNever, 0, false},
		{DrawByEval, 10, true},
		{DrawByEval, 150, false},
		{DrawWhenBehind, -200, true},
		{DrawWhenBehind, 50, false},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			w := newWorld(t, sandbox.Config{})
			id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
			g := gameCfg()
			g.AcceptDraw, g.DrawEvalCP, g.DrawMinPly = tc.policy, 20, 0
			if tc.policy == DrawWhenBehind {
				g.DrawEvalCP = 100
			}
			eng := &scripted{score: score.Score{CP: tc.score}, scored: true}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done := runAsync(ctx, w.runner(id, eng, g))
			waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
			w.reply(t, ctx, id, true)
			if tc.drawn {
				res := <-done
				require.NoError(t, res.err)
				assert.Equal(t, lichess.StatusDraw, res.out.Status)
				return
			}
			waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
			snap, _ := w.srv.Game(id)
			assert.False(t, snap.WhiteDraw || snap.BlackDraw, "the offer was declined")
			w.aliceResigns(t, ctx, id, done)
		})
	}
}

func TestRunnerResignsLostPosition(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	g := gameCfg()
	g.ResignEnabled, g.ResignBelowCP, g.ResignMoves = true, -500, 2
	eng := &scripted{score: score.Score{Mate: -3}, scored: true}
	id, ctx, done := w.playGame(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black}, eng, g, nil)
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	w.reply(t, ctx, id, false)
	res := <-done
	require.NoError(t, res.err)
	assert.Equal(t, lichess.StatusResign, res.out.Status)
	assert.Equal(t, lichess.Black, res.out.Winner)
	assert.Equal(t, 3, len(res.out.Moves), "resigned after its second low evaluation")
}

func TestRunnerAbortsWhenOpponentNeverMoves(t *testing.T) {
	w := newWorld(t, sandbox.Config{NoStartTimeout: time.Minute})
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.White})
	g := gameCfg()
	g.AbortAfter = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := w.runner(id, &scripted{}, g).Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, lichess.StatusAborted, out.Status)
	assert.Empty(t, out.Moves)
}

// TestRunnerClaimsWhenOpponentLeaves (#31.5): when the opponent has left,
// the runner claims the win where Lichess allows it (a lobby game) and a
// draw where it allows only that (a challenge game: lila's
// Game.forceResignable excludes friend games, forceDrawable does not).
// Before the draw claim the challenge game stayed open until our clock ran
// out.
func TestRunnerClaimsWhenOpponentLeaves(t *testing.T) {
	for _, tc := range []struct {
		name   string
		start  func(w *world) string
		status lichess.Status
		winner lichess.Color
	}{
		{"challenge game: a draw", func(w *world) string {
			return w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.Black})
		}, lichess.StatusDraw, ""},
		{"lobby game: the win", func(w *world) string {
			id, err := w.srv.Pair(sandbox.Pairing{White: "Bot1", Black: "Alice", Source: sandbox.SourceLobby, Limit: 10 * time.Minute})
			require.NoError(t, err)
			return id
		}, lichess.StatusTimeout, lichess.White},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, sandbox.Config{GoneAfter: 200 * time.Millisecond, ClaimWinAfter: time.Second})
			id := tc.start(w)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			// Alice opens her game stream, plays, then goes away.
			as, err := w.alice.Board().StreamGame(ctx, id)
			require.NoError(t, err)
			done := runAsync(ctx, w.runner(id, &scripted{}, gameCfg()))
			waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
			w.reply(t, ctx, id, false)
			waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
			as.Close()
			res := <-done
			require.NoError(t, res.err)
			assert.Equal(t, tc.status, res.out.Status)
			assert.Equal(t, tc.winner, res.out.Winner)
		})
	}
}

// callLog records, in order, the moves a runner sends and the move lists
// it journals.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	l.calls = append(l.calls, s)
	l.mu.Unlock()
}

func (l *callLog) index(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Index(l.calls, s)
}

type loggedAPI struct {
	GameAPI
	log *callLog
}

func (a loggedAPI) Move(ctx context.Context, gameID, uci string, offeringDraw bool) error {
	a.log.add("send " + uci)
	return a.GameAPI.Move(ctx, gameID, uci, offeringDraw)
}

type loggedJournal struct {
	Journal
	log *callLog
}

func (j loggedJournal) UpdateMoves(ctx context.Context, id, moves string) error {
	j.log.add("journal [" + moves + "]")
	return j.Journal.UpdateMoves(ctx, id, moves)
}

// TestRunnerJournalsMovesAfterSending checks that every server move list
// reaches the journal, and that when it is our turn the write comes after
// our move was sent (it is not on the path from a state to our move).
func TestRunnerJournalsMovesAfterSending(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
	log := &callLog{}
	eng := &scripted{moves: []string{"e2e4", "g1f3"}}
	r := New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: gameCfg(), Logger: zerolog.Nop()},
		loggedAPI{w.bot.Bot(), log}, eng, loggedJournal{w.store, log})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := runAsync(ctx, r)
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	require.NoError(t, w.alice.Board().Move(ctx, id, "e7e5", false))
	waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
	w.aliceResigns(t, ctx, id, done)
	for _, c := range []struct{ sent, state string }{{"e2e4", ""}, {"g1f3", "e2e4 e7e5"}} {
		s, j := log.index("send "+c.sent), log.index("journal ["+c.state+"]")
		assert.True(t, s >= 0 && j > s, "journal of [%s] after sending %s: %v", c.state, c.sent, log.calls)
	}
	assert.GreaterOrEqual(t, log.index("journal [e2e4]"), 0, "%v", log.calls)
	assert.Equal(t, "journal [e2e4 e7e5 g1f3]", log.calls[len(log.calls)-1])
}

// refusingAPI answers every move with err and counts the attempts.
type refusingAPI struct {
	GameAPI
	err   error
	moves atomic.Int32
}

func (a *refusingAPI) Move(ctx context.Context, gameID, uci string, offeringDraw bool) error {
	a.moves.Add(1)
	return fmt.Errorf("lichess: move %s: %w", uci, a.err)
}

// retryAlarms is an injected Config.RetryAlarm: the test sees every wait
// the runner arms and fires it when it chooses.
type retryAlarms struct {
	mu    sync.Mutex
	fires []chan time.Time
}

func (a *retryAlarms) start(time.Duration) (<-chan time.Time, func()) {
	c := make(chan time.Time, 1)
	a.mu.Lock()
	a.fires = append(a.fires, c)
	a.mu.Unlock()
	return c, func() {}
}

func (a *retryAlarms) armed() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.fires)
}

// fire fires the n-th alarm (1-based).
func (a *retryAlarms) fire(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fires[n-1] <- time.Now()
}

// TestRunnerDoesNotRetryRefusedToken: a 401/403 on a move cannot succeed
// on a retry, whereas a server error is retried. The retry waits are
// injected: the test fires them, so a busy machine changes nothing.
func TestRunnerDoesNotRetryRefusedToken(t *testing.T) {
	for _, tc := range []struct {
		err   error
		retry bool
	}{
		{lichess.ErrForbidden, false},
		{lichess.ErrUnauthorized, false},
		{lichess.ErrServer, true},
	} {
		t.Run(tc.err.Error(), func(t *testing.T) {
			w := newWorld(t, sandbox.Config{})
			id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
			api := &refusingAPI{GameAPI: w.bot.Bot(), err: tc.err}
			alarms := &retryAlarms{}
			r := New(Config{GameID: id, Me: "bot1", EngineName: "scripted", Game: gameCfg(), Logger: zerolog.Nop(),
				RetryAlarm: alarms.start}, api, &scripted{moves: []string{"e2e4"}}, w.store)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done := runAsync(ctx, r)
			waitFor(t, "the first attempt", func() bool { return api.moves.Load() >= 1 })
			if tc.retry {
				for k := 1; k <= 2; k++ {
					waitFor(t, fmt.Sprintf("retry %d armed", k), func() bool { return alarms.armed() >= k })
					alarms.fire(k)
					waitFor(t, fmt.Sprintf("attempt %d", k+1), func() bool { return api.moves.Load() >= int32(k+1) })
				}
			}
			require.NoError(t, w.alice.Board().Resign(ctx, id))
			<-done // the runner has handled every answer it got
			if tc.retry {
				assert.Equal(t, int32(3), api.moves.Load(), "a server error must be retried, once per retry wait")
			} else {
				assert.Equal(t, int32(1), api.moves.Load(), "a refused token must not be retried")
				assert.Zero(t, alarms.armed(), "no retry may be armed after a refused token")
			}
		})
	}
}

// limitsEngine is a scripted engine that hands every Limits it gets to the
// test.
type limitsEngine struct {
	scripted
	seen chan engine.Limits
}

func (l *limitsEngine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	select {
	case l.seen <- lim:
	case <-ctx.Done():
	}
	return l.scripted.SelectMove(ctx, pos, lim)
}

// TestRunnerBudgetsFirstMoveFromExpiration plays 15+0 paired in the lobby
// (rapid: a 30 s first-move deadline, as on Lichess; a challenge game has
// none): the first move's
// deadline comes from the announced expiration (a third of 30 s, less the
// move overhead), not from the 15-minute clock (which alone allows 90 s);
// the second move, with no expiration any more, is planned on the clock.
func TestRunnerBudgetsFirstMoveFromExpiration(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	id, err := w.srv.Pair(sandbox.Pairing{White: "bot1", Black: "alice", Source: sandbox.SourceLobby, Limit: 900 * time.Second})
	require.NoError(t, err)
	eng := &limitsEngine{seen: make(chan engine.Limits, 4)}
	g := gameCfg()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := runAsync(ctx, w.runner(id, eng, g))

	first := <-eng.seen
	assert.Equal(t, 30*time.Second, first.FirstMoveTotal)
	assert.True(t, first.FirstMoveLeft > 0 && first.FirstMoveLeft <= 30*time.Second, "left %v", first.FirstMoveLeft)
	assert.Equal(t, 900*time.Second, first.BTime)
	assert.Equal(t, 10*time.Second-g.MoveOverhead, first.Deadline, "a third of the deadline, less the overhead")
	assert.Equal(t, timeman.Plan(first, true).Deadline, first.Deadline)

	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	w.reply(t, ctx, id, false)
	second := <-eng.seen
	assert.Zero(t, second.FirstMoveTotal, "no expiration once both sides moved")
	assert.Greater(t, second.Deadline, 60*time.Second, "planned on the 15-minute clock")
	assert.Equal(t, timeman.Plan(second, true).Deadline, second.Deadline)

	waitFor(t, "bot's second move", func() bool { return w.movesIn(id) == 3 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, lichess.StatusResign, res.Status)
}

// Regression (issue 18): a greeting that met one 502 was never retried.
// The greeting and the goodbye are each in the chat exactly once.
func TestRunnerGreetingRetriedAfter502(t *testing.T) {
	w := newWorld(t, sandbox.Config{})
	id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
	w.srv.Faults().ServerError("/api/bot/game/"+id+"/chat", 502, 1)
	eng := &scripted{moves: []string{"e2e4"}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := New(Config{GameID: id, Me: "bot1", EngineName: eng.Name(), Game: gameCfg(), Logger: zerolog.Nop(),
		UnknownOutcomeRetry: 200 * time.Millisecond, ChatWait: func(ctx context.Context, _ int) error { return ctx.Err() }},
		w.bot.Bot(), eng, w.store)
	done := runAsync(ctx, r)
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	w.aliceResigns(t, ctx, id, done)
	count := map[string]int{}
	for _, l := range w.srv.Chat(id) {
		count[l.Text]++
	}
	assert.Equal(t, 1, count["Hi Alice, scripted here"], "greeting after a 502: %v", count)
	assert.Equal(t, 1, count["GG Alice"], "goodbye: %v", count)
	assert.Equal(t, 1, w.srv.Faults().Fired(sandbox.FaultServerError))
}

// TestRunnerRefusesIllegalStartPosition: a gameFull whose initialFen is a
// position Lichess refuses (sent by a faulty server through the sandbox's
// initial-fen fault over loopback HTTP) is not played: the engine is never
// asked, no move is sent, the game is aborted and Run says why. (What
// Lichess drops instead, castling rights without their rooks: see
// TestRunnerPlaysWhatLichessDrops.)
func TestRunnerRefusesIllegalStartPosition(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/4q3/4K3 b - - 0 1",  // the side not to move in check
		"k3k3/8/8/8/8/8/8/R3K3 w - - 0 1",  // two black kings
		"4k3/8/8/8/8/8/8/R3KX2 w - - 0 1",  // no piece
		"4k3/8/8/8/8/8/8/P3K3 w - - 0 1",   // a pawn on the first rank
		"4k3/8/8/8/8/8/8/4K1RR w GK - 0 1", // two rooks for one right
	} {
		t.Run(fen, func(t *testing.T) {
			w := newWorld(t, sandbox.Config{})
			_, err := w.srv.Faults().Add(sandbox.Fault{Kind: sandbox.FaultInitialFEN, Path: "/api/bot/game/stream/", FEN: fen})
			require.NoError(t, err)
			id := w.challenge(t, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.Black})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			eng := &scripted{moves: []string{"e1e2"}}
			out, err := w.runner(id, eng, gameCfg()).Run(ctx)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "illegal position")
			assert.Contains(t, err.Error(), "aborted")
			assert.Zero(t, eng.calls.Load(), "the engine was asked about an illegal position")
			assert.Empty(t, out.Moves)
			g, ok := w.srv.Game(id)
			require.True(t, ok)
			assert.Equal(t, "aborted", g.Status)
			assert.Empty(t, g.Moves, "a move was sent")
		})
	}
}

// recording is a scripted engine that keeps the start positions it was
// given.
type recording struct {
	scripted
	mu     sync.Mutex
	starts []string
}

func (e *recording) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	e.mu.Lock()
	e.starts = append(e.starts, pos.StartFEN)
	e.mu.Unlock()
	return e.scripted.SelectMove(ctx, pos, lim)
}

// TestRunnerPlaysWhatLichessDrops: a gameFull whose initialFen holds
// castling rights without their rooks and an en passant square no double
// step made (a faulty server: Lichess writes neither) is played as Lichess
// plays the position, those dropped, and the engine is given the position
// without them (before issue 18 the raw FEN reached Stockfish, which
// crashed); the right that stands is castled.
func TestRunnerPlaysWhatLichessDrops(t *testing.T) {
	const played = "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"
	w := newWorld(t, sandbox.Config{})
	_, err := w.srv.Faults().Add(sandbox.Fault{Kind: sandbox.FaultInitialFEN, Path: "/api/bot/game/stream/",
		FEN: "r3k3/8/8/8/8/8/8/4K2R w KQkq e6 0 1"})
	require.NoError(t, err)
	eng := &recording{scripted: scripted{moves: []string{"e1g1"}}}
	id, ctx, done := w.playGame(t, lichess.ChallengeParams{Days: 1, Color: lichess.Black, FEN: played}, eng, gameCfg(), nil)
	waitFor(t, "bot's first move", func() bool { return w.movesIn(id) == 1 })
	res := w.aliceResigns(t, ctx, id, done)
	assert.Equal(t, []string{"e1g1"}, res.Moves)
	eng.mu.Lock()
	defer eng.mu.Unlock()
	require.NotEmpty(t, eng.starts)
	for _, s := range eng.starts {
		assert.Equal(t, played, s, "the engine's start position")
	}
}
