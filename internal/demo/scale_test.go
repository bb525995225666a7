package demo

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// fillerBots is how many online bots the scale test puts ahead of the one
// the matchmaker may pick: more than the 100 it used to ask for.
const fillerBots = 110

// botOnlineFetches counts the GET /api/bot/online requests the sandbox
// served.
func botOnlineFetches(s *sandbox.Server) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == "GET" && r.Path == "/api/bot/online" {
			n++
		}
	}
	return n
}

// TestMatchmakerSeesPast100OnlineBots (#31.6): 110 online bots rated out
// of bounds come before Sparky, the only suitable one, in the sandbox's
// list (lila's GET /api/bot/online gives at most nb). The matchmaker asks
// for nb=512 and challenges Sparky; with nb=100 (before, checked by
// setting onlineBotsFetched back to 100) it saw only fillers and kept
// fetching without challenging anyone.
func TestMatchmakerSeesPast100OnlineBots(t *testing.T) {
	a := &answers{}
	var fillers []*lichess.Client
	var streams []*lichess.Stream[lichess.Event]
	opt := Options{Config: matchConfig(), Bots: []SparringBot{a.bot("Sparky", 1500, "")}}
	opt.Ready = func(s *sandbox.Server) {
		a.srv = s
		for i := range fillerBots {
			tok := fmt.Sprintf("lip_filler_%03d", i)
			// "Aaa…" sorts before "sparky"; 2900 is above max_rating.
			s.AddAccount(sandbox.Account{Name: fmt.Sprintf("Aaa%03d", i), Token: tok, Bot: true, Rating: 2900})
			c, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: lichess.Token(tok), Logger: zerolog.Nop()})
			require.NoError(t, err)
			st, err := c.StreamEvents(context.Background()) // online: its event stream is open
			require.NoError(t, err)
			fillers, streams = append(fillers, c), append(streams, st)
		}
	}
	runScript(t, opt, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		defer func() {
			for i := range streams {
				streams[i].Close()
				fillers[i].Close()
			}
		}()
		watcher := hs.addPlayer(t, s, "Watcher", 1500, false)
		// Once Sparky is online, three more fetches are plenty: the
		// matchmaker challenges on its first fetch that lists a suitable bot.
		var since int
		assert.Eventually(t, func() bool {
			bots, err := watcher.client.OnlineBots(ctx, 512)
			since = botOnlineFetches(s)
			for _, b := range bots {
				if err == nil && strings.EqualFold(b.ID, "sparky") {
					return true
				}
			}
			return false
		}, 30*time.Second, 20*time.Millisecond, "Sparky online")
		assert.Eventually(t, func() bool {
			return len(challengeTimes(s, "sparky")) > 0 || botOnlineFetches(s) >= since+3
		}, 30*time.Second, 10*time.Millisecond)
		assert.NotEmpty(t, challengeTimes(s, "sparky"), "Sparky, past the first 100 online bots, was challenged")
		for i := range fillerBots {
			assert.Empty(t, challengeTimes(s, fmt.Sprintf("aaa%03d", i)), "a filler out of bounds")
		}
	})
}

// TestQueueAnswersHumansFirst (#31.6): at max_games 1, while a human's game
// runs, a bot's challenge and then a human's wait in the queue; when the
// game ends the human's is accepted first, though it came second (a bot has
// other bots to play, a human waiting may leave). Before (a first-in
// first-out queue, checked by making drainQueue take d.queue[0]) the bot's
// game came first.
func TestQueueAnswersHumansFirst(t *testing.T) {
	cfg := easyConfig()
	cfg.Challenge.MaxGames, cfg.Challenge.MaxGamesPerOpponent, cfg.Challenge.Queue = 1, 1, true
	log := &lockedBuffer{}
	games := map[string]string{}
	var mu sync.Mutex
	res := runScriptLogged(t, Options{Config: cfg}, log, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		first := hs.addPlayer(t, s, "First", 1500, false)
		id, w, ok := acceptedGame(t, ctx, first, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White})
		if !ok {
			return
		}
		defer w.stream.Close()
		var wg sync.WaitGroup
		// queue sends h's challenge and waits until the daemon has queued
		// it, the n-th to be queued (its log says so).
		queue := func(h *human, n int) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answer, gid, err := h.challenge(ctx, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}}, nil)
				if assert.NoError(t, err, h.name) && assert.Equal(t, "accepted", answer, h.name) {
					mu.Lock()
					games[h.name] = gid
					mu.Unlock()
					api := h.client.Board()
					if h.name == "Botty" {
						api = h.client.Bot()
					}
					assert.NoError(t, api.Resign(ctx, gid), h.name) // frees the slot for the next
				}
			}()
			assert.Eventually(t, func() bool {
				return strings.Count(log.String(), "at capacity: challenge queued") >= n
			}, 30*time.Second, 10*time.Millisecond, "%s's challenge queued", h.name)
		}
		bot := hs.addPlayer(t, s, "Botty", 1500, true)
		queue(bot, 1)
		human := hs.addPlayer(t, s, "Second", 1500, false)
		queue(human, 2)
		assert.NoError(t, first.client.Board().Resign(ctx, id))
		wg.Wait()
	})
	mu.Lock()
	defer mu.Unlock()
	humanGame, okH := res.Sandbox.Game(games["Second"])
	botGame, okB := res.Sandbox.Game(games["Botty"])
	require.True(t, okH && okB, "both queued challenges were played: %v", games)
	assert.True(t, humanGame.CreatedAt.Before(botGame.CreatedAt),
		"the human's game (%s) started before the bot's (%s)", humanGame.CreatedAt, botGame.CreatedAt)
}
