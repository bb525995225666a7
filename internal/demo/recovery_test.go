package demo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/chatonce"
)

// TestGoneGameClosedOnceAcrossRestarts: a game the store holds as running
// but the server does not know (its export answers 404: the server was
// replaced while the daemon was down) is closed at the daemon's start with
// its own status, gone, after one export request; the next daemon on the
// same store does not ask for it again.
func TestGoneGameClosedOnceAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	dir := t.TempDir()
	const id = "g0neG4me"
	st, err := store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "someone", Color: "white", Engine: "easy", Speed: "bullet"}))
	require.NoError(t, st.Close())

	for run, want := range []int{1, 0} {
		// the game only has to end: the sparring partner resigns early
		res, err := Run(ctx, Options{Config: fastConfig(), Games: 1, TC: "0.5+0", Summariser: &countingSummariser{},
			SparringResignAfter: 2, Dir: dir, Logger: testLogger(t)})
		require.NoError(t, err, "run %d", run+1)
		exports, notFound := 0, 0
		for _, r := range res.Sandbox.Requests() {
			if strings.HasPrefix(r.Path, "/game/export/"+id) {
				exports++
				if r.Status == 404 {
					notFound++
				}
			}
		}
		assert.Equal(t, want, exports, "run %d: export requests for the unknown game", run+1)
		assert.Equal(t, want, notFound, "run %d: answered 404", run+1)
	}
	st, err = store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	g, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, store.StatusGone, g.Status)
	active, err := st.ActiveGames(ctx)
	require.NoError(t, err)
	for _, a := range active { // a next game may have started before the demo stopped
		assert.NotEqual(t, id, a.ID, "the gone game is no longer running")
	}
}

// TestSummaryNotPostedWhileEveryChatPostFails: when every chat POST of a
// summary fails (502s, more than one posting attempt makes), the summary
// is not marked posted but goes back to the queue; once the server
// answers again it is posted, each line exactly once, and only then marked
// posted. Time is injected (ChatWait, PostRetryWait): no wall-clock wait.
func TestSummaryNotPostedWhileEveryChatPostFails(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	// more 502s on the chat POSTs than one posting attempt makes (chatonce
	// tries a line 6 times per call)
	const fails = 9
	cfg := fastConfig()
	cfg.Game.Greeting, cfg.Game.Goodbye = "", "" // the summary is the only chat
	var srvRef atomic.Pointer[sandbox.Server]
	var armOnce sync.Once
	onMove := func(id string, _ int) {
		armOnce.Do(func() {
			_, err := srvRef.Load().Faults().AddSpec(fmt.Sprintf("5xx:path=/api/bot/game/%s/chat,method=POST,status=502,times=%d", id, fails))
			assert.NoError(t, err)
		})
	}
	var mu sync.Mutex
	requeued := 0
	var atPosted []sandbox.ChatLine
	firedAtPosted := 0
	hooks := daemon.Hooks{
		ChatWait:      func(ctx context.Context, _ int) error { return ctx.Err() },
		PostRetryWait: func(ctx context.Context) error { return ctx.Err() },
		PostRequeued: func(id string) {
			mu.Lock()
			requeued++
			mu.Unlock()
		},
		SummaryPosted: func(id string, _ []string) {
			s := srvRef.Load()
			mu.Lock()
			atPosted, firedAtPosted = s.Chat(id), s.Faults().Fired(sandbox.FaultServerError)
			mu.Unlock()
		},
	}
	sum := &countingSummariser{}
	// the faults are armed at the first move; the game then only has to
	// end (the sparring partner resigns early)
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t), Hooks: hooks, Ready: func(s *sandbox.Server) { srvRef.Store(s) },
		Sandbox: sandbox.Config{OnMove: onMove}})
	require.NoError(t, err)
	checkGames(t, res, sum)
	require.Len(t, res.Summary, 1)
	var id string
	var lines []string
	for id, lines = range res.Summary {
	}
	mu.Lock()
	defer mu.Unlock()
	assert.GreaterOrEqual(t, requeued, 1, "the summary went back to the queue while every post failed")
	assert.Equal(t, fails, firedAtPosted, "marked posted only after the server answered again")
	for _, chat := range [][]sandbox.ChatLine{atPosted, res.Sandbox.Chat(id)} {
		for _, l := range lines {
			n := 0
			for _, c := range chat {
				if c.Text == l {
					n++
				}
			}
			assert.Equal(t, 1, n, "summary line %q in the chat", l)
		}
	}
	assert.Equal(t, store.AnalysisPosted, analysisOf(t, res, id).State)
}

