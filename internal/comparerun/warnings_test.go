package comparerun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
)

// TestRunLogsPGNWarnings: a compared file's game that the PGN reader kept
// with a warning (a missing result token) has the warning logged at warn
// level, naming the file, the game and its players, as soon as the file
// is read: before any engine starts (here none can).
func TestRunLogsPGNWarnings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.pgn")
	const text = "[Event \"t\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.2] }\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	c := &Comparer{Store: openStore(t), Logger: zerolog.New(&logs).Level(zerolog.WarnLevel),
		Pool: analysis.PoolConfig{Command: []string{"none"}, Factory: func(context.Context, int) (analysis.Searcher, error) {
			return nil, errors.New("no engine")
		}}, Budget: analysis.Budget{Nodes: 1000}}
	if _, err := c.Run(context.Background(), FileSource{Path: path}); err == nil || !strings.Contains(err.Error(), "no engine") {
		t.Fatalf("run: %v, want the engine's failure", err)
	}
	want := `"level":"warn","user":"pgn:` + path + `","run":1,"source":"` + path + `","message":"game 1 (W–B): no result token at the end of the movetext"`
	if !strings.Contains(logs.String(), want) {
		t.Errorf("logs:\n%s\nwant a line with %s", logs.String(), want)
	}
}
