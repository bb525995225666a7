package demo

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/chatonce"
	"github.com/outpostchess/outpost/lichess/sandbox"
)

// stallTimeout is the daemon's client timeout in the stall tests: how long
// it waits for an answer the stalled server withholds (30 s by default;
// short here, so that the test does not wait 45 s, and still far above
// the sandbox's answer times on a loaded machine).
const stallTimeout = 2 * time.Second

// twoLineSummariser is countingSummariser with a second summary line, so
// that a line after the stalled one is checked too.
type twoLineSummariser struct{ countingSummariser }

func (s *twoLineSummariser) Summarise(ctx context.Context, g store.Game) (string, []string, error) {
	js, lines, err := s.countingSummariser.Summarise(ctx, g)
	return js, append(lines, "Second line of "+g.ID), err
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
	w.mu.Lock()
	defer w.mu.Unlock()
	w.postedChat, w.postedLate = chat, w.released
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := leakChecked(t, 3*time.Minute)
			cfg := fastConfig()
			cfg.Engines.Default = "easy" // a short game: the stall is what is tested
			if !tt.greet {
				cfg.Game.Greeting, cfg.Game.Goodbye = "", ""
			}
			w := &stallWatch{}
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
				Summariser: sum, Dir: t.TempDir(), Logger: testLogger(t), Ready: ready, Restart: restart,
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