// corrFEN is the correspondence test's start position: kings and pawns,
// so that two random movers cannot end the game by mate in its first
// moves; the game ends when the sparring partner resigns.
const corrFEN = "4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1"

// TestCorrespondenceSurvivesRestarts: a correspondence challenge (1 day
// per move, from a position) is accepted by policy and played; the daemon
// is killed and restarted three times during the game, and after each
// restart it reads the account's playing list, resumes the game and moves
// again, never twice at one ply. The game ends (the sparring partner
// resigns) and is summarised once.
func TestCorrespondenceSurvivesRestarts(t *testing.T) {
	ctx := leakChecked(t, time.Minute)
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	cfg.Challenge.Speeds = []string{"correspondence"} // real-time challenges would be declined
	cfg.Challenge.MinDays, cfg.Challenge.MaxDays = 1, 3
	cfg.Game.CorrespondenceMoveTime = 40 * time.Millisecond

	// Each restart waits until the running daemon has read the playing
	// list and moved since; the first comes at ply 3 at the earliest. The
	// sparring partner waits a little before each move, so that a fast
	// game cannot end before the third restart.
	const restarts = 3
	restart := make(chan struct{}, 1)
	var mu sync.Mutex
	var restartedAt []int
	// Every answered request wakes the watcher: it looks again at what the
	// daemon did, without polling.
	wake := make(chan struct{}, 1)
	onRequest := func(sandbox.RequestRecord) {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	ready := func(s *sandbox.Server) {
		go func() {
			for n := 0; ctx.Err() == nil && n < restarts; {
				reads, moved := sinceLastStart(s)
				for _, g := range s.Games() {
					if !g.Over() && g.DaysPerTurn > 0 && len(g.Moves) >= 3 && reads == n+1 && moved {
						mu.Lock()
						restartedAt = append(restartedAt, len(g.Moves))
						mu.Unlock()
						restart <- struct{}{}
						n++
						break
					}
				}
				select {
				case <-ctx.Done():
				case <-wake:
				}
			}
		}()
	}
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, Days: 1, SparringFEN: corrFEN, SparringResignAfter: 12, SparringMoveDelay: 30 * time.Millisecond,
		Summariser: sum, Dir: t.TempDir(), Logger: testLogger(t), Ready: ready, Restart: restart,
		Sandbox: sandbox.Config{OnRequest: onRequest}})
	require.NoError(t, err)
	checkGames(t, res, sum)
	require.Len(t, res.Summary, 1)
	mu.Lock()
	require.Len(t, restartedAt, restarts, "the daemon was restarted three times mid-game")
	last := restartedAt[len(restartedAt)-1]
	t.Logf("restarted at plies %v", restartedAt)
	mu.Unlock()

	var id string
	for k := range res.Summary {
		id = k
	}
	g, ok := res.Sandbox.Game(id)
	require.True(t, ok)
	assert.Equal(t, "correspondence", g.Speed)
	assert.Equal(t, corrFEN, g.InitialFEN)
	assert.Equal(t, 1, g.DaysPerTurn)
	assert.Equal(t, BotName, g.White, "the sparring partner took Black")
	assert.Equal(t, "resign", g.Status, "the sparring partner resigned")
	assert.Equal(t, "white", g.Winner)
	assert.Greater(t, len(g.Moves), last+1, "the bot moved after the last restart")

	// Exactly one accepted move request per bot ply: nothing moved twice.
	botMoves := (len(g.Moves) + 1) / 2
	accepted := 0
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && r.Status == 200 && strings.HasPrefix(r.Path, "/api/bot/game/"+id+"/move/") {
			accepted++
		}
	}
	assert.Equal(t, botMoves, accepted, "one move request accepted per bot ply")
	playing := 0
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && r.Path == "/api/account/playing" && r.Status == 200 {
			playing++
		}
	}
	assert.Equal(t, 1+restarts, playing, "each start read the playing list")

	st := openStore(t, res)
	defer st.Close()
	sent, err := st.SentMoves(ctx, id)
	require.NoError(t, err)
	require.Len(t, sent, botMoves, "one reserved move per bot ply")
	for _, m := range sent {
		require.Less(t, m.Ply, len(g.Moves))
		assert.Zero(t, m.Ply%2, "the bot (White) moves at even plies")
		assert.Equal(t, g.Moves[m.Ply], m.UCI, "ply %d: the reserved move is the one played", m.Ply)
	}
	rec, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "correspondence", rec.Speed)
	assert.Equal(t, g.Status, rec.Status)
	assert.True(t, rec.Finished())
}

