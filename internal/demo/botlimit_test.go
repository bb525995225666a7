package demo

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// shiftClock is a wall clock that a test moves forward by hand (the
// sandbox's and the daemon's, for the daily limits).
type shiftClock struct{ offset atomic.Int64 }

func (c *shiftClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// botChallenges lists the bot's challenge requests to other users
// (POST /api/challenge/{user}, not the accept, decline or cancel of one).
func botChallenges(srv *sandbox.Server) []sandbox.RequestRecord {
	var out []sandbox.RequestRecord
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.User == strings.ToLower(BotName) && strings.Count(r.Path, "/") == 3 &&
			strings.HasPrefix(r.Path, "/api/challenge/") {
			out = append(out, r)
		}
	}
	return out
}

// TestBotAtItsDailyCap (#31): the sandbox caps bot-vs-bot games at 1 a day
// (lila's BotLimit). The bot starts already at its cap, in a game with
// Sparky, with a challenge of another bot (Pest, sent before the game)
// waiting. Accepting it gets lila's 429 with key bot.vsBot.day: the bot
// declines it "later" and plays its running game to the end, every move
// sent (before the fix the 429 locked every request out for a day and the
// game was lost on time). The matchmaker then pauses, sending no
// challenge; the daemon is restarted and still sends none (the limit is in
// the store under its own key); once the clock passes the limit's end the
// matchmaker resumes and plays Sparky again.
func TestBotAtItsDailyCap(t *testing.T) {
	ctx := leakChecked(t, 2*time.Minute)
	clk := &shiftClock{}
	a := &answers{}
	cfg := matchConfig()
	cfg.Challenge.MaxGames = 2
	cfg.Matchmaking.TimeControls = []string{"1+0"}
	restart := make(chan struct{}, 1)
	var mu sync.Mutex
	var pauses []time.Time
	var sentBeforeJump int
	var srv *sandbox.Server
	hooks := daemon.Hooks{Now: clk.now, MatchmakingPaused: func(until time.Time) {
		mu.Lock()
		defer mu.Unlock()
		pauses = append(pauses, until)
		switch len(pauses) {
		case 1:
			restart <- struct{}{}
		case 2:
			sentBeforeJump = len(botChallenges(srv))
			clk.offset.Store(int64(24*time.Hour + time.Minute))
		}
	}}
	var pest string
	res, err := Run(ctx, Options{Config: cfg, Games: 2, NoSparring: true, Bots: []SparringBot{a.bot("Sparky", 1500, "")},
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: testLogger(t), Hooks: hooks, Restart: restart,
		Sandbox: sandbox.Config{BotGamesPerDay: 1, Now: clk.now, ChallengeTTL: time.Minute},
		Ready: func(s *sandbox.Server) {
			srv, a.srv = s, s
			s.AddAccount(sandbox.Account{Name: "Pest", Token: "pest-token-1", Bot: true})
			pest = challengeAs(t, s.URL(), "pest-token-1", BotName)
			_, err := s.Pair(sandbox.Pairing{White: BotName, Black: "Sparky", Source: sandbox.SourceLobby, Limit: time.Minute})
			require.NoError(t, err)
		}})
	require.NoError(t, err)
	require.Len(t, res.Games, 2)
	for _, g := range res.Sandbox.Games() {
		assert.NotEqual(t, "outoftime", g.Status, "game %s: no game is lost on time", g.ID)
		assert.NotEqual(t, "Pest", g.Black, "Pest's challenge is not played")
	}
	var declined bool
	for _, r := range res.Sandbox.Requests() {
		if r.Path == "/api/challenge/"+pest+"/decline" && r.Status == 200 {
			declined = true
		}
	}
	assert.True(t, declined, "Pest's challenge declined (later) at the cap")
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(pauses), 2, "paused before and after the restart")
	assert.Zero(t, sentBeforeJump, "no challenge to a bot while at the cap, before or after the restart")
	sent := botChallenges(res.Sandbox)
	require.NotEmpty(t, sent, "the matchmaker resumed after the limit's end")
	assert.Equal(t, 200, sent[0].Status)
	assert.WithinDuration(t, time.Now().Add(24*time.Hour), pauses[0], time.Hour, "paused until the cap's end, a day on")
}

// challengeAs sends a one-minute challenge to user with token's account and
// returns its id.
func challengeAs(t *testing.T, url, token, user string) string {
	t.Helper()
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(token)})
	require.NoError(t, err)
	defer c.Close()
	ch, err := c.CreateChallenge(t.Context(), user, lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}})
	require.NoError(t, err)
	return ch.ID
}

// TestMatchmakerSkipsCappedOpponent (#31): Other is at its daily cap (3
// games with Filler); challenging it gets lila's 400 with key
// bot.vsBot.day, and the matchmaker leaves it alone until the cap's end,
// playing Sparky instead. Before the fix Other, never played, was the
// matchmaker's first choice every round after Sparky's first game, and the
// second game never came.
func TestMatchmakerSkipsCappedOpponent(t *testing.T) {
	ctx := leakChecked(t, 2*time.Minute)
	a := &answers{}
	res, err := Run(ctx, Options{Config: matchConfig(), Games: 2, NoSparring: true,
		Bots:       []SparringBot{a.bot("Sparky", 1500, ""), a.bot("Other", 1500, "")},
		Summariser: &countingSummariser{}, Dir: t.TempDir(), Logger: testLogger(t),
		Sandbox: sandbox.Config{BotGamesPerDay: 3},
		Ready: func(s *sandbox.Server) {
			a.srv = s
			s.AddAccount(sandbox.Account{Name: "Filler", Token: "filler-token-1", Bot: true})
			for range 3 {
				_, err := s.Pair(sandbox.Pairing{White: "Other", Black: "Filler", Source: sandbox.SourceLobby, Limit: time.Minute})
				require.NoError(t, err)
			}
		}})
	require.NoError(t, err)
	require.Len(t, res.Games, 2)
	var toOther []int
	for _, r := range botChallenges(res.Sandbox) {
		if strings.EqualFold(r.Path, "/api/challenge/other") {
			toOther = append(toOther, r.Status)
		}
	}
	assert.LessOrEqual(t, len(toOther), 1, "the capped bot is challenged at most once: %v", toOther)
	for _, s := range toOther {
		assert.Equal(t, 400, s)
	}
	assert.Zero(t, a.count("Other"), "Other never received a challenge")
	for _, g := range res.Games {
		assert.Equal(t, "Sparky", g.Opponent)
	}
	if len(toOther) == 1 {
		st := openStore(t, res)
		defer st.Close()
		until, err := st.RateLimitedUntil(ctx, res.URL+" bot.vsBot.day other")
		require.NoError(t, err)
		assert.WithinDuration(t, time.Now().Add(24*time.Hour), until, time.Hour, "Other's cap is kept in the store under its own key")
	}
}
