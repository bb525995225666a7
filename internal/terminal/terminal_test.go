package terminal

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notTerminals are a buffer and a plain file, with what each received.
func notTerminals(t *testing.T) (ws []io.Writer, written func() int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	var buf bytes.Buffer
	return []io.Writer{&buf, f}, func() int64 {
		st, err := f.Stat()
		require.NoError(t, err)
		return int64(buf.Len()) + st.Size()
	}
}

// TestIs: a buffer and a plain file are not terminals.
func TestIs(t *testing.T) {
	ws, _ := notTerminals(t)
	for _, w := range ws {
		assert.False(t, Is(w), "%T", w)
	}
}

// TestPositionsSilentWhenNotATerminal: no callback, nothing written.
func TestPositionsSilentWhenNotATerminal(t *testing.T) {
	ws, written := notTerminals(t)
	for _, w := range ws {
		p, finish := Positions(w, "x")
		assert.Nil(t, p, "progress callback for %T", w)
		finish()
	}
	assert.Zero(t, written())
}

// TestPositionsBar: on a terminal the bar counts positions and follows a
// total that grows.
func TestPositionsBar(t *testing.T) {
	var buf bytes.Buffer
	p := &positions{w: &buf, desc: "analysing"} // as Positions makes it for a terminal
	p.set(1, 10)
	require.NotNil(t, p.bar)
	assert.Equal(t, 10, p.bar.GetMax())
	p.set(5, 12)
	assert.Equal(t, 12, p.bar.GetMax())
	p.finish()
	assert.Contains(t, buf.String(), "analysing")
}

// TestEWRNotATerminal: on a buffer or a plain file nothing is drawn,
// whatever the events.
func TestEWRNotATerminal(t *testing.T) {
	ws, written := notTerminals(t)
	for _, w := range ws {
		progress, finish := EWR(w)
		require.NotNil(t, progress)
		progress(ewr.Event{Phase: ewr.PhaseFilter, Done: 1, Total: 20})
		progress(ewr.Event{Phase: ewr.PhaseTrees, Message: "Maia trees ready: 3 nodes"})
		progress(ewr.Event{Phase: ewr.PhaseDone})
		finish()
	}
	assert.Zero(t, written())
}

// TestEWRBar: on a terminal each phase gets its bar, titled by the phase,
// with the best move so far.
func TestEWRBar(t *testing.T) {
	var buf bytes.Buffer
	p := &phases{w: &buf} // as EWR makes it for a terminal
	p.event(ewr.Event{Phase: ewr.PhaseFilter, Done: 1, Total: 20})
	require.NotNil(t, p.bar)
	assert.Equal(t, ewr.PhaseFilter, p.phase)
	assert.Equal(t, int64(20), p.bar.GetMax64())
	p.event(ewr.Event{Phase: ewr.PhaseFilter, Done: 2, Total: 25, Provisional: true, Ranking: []ewr.MoveResult{{SAN: "e4", ExpectedWinrate: 0.53}}})
	assert.Equal(t, int64(25), p.bar.GetMax64())
	first := p.bar
	p.event(ewr.Event{Phase: ewr.PhaseTrees, Message: "Maia trees ready: 3 nodes", Done: 3})
	assert.NotSame(t, first, p.bar, "a new phase, a new bar")
	assert.Equal(t, ewr.PhaseTrees, p.phase)
	p.event(ewr.Event{Phase: ewr.PhaseDone})
	assert.Equal(t, ewr.PhaseTrees, p.phase, "the end draws nothing")
	p.finish()
	assert.Contains(t, buf.String(), "Evaluating legal moves with Stockfish...")
}

// TestPhaseTitle: what the bar says each phase is doing.
func TestPhaseTitle(t *testing.T) {
	for ph, want := range map[ewr.Phase]string{
		ewr.PhaseFilter: "Evaluating legal moves with Stockfish...",
		ewr.PhaseTrees:  "Generating Maia trees...",
		ewr.PhaseEval:   "Evaluating positions with Stockfish...",
	} {
		assert.Equal(t, want, phaseTitle(ph), "phase %v", ph)
	}
}
