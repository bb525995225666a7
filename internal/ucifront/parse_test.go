package ucifront

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

func TestParseCommand(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		line string
		want Command
	}{
		{"uci", Command{Name: "uci"}},
		{"  isready  ", Command{Name: "isready"}},
		{"joho debug on", Command{Name: "debug"}},
		{"position startpos", Command{Name: "position"}},
		{"position startpos moves e2e4 e7e5 e1g1", Command{Name: "position", Position: engine.Position{Moves: []string{"e2e4", "e7e5", "e1g1"}}}},
		{"position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2", Command{Name: "position",
			Position: engine.Position{StartFEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2"}}}},
		{"position fen 8/8/8/8/8/8/8/K6k b - -", Command{Name: "position", Position: engine.Position{StartFEN: "8/8/8/8/8/8/8/K6k b - - 0 1"}}},
		{"go wtime 300000 btime 299000 winc 2000 binc 2000 movestogo 30", Command{Name: "go",
			Limits: engine.Limits{WTime: 300000 * ms, BTime: 299000 * ms, WInc: 2000 * ms, BInc: 2000 * ms, MovesToGo: 30}}},
		{"go movetime 1500", Command{Name: "go", Limits: engine.Limits{MoveTime: 1500 * ms}}},
		{"go depth 12 nodes 100000", Command{Name: "go", Limits: engine.Limits{Depth: 12, Nodes: 100000}}},
		{"go infinite", Command{Name: "go", Limits: engine.Limits{Infinite: true}}},
		{"go ponder wtime 1000 btime 1000", Command{Name: "go", Ponder: true, Limits: engine.Limits{WTime: 1000 * ms, BTime: 1000 * ms}}},
		{"go wtime -250 btime 1000 winc 0", Command{Name: "go", Limits: engine.Limits{WTime: ms, BTime: 1000 * ms}}},
		{"go searchmoves e2e4 d2d4 depth 3", Command{Name: "go", SearchMoves: []string{"e2e4", "d2d4"}, Limits: engine.Limits{Depth: 3}}},
		{"go mate 3", Command{Name: "go", Limits: engine.Limits{Depth: 6}}},
		{"go frobnicate depth 2", Command{Name: "go", Limits: engine.Limits{Depth: 2}}},
		{"setoption name Hash value 64", Command{Name: "setoption", OptionName: "Hash", OptionValue: "64"}},
		{"setoption name Skill Level value 5", Command{Name: "setoption", OptionName: "Skill Level", OptionValue: "5"}},
		{"setoption name Clear Hash", Command{Name: "setoption", OptionName: "Clear Hash"}},
		{"setoption name opponent_ply_depth value 2.5", Command{Name: "setoption", OptionName: "opponent_ply_depth", OptionValue: "2.5"}},
		{"stop", Command{Name: "stop"}},
		{"ponderhit", Command{Name: "ponderhit"}},
		{"quit", Command{Name: "quit"}},
	}
	for _, tc := range tests {
		got, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCommand(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	for line, want := range map[string]string{
		"":                       "no command",
		"hello world":            "no command",
		"position":               "want startpos or fen",
		"position middlegame":    "want startpos or fen",
		"position fen 8/8 w":     "2 fields",
		"position startpos e2e4": "unexpected",
		// regression (issue 18): illegal positions never reach an engine
		"position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1 moves e1g1": "castling right 'K': no white rook on h1",
		"position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1":             "side not to move (black) is in check",
		"position startpos moves e2e4 e7e9":                        "not in UCI notation",
		"go depth":                                                 "missing value",
		"go wtime soon":                                            "not an integer",
		"setoption Hash 3":                                         "want \"name",
		"setoption name value 3":                                   "empty option name",
	} {
		_, err := ParseCommand(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCommand(%q) error = %v, want %q", line, err, want)
		}
	}
}

// FuzzParseCommand checks the parser never panics and only produces sane
// commands: known names, well-formed moves, non-negative limits.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		"uci", "position startpos moves e2e4 e7e5", "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
		"go wtime 1000 btime -5 winc 10 binc 10 movestogo 3", "go infinite", "go ponder", "go mate 2",
		"setoption name Skill Level value 3", "xyzzy stop", "go searchmoves e2e4 depth 9999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			return
		}
		if !commands[c.Name] {
			t.Fatalf("unknown command name %q from %q", c.Name, line)
		}
		l := c.Limits
		if l.WTime < 0 || l.BTime < 0 || l.WInc < 0 || l.BInc < 0 || l.MoveTime < 0 || l.Depth < 0 || l.Nodes < 0 || l.MovesToGo < 0 {
			t.Fatalf("negative limit %+v from %q", l, line)
		}
		for _, m := range c.Position.Moves {
			if len(m) < 4 || len(m) > 5 || strings.ContainsAny(m, " \n") {
				t.Fatalf("bad move %q from %q", m, line)
			}
		}
		if strings.ContainsAny(c.Position.StartFEN, "\n\r") || strings.ContainsAny(c.OptionName, "\n\r") {
			t.Fatalf("line break in output from %q", line)
		}
	})
}