// sinceLastStart reads the sandbox's request log: how many times the bot
// read its playing list (once per daemon start) and whether a move of the
// bot was accepted after the last of those reads.
func sinceLastStart(s *sandbox.Server) (reads int, moved bool) {
	bot := strings.ToLower(BotName)
	var last time.Time
	for _, r := range s.Requests() {
		if r.User != bot || r.Status != 200 {
			continue
		}
		switch {
		case r.Path == "/api/account/playing":
			reads++
			last, moved = r.Time, false
		case strings.Contains(r.Path, "/move/") && r.Time.After(last):
			moved = reads > 0
		}
	}
	return reads, moved
}

// forgettingSummariser summarises like countingSummariser, then makes the
// sandbox forget the game: the server restarts between the summary and
// its post.
type forgettingSummariser struct {
	countingSummariser
	srv    *atomic.Pointer[sandbox.Server]
	forgot atomic.Int32
}

func (f *forgettingSummariser) Summarise(ctx context.Context, r postgame.Request) (postgame.Summary, error) {
	s, err := f.countingSummariser.Summarise(ctx, r)
	if f.srv.Load().Forget(r.Game.ID) {
		f.forgot.Add(1)
	}
	return s, err
}

// TestSummaryPostFailedWhenServerForgotGame: the server restarts after
// the game's end and before the summary's post, and no longer knows the
// game (its chat answers 404). The summary is marked post-failed with the
// server's refusal, once, after one chat POST (a 404 is final: never
// retried, never marked posted), and the demo counts the game as done
// instead of waiting for a summary that cannot come.
func TestSummaryPostFailedWhenServerForgotGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	cfg := fastConfig()
	cfg.Game.Greeting, cfg.Game.Goodbye = "", "" // the summary is the only chat
	var srvRef atomic.Pointer[sandbox.Server]
	sum := &forgettingSummariser{srv: &srvRef}
	var mu sync.Mutex
	failed := map[string]error{}
	posted := 0
	hooks := daemon.Hooks{
		SummaryFailed: func(id string, reason error) {
			mu.Lock()
			defer mu.Unlock()
			_, dup := failed[id]
			assert.False(t, dup, "SummaryFailed called twice for %s", id)
			failed[id] = reason
		},
		SummaryPosted: func(string, []string) {
			mu.Lock()
			posted++
			mu.Unlock()
		},
	}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t), Hooks: hooks, Ready: func(s *sandbox.Server) { srvRef.Store(s) }})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	var id string
	for id = range res.Summary {
	}
	assert.Nil(t, res.Summary[id], "no summary lines for a game whose summary was refused")
	assert.Equal(t, int32(1), sum.forgot.Load(), "the server forgot the finished game")
	_, known := res.Sandbox.Game(id)
	assert.False(t, known)

	mu.Lock()
	defer mu.Unlock()
	assert.Zero(t, posted, "never marked posted")
	require.Contains(t, failed, id)
	assert.ErrorContains(t, failed[id], "404")

	chatPath := "/api/bot/game/" + id + "/chat"
	posts := 0
	for _, r := range res.Sandbox.Requests() {
		if r.Method == "POST" && r.Path == chatPath {
			posts++
			assert.Equal(t, 404, r.Status)
		}
	}
	assert.Equal(t, 1, posts, "a 404 is final: the line is tried once, the next lines not at all")

	an := analysisOf(t, res, id)
	assert.Equal(t, store.AnalysisPostFailed, an.State)
	assert.Contains(t, an.Error, "404")
}

