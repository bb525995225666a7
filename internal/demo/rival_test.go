package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

// TestRivalOnTheEventStream: another process on the bot's token (a client
// holding the account's event stream, reconnecting as a second daemon
// does) makes the sandbox close the daemon's stream at each of its
// openings, as lila does (one event stream per account); the daemon warns
// that its token is shared, and keeps running.
func TestRivalOnTheEventStream(t *testing.T) {
	const token = "lip_rivalTokenSharedByTwoProcesses"
	var logs testkit.SyncBuffer
	warned := make(chan int, 10)
	opt := Options{Config: fastConfig(), BotToken: token, Hooks: daemon.Hooks{RivalStream: func(n int) { warned <- n }}}
	runScriptLogged(t, opt, &logs, func(ctx context.Context, s *sandbox.Server, _ *humans) {
		rival, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: lichess.Token(token), Logger: zerolog.Nop()})
		require.NoError(t, err)
		defer rival.Close()
		st, err := rival.StreamEvents(ctx)
		require.NoError(t, err)
		defer st.Close()
		go func() {
			for range st.Events() { // the rival's reconnections close the daemon's stream
			}
		}()
		select {
		case n := <-warned:
			assert.GreaterOrEqual(t, n, 3, "closes by the server before the warning")
		case <-ctx.Done():
			t.Error("the daemon never warned of the shared token")
		}
	})
	assert.Contains(t, logs.String(), "another process is probably using this bot's token")
	assert.NotContains(t, logs.String(), token)
	assertUniqueKeys(t, logs.String())
}

// assertUniqueKeys checks that no JSON log line names a key twice (the
// demo gave the client a logger with a component of its own, and the
// client added "lichess": two "component" keys, of which log tools keep
// one).
func assertUniqueKeys(t *testing.T, logs string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			t.Errorf("not a JSON object: %s", line)
			continue
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if !assert.NoError(t, err, line) {
				break
			}
			key, _ := tok.(string)
			assert.False(t, seen[key], "key %q twice in %s", key, line)
			seen[key] = true
			var v json.RawMessage
			if !assert.NoError(t, dec.Decode(&v), line) {
				break
			}
		}
	}
}
