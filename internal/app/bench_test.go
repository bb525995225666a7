package app

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// TestBenchPerft: our board and notnil/chess agree on Kiwipete's perft;
// bad depths and positions are named.
func TestBenchPerft(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, BenchPerft(context.Background(), &out, PerftBench{FEN: BenchFENs[1], Depth: 2, MinTime: time.Millisecond}))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 4, out.String())
	assert.Equal(t, "perft(2) = 2039", lines[0])
	assert.Regexp(t, `^outpost board: [0-9]+ nodes/s$`, lines[1])
	assert.Regexp(t, `^notnil/chess:  [0-9]+ nodes/s$`, lines[2])
	assert.Regexp(t, `^ratio: [0-9.]+x$`, lines[3])

	for _, c := range []struct {
		o    PerftBench
		want string
	}{
		{PerftBench{FEN: BenchFENs[0], Depth: 0}, "--depth must be 1-6, got 0"},
		{PerftBench{FEN: BenchFENs[0], Depth: 7}, "--depth must be 1-6, got 7"},
		{PerftBench{FEN: "8/8/8 w - - 0 1", Depth: 1}, "8/8/8"},
	} {
		assert.ErrorContains(t, BenchPerft(context.Background(), &out, c.o), c.want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, BenchPerft(ctx, &out, PerftBench{FEN: BenchFENs[0], Depth: 1}), context.Canceled)
}

// TestBenchNPSHardOnly: without Stockfish (none asked for, or one that is
// not there, said on warn) hard is measured alone on every position.
func TestBenchNPSHardOnly(t *testing.T) {
	for _, sf := range []string{"", filepath.Join(t.TempDir(), "no-stockfish")} {
		var out, warn bytes.Buffer
		require.NoError(t, BenchNPS(context.Background(), &out, &warn, NPSBench{MoveTime: 5 * time.Millisecond, Stockfish: sf, HashMB: 1}))
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		require.Len(t, lines, len(BenchFENs)+2, out.String())
		assert.Regexp(t, `^hard: [0-9]+ nodes in .* = [0-9]+ nodes/s$`, lines[len(lines)-1])
		assert.NotContains(t, out.String(), "stockfish")
		if sf != "" {
			assert.Contains(t, warn.String(), "measuring hard only")
		} else {
			assert.Empty(t, warn.String())
		}
	}
}

// TestBenchNPSStockfish: with Stockfish 15.1 installed both engines are
// measured on every position and compared.
func TestBenchNPSStockfish(t *testing.T) {
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	var out, warn bytes.Buffer
	require.NoError(t, BenchNPS(context.Background(), &out, &warn, NPSBench{MoveTime: 20 * time.Millisecond, Stockfish: enginepath.Stockfish15, HashMB: 1}))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, len(BenchFENs)+4, out.String())
	assert.Regexp(t, `^1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$`, lines[1])
	assert.Regexp(t, `^stockfish \(Threads=1\): [0-9]+ nodes in .* nodes/s$`, lines[len(lines)-2])
	assert.Regexp(t, `^ratio hard/stockfish: [0-9.]+$`, lines[len(lines)-1])
	assert.Empty(t, warn.String())
}
