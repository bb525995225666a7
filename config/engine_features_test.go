package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const testBook = "../../shared/books/performance.bin"

// TestPolyglotConfigErrors: every bad [engines.NAME.book], limits,
// go_commands or think_time value is refused naming its key and value.
func TestPolyglotConfigErrors(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.bin")
	require.NoError(t, os.WriteFile(odd, make([]byte, 17), 0o600))
	unsorted := filepath.Join(dir, "unsorted.bin")
	require.NoError(t, os.WriteFile(unsorted, append([]byte{0xff, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 24)...), 0o600))
	eng := "[engines.e]\ntype = \"medium\"\n"
	uci := "[engines.u]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\n"
	cases := []refusal{
		{"missing book", eng + "[engines.e.book]\nfiles = [\"" + filepath.Join(dir, "nope.bin") + "\"]", "engines.e.book.files[0]", "no such file"},
		{"book size", eng + "[engines.e.book]\nfiles = [\"" + odd + "\"]", "engines.e.book.files[0]", "not a multiple of 16"},
		{"book unsorted", eng + "[engines.e.book]\nfiles = [\"" + testBook + "\", \"" + unsorted + "\"]", "engines.e.book.files[1]", "not sorted"},
		{"book directory", eng + "[engines.e.book]\nfiles = [\"" + dir + "\"]", "engines.e.book.files[0]", "not a regular file"},
		{"book empty path", eng + "[engines.e.book]\nfiles = [\" \"]", "engines.e.book.files[0]", "empty path"},
		{"selection", eng + "[engines.e.book]\nfiles = [\"" + testBook + "\"]\nselection = \"weighted_random\"", "engines.e.book.selection", "best, weighted, uniform"},
		{"max depth", eng + "[engines.e.book]\nmax_depth = -1", "engines.e.book.max_depth", "0..1000"},
		{"min weight", eng + "[engines.e.book]\nmin_weight = 70000", "engines.e.book.min_weight", "0..65535"},
		{"limits depth", eng + "[engines.e.limits.blitz]\ndepth = 500", "engines.e.limits.blitz.depth", "0..200"},
		{"limits nodes", eng + "[engines.e.limits.bullet]\nnodes = -5", "engines.e.limits.bullet.nodes", "0..2147483647"},
		{"limits speed", eng + "[engines.e.limits.blits]\ndepth = 5", "engines.e.limits.blits", "blitz"},
		{"limits movetime", eng + "[engines.e.limits.rapid]\nmovetime = \"2d\"", "engines.e.limits.rapid.movetime", "0s..1d"},
		{"go_commands not uci", eng + "[engines.e.go_commands]\nnodes = 1000", "engines.e.go_commands", "only for type uci"},
		{"go_commands depth", uci + "[engines.u.go_commands]\ndepth = 201", "engines.u.go_commands.depth", "0..200"},
		{"think max", eng + "[engines.e.think_time]\nmax = \"2m\"", "engines.e.think_time.max", "0s..1m"},
		{"think order", eng + "[engines.e.think_time]\nmin = \"3s\"\nmax = \"1s\"", "engines.e.think_time.min", "above think_time.max"},
	}
	checkRefusals(t, cases, saysAllowed)
}

func TestPolyglotConfigValid(t *testing.T) {
	src := "[engines.sf]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\n" +
		"[engines.sf.book]\nfiles = [\"" + testBook + "\", \"../../shared/books/lasker-trap.bin\"]\nselection = \"uniform\"\nmax_depth = 12\nmin_weight = 2\n" +
		"[engines.sf.go_commands]\nnodes = 50000\nmovetime = \"2s\"\n" +
		"[engines.sf.limits.bullet]\nnodes = 10000\ndepth = 8\n" +
		"[engines.sf.think_time]\nmin = \"200ms\"\nmax = \"1s\"\n"
	cfg, err := Parse([]byte(src), "t.toml")
	require.NoError(t, err)
	def := cfg.Engines.Defs["sf"]
	require.Equal(t, BookConfig{Files: []string{testBook, "../../shared/books/lasker-trap.bin"}, Selection: "uniform", MaxDepth: 12, MinWeight: 2}, def.Book)
	require.True(t, def.ThinkTime.Enabled())
	tests := []struct {
		speed string
		want  SearchCaps
	}{
		{"bullet", SearchCaps{Nodes: 10000, Depth: 8, MoveTime: 2 * time.Second}}, // the tighter of both
		{"blitz", SearchCaps{Nodes: 50000, MoveTime: 2 * time.Second}},            // go_commands only
		{"", SearchCaps{Nodes: 50000, MoveTime: 2 * time.Second}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, def.Caps(tt.speed), tt.speed)
	}
}
