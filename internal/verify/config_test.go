package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// stubSummariser is a daemon.Summariser that is never called here.
type stubSummariser struct{}

func (stubSummariser) Summarise(context.Context, postgame.Request) (postgame.Summary, error) {
	return postgame.Summary{}, nil
}

// TestAttach: [verify] adds the worker as a background job, wraps the
// SummaryPosted hook (the earlier hook still runs) and, with chat_line,
// the agreement line as a summary line; off, or without summaries, it changes nothing.
func TestAttach(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	client, err := lichess.New(lichess.Options{BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	for _, tc := range []struct {
		name           string
		enabled, chat  bool
		summaries      bool
		attached, line bool
	}{
		{"off", false, true, true, false, false},
		{"no summaries", true, true, false, false, false},
		{"on", true, false, true, true, false},
		{"on with the chat line", true, true, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Verify.Enabled, cfg.Verify.ChatLine = tc.enabled, tc.chat
			var posted []string
			o := daemon.Options{Hooks: daemon.Hooks{SummaryPosted: func(id string, _ []string) { posted = append(posted, id) }}}
			if tc.summaries {
				o.Summariser = stubSummariser{}
			}
			require.NoError(t, Attach(&o, cfg, client, st, zerolog.Nop()))
			assert.Len(t, o.Background, map[bool]int{false: 0, true: 1}[tc.attached])
			assert.Len(t, o.SummaryLines, map[bool]int{false: 0, true: 1}[tc.line])
			o.Hooks.SummaryPosted("game0001", nil)
			assert.Equal(t, []string{"game0001"}, posted, "the earlier hook runs")
		})
	}
}