// stallTimeout is the daemon's client timeout in the stall tests: how long
// it waits for an answer the stalled server withholds (30 s by default;
// short here, so that the test does not wait 45 s, and still far above
// the sandbox's answer times on a loaded machine).
const stallTimeout = 2 * time.Second

// twoLineSummariser is countingSummariser with a second summary line, so
// that a line after the stalled one is checked too.
type twoLineSummariser struct{ countingSummariser }

func (s *twoLineSummariser) Summarise(ctx context.Context, r postgame.Request) (postgame.Summary, error) {
	sum, err := s.countingSummariser.Summarise(ctx, r)
	sum.Lines = append(sum.Lines, "Second line of "+r.Game.ID)
	return sum, err
}

// stallWatch follows the stall at the game's end through the sandbox's
// request records: it releases the stall once the daemon's client has
// given up on two held requests of the game's chat (a line posted, then
// the chat read back to learn whether it landed), and remembers what the
// chat held then.
type stallWatch struct {
	srv     atomic.Pointer[sandbox.Server]
	hold    sandbox.FaultID
	restart chan struct{} // non-nil: restart the daemon when the first held post is given up

	mu         sync.Mutex
	abandoned  []sandbox.RequestRecord // the bot's chat requests given up on during the stall
	chatAtLoss []sandbox.ChatLine      // the chat when the client gave up on the first held post
	released   bool
	postedChat []sandbox.ChatLine // the chat when the summary was marked posted
	postedLate bool               // the summary was marked posted after the stall ended
	// storePath and postedFlags: the greeting and goodbye flags in the
	// store when the summary was marked posted (a game's goodbye is
	// resolved before its summary is posted, also after a restart)
	storePath   string
	postedFlags map[string]string
}

// onRequest is the sandbox's OnRequest hook.
func (w *stallWatch) onRequest(r sandbox.RequestRecord) {
	if !r.Abandoned || r.User != strings.ToLower(BotName) || !strings.HasSuffix(r.Path, "/chat") {
		return
	}
	s := w.srv.Load()
	id := strings.TrimSuffix(strings.TrimPrefix(r.Path, "/api/bot/game/"), "/chat")
	w.mu.Lock()
	defer w.mu.Unlock()
	w.abandoned = append(w.abandoned, r)
	if len(w.abandoned) == 1 {
		w.chatAtLoss = s.Chat(id)
		if w.restart != nil {
			w.restart <- struct{}{} // buffered: the demo's watcher takes it
		}
	}
	if len(w.abandoned) == 2 && !w.released {
		w.released = true
		s.Faults().Release(w.hold)
	}
}

// summaryPosted is the daemon's SummaryPosted hook.
func (w *stallWatch) summaryPosted(id string, _ []string) {
	chat := w.srv.Load().Chat(id)
	flags := map[string]string{}
	if w.storePath != "" {
		flags = chatFlags(w.storePath, id+":greeting:", id+":goodbye:")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.postedChat, w.postedLate, w.postedFlags = chat, w.released, flags
}

// chatFlags reads the chatonce flags whose keys start with one of the
// prefixes from the store at path (opened beside the running daemon's).
func chatFlags(path string, prefixes ...string) map[string]string {
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		return map[string]string{"open store": err.Error()}
	}
	defer st.Close()
	out := map[string]string{}
	for _, f := range []string{"queued", "sending", "sent"} {
		keys, err := st.CacheKeysWithValue(ctx, chatonce.Kind, []byte(f))
		if err != nil {
			out["list flags"] = err.Error()
		}
		for _, k := range keys {
			for _, p := range prefixes {
				if strings.HasPrefix(k, p) {
					out[k] = f
				}
			}
		}
	}
	return out
}

// botLines counts the bot's chat lines of a game by room and text.
func botLines(chat []sandbox.ChatLine) map[string]int {
	n := map[string]int{}
	for _, l := range chat {
		if l.User == BotName {
			n[l.Room+": "+l.Text]++
		}
	}
	return n
}

// expand fills a greeting template as the runner does for the sparring
// partner and the engine name.
func expand(tmpl, engine string) string {
	return strings.NewReplacer("{opponent}", SparringName, "{engine}", engine, "{me}", BotName).Replace(tmpl)
}

