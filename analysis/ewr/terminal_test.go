package ewr

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTerminalProgressNotATerminal: on a buffer or a plain file nothing is
// drawn, whatever the events.
func TestTerminalProgressNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	var buf bytes.Buffer
	for _, w := range []interface{ Write([]byte) (int, error) }{&buf, f} {
		progress, finish := TerminalProgress(w)
		require.NotNil(t, progress)
		progress(Event{Phase: PhaseFilter, Done: 1, Total: 20})
		progress(Event{Phase: PhaseTrees, Message: "Maia trees ready: 3 nodes"})
		progress(Event{Phase: PhaseDone})
		finish()
	}
	assert.Empty(t, buf.String())
	st, err := f.Stat()
	require.NoError(t, err)
	assert.Zero(t, st.Size())
}

// TestTerminalProgressBar: on a terminal each phase gets its bar, titled
// by the phase, with the best move so far.
func TestTerminalProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := &terminalProgress{w: &buf} // as newTerminalProgress makes it for a terminal
	p.event(Event{Phase: PhaseFilter, Done: 1, Total: 20})
	require.NotNil(t, p.bar)
	assert.Equal(t, PhaseFilter, p.phase)
	assert.Equal(t, int64(20), p.bar.GetMax64())
	p.event(Event{Phase: PhaseFilter, Done: 2, Total: 25, Provisional: true, Ranking: []MoveResult{{SAN: "e4", ExpectedWinrate: 0.53}}})
	assert.Equal(t, int64(25), p.bar.GetMax64())
	first := p.bar
	p.event(Event{Phase: PhaseTrees, Message: "Maia trees ready: 3 nodes", Done: 3})
	assert.NotSame(t, first, p.bar, "a new phase, a new bar")
	assert.Equal(t, PhaseTrees, p.phase)
	p.event(Event{Phase: PhaseDone})
	assert.Equal(t, PhaseTrees, p.phase, "the end draws nothing")
	p.finish()
	assert.Contains(t, buf.String(), "Evaluating legal moves with Stockfish...")
}

// TestPhaseTitle: what the bar says each phase is doing.
func TestPhaseTitle(t *testing.T) {
	for ph, want := range map[Phase]string{
		PhaseFilter: "Evaluating legal moves with Stockfish...",
		PhaseTrees:  "Generating Maia trees...",
		PhaseEval:   "Evaluating positions with Stockfish...",
	} {
		assert.Equal(t, want, phaseTitle(ph), "phase %v", ph)
	}
}
