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

func TestSpeedOf(t *testing.T) {
	for _, tt := range []struct {
		base, inc int
		want      string
	}{{15, 0, "ultraBullet"}, {30, 0, "bullet"}, {60, 2, "bullet"}, {120, 2, "blitz"}, {180, 0, "blitz"}, {300, 5, "rapid"}, {1500, 0, "classical"}} {
		assert.Equal(t, tt.want, speedOf(tt.base, tt.inc), "%d+%d", tt.base, tt.inc)
	}
}