// TestStallAtGameEndChatOnce: the sandbox stalls when the game ends (a
// hold fault on the bot's game endpoints): every chat line posted then is
// written to the chat, but its answer is withheld until the daemon's
// client gives up, and so is the read back that follows; the stall ends
// only then. Whatever the stall hits (the goodbye when one is configured,
// else the summary's first line), every line the daemon posts is in the
// chat exactly once, nothing is lost, each line's flag says "sent", and
// the summary is marked posted only once it is in the chat, after the
// stall. In the restart case the daemon is killed while the stall holds
// the summary's first line, and the new daemon resolves the line by
// reading the chat back instead of posting it again. No wall-clock wait but
// the client's own (short) timeout: the stall ends on the sandbox's record
// of the client giving up.
func TestStallAtGameEndChatOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games: skipped in -short mode")
	}
	tests := []struct {
		name    string
		greet   bool // greeting and goodbye on: the stall hits the goodbye, else the summary
		restart bool // restart the daemon during the stall
	}{
		{name: "goodbye", greet: true},
		{name: "summary"},
		{name: "summary, daemon restarted during the stall", restart: true},
		// the goodbye held at game end when the daemon goes down: the new
		// daemon finds it "sending" and resolves it (it stayed "sending"
		// for ever, never resolved, before chatonce.Resume)
		{name: "goodbye, daemon restarted during the stall", greet: true, restart: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := leakChecked(t, 3*time.Minute)
			cfg := fastConfig()
			cfg.Engines.Default = "easy" // a short game: the stall is what is tested
			if !tt.greet {
				cfg.Game.Greeting, cfg.Game.Goodbye = "", ""
			}
			dir := t.TempDir()
			w := &stallWatch{}
			if tt.greet {
				w.storePath = filepath.Join(dir, "outpost.db")
			}
			var restart chan struct{}
			if tt.restart {
				restart = make(chan struct{}, 1)
				w.restart = restart
			}
			ready := func(s *sandbox.Server) {
				w.srv.Store(s)
				// the bot's game endpoints (chat posts and reads) stall
				// from the game's end until the test releases them
				w.hold = s.Faults().HoldAtGameEnd("/api/bot/game/", "")
			}
			sum := &twoLineSummariser{}
			out := &testkit.SyncBuffer{}
			res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", SparringResignAfter: 4, Out: out,
				Summariser: sum, Dir: dir, Logger: testLogger(t), Ready: ready, Restart: restart,
				Sandbox: sandbox.Config{OnRequest: w.onRequest},
				Client:  lichess.Options{RequestTimeout: stallTimeout, RetryWaitMin: 10 * time.Millisecond, RetryWaitMax: 50 * time.Millisecond},
				Hooks: daemon.Hooks{
					ChatWait:      func(ctx context.Context, _ int) error { return ctx.Err() },
					PostRetryWait: func(ctx context.Context) error { return ctx.Err() },
					SummaryPosted: w.summaryPosted,
				}})
			require.NoError(t, err)
			checkGames(t, res, &sum.countingSummariser)
			require.Len(t, res.Summary, 1)
			var id string
			var lines []string
			for id, lines = range res.Summary {
			}
			require.Len(t, lines, 2)

			w.mu.Lock()
			defer w.mu.Unlock()
			// the stall hit: the client gave up on a post that had been
			// applied, then on the read back, and only then did it end
			// (more than two only if a request after the stall met the
			// client's timeout on a very busy machine)
			require.GreaterOrEqual(t, len(w.abandoned), 2, "chat requests given up on during the stall")
			assert.Equal(t, "POST", w.abandoned[0].Method, "first request given up on: %+v", w.abandoned[0])
			assert.Equal(t, 200, w.abandoned[0].Status, "the held post was applied")
			first := "player: " + lines[0]
			if tt.greet {
				first = "player: " + expand(cfg.Game.Goodbye, cfg.Engines.Default)
			}
			assert.Equal(t, 1, botLines(w.chatAtLoss)[first],
				"the line was in the chat when the client gave up on it: %+v", w.chatAtLoss)
			assert.True(t, w.released)

			// every line exactly once, at the end and when marked posted
			want := map[string]int{}
			for _, l := range lines {
				want["player: "+l] = 1
			}
			if tt.greet {
				for _, r := range cfg.Game.GreetingRooms {
					want[r+": "+expand(cfg.Game.Greeting, cfg.Engines.Default)] = 1
					want[r+": "+expand(cfg.Game.Goodbye, cfg.Engines.Default)] = 1
				}
			}
			assert.Equal(t, want, botLines(res.Sandbox.Chat(id)), "the bot's chat lines")
			assert.True(t, w.postedLate, "the summary was marked posted after the stall")
			posted := botLines(w.postedChat)
			for _, l := range lines {
				assert.Equal(t, 1, posted["player: "+l], "summary line %q when marked posted", l)
			}

			st := openStore(t, res)
			defer st.Close()
			an, err := st.AnalysisOf(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, store.AnalysisPosted, an.State)
			keys := []string{id + ":summary:player:0", id + ":summary:player:1"}
			if tt.greet {
				for _, r := range cfg.Game.GreetingRooms {
					keys = append(keys, id+":greeting:"+r, id+":goodbye:"+r)
				}
			}
			if tt.greet {
				// the goodbye (held by the stall, resolved by the new
				// daemon's chat resume in the restart case) was settled
				// before the summary was posted
				for _, r := range cfg.Game.GreetingRooms {
					assert.Equal(t, "sent", w.postedFlags[id+":goodbye:"+r], "goodbye flag when the summary was marked posted: %v", w.postedFlags)
				}
			}
			for _, k := range keys {
				flag, ok, err := st.CacheGet(ctx, chatonce.Kind, k)
				require.NoError(t, err)
				assert.True(t, ok && string(flag) == "sent", "flag of %s: %q", k, flag)
			}
			restarted := strings.Count(out.String(), "(daemon restarted)")
			wantRestarts := 0
			if tt.restart {
				wantRestarts = 1
			}
			assert.Equal(t, wantRestarts, restarted, "daemon restarts")
		})
	}
}

