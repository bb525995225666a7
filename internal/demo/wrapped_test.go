package demo

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
)

// gateTaker is a summariser that takes the daemon's gate and our name, as
// postgame.Summariser does.
type gateTaker struct {
	countingSummariser
	gate ewr.Gate
	me   string
}

func (g *gateTaker) SetGate(gate ewr.Gate) { g.gate = gate }
func (g *gateTaker) SetMe(me string)       { g.me = me }

// TestWrappedSummariserGetsGateAndName: a summariser wrapped by the
// sandbox's verification flow (afterAnalysis) or by [verify] chat_line
// (verify.ChatLine) still gets the daemon's gate of its games — whether a
// game is on the clock included — and our account name. Before, the
// wrappers dropped both: `run --sandbox` (verification on by default) ran
// its summaries beside games at normal priority, unheld, and a live daemon
// with chat_line named our side "".
func TestWrappedSummariserGetsGateAndName(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		wrap func(daemon.Summariser) daemon.Summariser
	}{
		{"afterAnalysis", func(s daemon.Summariser) daemon.Summariser { return afterAnalysis{inner: s} }},
		{"chat line", func(s daemon.Summariser) daemon.Summariser { return verify.ChatLine{Inner: s} }},
		{"chat line around afterAnalysis", func(s daemon.Summariser) daemon.Summariser {
			return verify.ChatLine{Inner: afterAnalysis{inner: s}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
			require.NoError(t, err)
			defer st.Close()
			client, err := lichess.New(lichess.Options{BaseURL: "http://127.0.0.1:1", Token: "lip_test"})
			require.NoError(t, err)
			defer client.Close()
			inner := &gateTaker{}
			sum := tc.wrap(inner)
			_, err = daemon.New(daemon.Options{Config: config.Default(), Client: client, Store: st, Summariser: sum,
				Engines: func(context.Context, string) (engine.Engine, error) { return nil, nil }})
			require.NoError(t, err)
			require.NotNil(t, inner.gate, "the gate reached the wrapped summariser")
			_, phased := inner.gate.(postgame.Phases)
			assert.True(t, phased, "the gate says whether a game is on the clock")
			named, ok := sum.(daemon.NamedSummariser)
			require.True(t, ok, "the wrapper takes our name")
			named.SetMe(BotName)
			assert.Equal(t, BotName, inner.me)
		})
	}
}
