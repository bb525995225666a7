package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

func onlineBot(name string, rating int) lichess.User {
	return lichess.User{ID: name, Username: name, Title: "BOT",
		Perfs: map[string]lichess.PerfStats{"blitz": {Rating: rating}, "bullet": {Rating: rating + 300}}}
}

func TestPickBot(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	cfg := config.Default()
	cfg.Matchmaking = config.MatchmakingConfig{MinRating: 1200, MaxRating: 1800, DeclineMemory: time.Hour}
	d := &Daemon{cfg: cfg, store: st, me: "outpost"}

	require.NoError(t, st.RecordDecline(ctx, "grumpy", "later"))
	require.NoError(t, st.StartGame(ctx, store.Game{ID: "g1", Opponent: "played", OpponentBot: true,
		StartedAt: time.Now().Add(-time.Hour)}))
	require.NoError(t, st.StartGame(ctx, store.Game{ID: "g2", Opponent: "recent", OpponentBot: true}))
	human := onlineBot("human", 1500)
	human.Title = ""
	tests := []struct {
		name  string
		bots  []lichess.User
		speed string
		want  string // "" = nobody
	}{
		{"within bounds", []lichess.User{onlineBot("low", 1100), onlineBot("ok", 1500), onlineBot("high", 1900)}, "blitz", "ok"},
		{"bounds use the speed's rating", []lichess.User{onlineBot("ok", 1600), onlineBot("blitzer", 1000)}, "bullet", "blitzer"},
		{"bound is inclusive", []lichess.User{onlineBot("edge", 1800)}, "blitz", "edge"},
		{"never ourselves", []lichess.User{onlineBot("outpost", 1500)}, "blitz", ""},
		{"only bots", []lichess.User{human}, "blitz", ""},
		{"a bot that declined is left alone", []lichess.User{onlineBot("grumpy", 1500)}, "blitz", ""},
		{"never played before played", []lichess.User{onlineBot("played", 1500), onlineBot("fresh", 1500)}, "blitz", "fresh"},
		{"least recently played", []lichess.User{onlineBot("recent", 1500), onlineBot("played", 1500)}, "blitz", "played"},
		{"nobody online", nil, "blitz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := d.pickBot(ctx, tt.bots, tt.speed)
			if tt.want == "" {
				assert.False(t, ok, "picked %s", got.ID)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.want, got.ID)
		})
	}
}

// TestPickBotLists: the matchmaker honours its allow and block lists, and
// the challenge block list unless include_challenge_block_list is off.
func TestPickBotLists(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	bots := []lichess.User{onlineBot("alpha", 1500), onlineBot("Beta", 1500)}
	tests := []struct {
		name    string
		mm      func(*config.MatchmakingConfig)
		blocked []string // [challenge] block_list
		want    []string // bots that may be picked
	}{
		{"no lists", nil, nil, []string{"alpha", "Beta"}},
		{"block list", func(m *config.MatchmakingConfig) { m.BlockList = []string{"ALPHA"} }, nil, []string{"Beta"}},
		{"allow list", func(m *config.MatchmakingConfig) { m.AllowList = []string{"beta"} }, nil, []string{"Beta"}},
		{"allow list of absent bots", func(m *config.MatchmakingConfig) { m.AllowList = []string{"gamma"} }, nil, nil},
		{"challenge block list included", func(m *config.MatchmakingConfig) { m.IncludeChallengeBlockList = true }, []string{"beta"}, []string{"alpha"}},
		{"challenge block list ignored", func(m *config.MatchmakingConfig) { m.IncludeChallengeBlockList = false }, []string{"beta"}, []string{"alpha", "Beta"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Matchmaking.DeclineMemory = time.Hour
			if tt.mm != nil {
				tt.mm(&cfg.Matchmaking)
			}
			cfg.Challenge.BlockList = tt.blocked
			d := &Daemon{cfg: cfg, store: st, me: "outpost"}
			seen := map[string]bool{}
			for range 40 { // the pick is random among the eligible bots
				if b, ok := d.pickBot(ctx, bots, "blitz"); ok {
					seen[b.ID] = true
				}
			}
			var got []string
			for _, b := range bots {
				if seen[b.ID] {
					got = append(got, b.ID)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSpeedOf(t *testing.T) {
	for _, tt := range []struct {
		base, inc int
		want      string
	}{{15, 0, "ultraBullet"}, {30, 0, "bullet"}, {60, 2, "bullet"}, {120, 2, "blitz"}, {180, 0, "blitz"}, {300, 5, "rapid"}, {1500, 0, "classical"}} {
		assert.Equal(t, tt.want, speedOf(tt.base, tt.inc), "%d+%d", tt.base, tt.inc)
	}
}

// TestIdleIgnoresCorrespondence: a correspondence game in progress leaves
// the real-time slots free, so the matchmaker still counts the daemon as
// idle; a real-time game, an accepted real-time challenge or one of ours
// pending does not.
func TestIdleIgnoresCorrespondence(t *testing.T) {
	corr := Offer{Speed: "correspondence", Days: 3}
	blitz := Offer{Speed: "blitz", Base: 180}
	tests := []struct {
		name     string
		games    map[string]*gameSlot
		accepted map[string]accepted
		outgoing map[string]outgoing
		idle     bool
	}{
		{"nothing", nil, nil, nil, true},
		{"correspondence game", map[string]*gameSlot{"g": {correspondence: true}}, nil, nil, true},
		{"accepted correspondence", nil, map[string]accepted{"c": {offer: corr}}, nil, true},
		{"real-time game", map[string]*gameSlot{"g": {}}, nil, nil, false},
		{"accepted real-time", nil, map[string]accepted{"c": {offer: blitz}}, nil, false},
		{"our challenge pending", nil, nil, map[string]outgoing{"bot": {offer: blitz}}, false},
	}
	for _, tt := range tests {
		d := &Daemon{games: tt.games, accepted: tt.accepted, outgoing: tt.outgoing}
		assert.Equal(t, tt.idle, d.idleLocked(), tt.name)
	}
}