// failingSummariser's analysis always fails.
type failingSummariser struct{}

var errNoAnalysis = errors.New("no engine for the summary")

func (failingSummariser) Summarise(context.Context, postgame.Request) (postgame.Summary, error) {
	return postgame.Summary{}, errNoAnalysis
}

// TestSummaryAnalysisFailedEndsTheRun: a game whose post-game analysis
// fails is reported once through Hooks.SummaryFailed with the summariser's
// error, and a demo of one game counts it and ends with exactly that game,
// instead of waiting for a summary that cannot come (and letting the
// sparring partner start more games meanwhile).
func TestSummaryAnalysisFailedEndsTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	cfg := fastConfig()
	var mu sync.Mutex
	failed := map[string]error{}
	hooks := daemon.Hooks{SummaryFailed: func(id string, reason error) {
		mu.Lock()
		defer mu.Unlock()
		_, dup := failed[id]
		assert.False(t, dup, "SummaryFailed called twice for %s", id)
		failed[id] = reason
	}}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: failingSummariser{}, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t), Hooks: hooks})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	require.Len(t, res.Sandbox.Games(), 1, "no game started after the one whose summary failed")
	var id string
	for id = range res.Summary {
	}
	assert.Nil(t, res.Summary[id])
	mu.Lock()
	defer mu.Unlock()
	require.Contains(t, failed, id)
	assert.ErrorIs(t, failed[id], errNoAnalysis)
}

// TestSummaryDisabledEndsTheRun: with [summary] enabled = false a demo of
// one game ends with that game (no summary is coming) instead of waiting
// for ever (it did: the game's place was freed but never counted).
func TestSummaryDisabledEndsTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	cfg := fastConfig()
	cfg.Summary.Enabled = false
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t)})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	require.Len(t, res.Sandbox.Games(), 1, "exactly one game played")
	for id, lines := range res.Summary {
		assert.Nil(t, lines, "game %s: no summary with [summary] enabled = false", id)
	}
	sum.mu.Lock()
	defer sum.mu.Unlock()
	assert.Empty(t, sum.calls, "the summariser was not asked")
}
