package ewr

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHoldoutPositions: the second benchmark set replays to positions with
// moves to analyse, each name once, and shares no position with the
// benchmark set (it is there to check a variant on positions it was not
// tuned on).
func TestHoldoutPositions(t *testing.T) {
	require.Len(t, HoldoutPositions, 10)
	bench := map[string]string{}
	for _, bp := range BenchPositions {
		b, err := replay(bp.Pos)
		require.NoError(t, err, bp.Name)
		bench[evalKey(b)] = bp.Name
	}
	names := map[string]bool{}
	for _, hp := range HoldoutPositions {
		assert.False(t, names[hp.Name], "name %q twice", hp.Name)
		names[hp.Name] = true
		b, err := replay(hp.Pos)
		require.NoError(t, err, hp.Name)
		assert.True(t, b.HasLegalMoves(), hp.Name)
		_, dup := bench[evalKey(b)]
		assert.False(t, dup, "%s is the benchmark's %s", hp.Name, bench[evalKey(b)])
		_, inBench := BenchSet(hp.Name)
		assert.False(t, inBench, hp.Name)
	}
}

// TestBenchSet: the sets by name, and an unknown name refused.
func TestBenchSet(t *testing.T) {
	for _, c := range []struct {
		name string
		want []BenchPosition
		ok   bool
	}{
		{"", BenchPositions, true},
		{"standard", BenchPositions, true},
		{"holdout", HoldoutPositions, true},
		{"nope", nil, false},
	} {
		got, ok := BenchSet(c.name)
		assert.Equal(t, c.ok, ok, c.name)
		assert.Equal(t, c.want, got, c.name)
	}
}

// TestBenchPositionNamesOfSet: names are checked against the set given.
func TestBenchPositionNamesOfSet(t *testing.T) {
	got, err := BenchPositionNamesOf(HoldoutPositions, "evans gambit, knight endgame")
	require.NoError(t, err)
	assert.Equal(t, []string{"evans gambit", "knight endgame"}, got)
	_, err = BenchPositionNamesOf(HoldoutPositions, "najdorf")
	assert.ErrorContains(t, err, `no benchmark position "najdorf"`)
}

// TestReferenceFiles: the saved exact calculations of both sets
// (testdata/reference, `--compare-ref`; the -cleared files with
// `--clear-hash`) hold every position of their set at the default
// parameters, with a ranking, so that a variant can be
// measured against them without calculating the exact side again.
func TestReferenceFiles(t *testing.T) {
	for _, c := range []struct {
		file    string
		set     []BenchPosition
		cleared bool // made with --clear-hash
	}{
		{"testdata/reference/standard.jsonl", BenchPositions, false},
		{"testdata/reference/holdout.jsonl", HoldoutPositions, false},
		{"testdata/reference/standard-cleared.jsonl", BenchPositions, true},
		{"testdata/reference/holdout-cleared.jsonl", HoldoutPositions, true},
	} {
		f, err := os.Open(c.file)
		require.NoError(t, err)
		refs, err := ReadCompareReference(f)
		require.NoError(t, f.Close())
		require.NoError(t, err, c.file)
		require.Len(t, refs, len(c.set), c.file)
		for _, bp := range c.set {
			ref, ok := refs[bp.Name]
			require.True(t, ok, "%s: no %s", c.file, bp.Name)
			assert.Equal(t, DefaultParams().normalized(), ref.Params, bp.Name)
			assert.NotEmpty(t, ref.Result.Moves, bp.Name)
			assert.Positive(t, ref.Nodes, bp.Name)
			assert.Equal(t, c.cleared, ref.ClearHash, "%s %s: the hash policy it was made with", c.file, bp.Name)
		}
	}
}
