package match

import (
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/engine"
)

func TestGamePGN(t *testing.T) {
	g := Game{Index: 0, White: "w", Black: "b \"q\"", Result: BlackWins, Reason: "checkmate", Opening: "test",
		Start: engine.Position{Moves: []string{"f2f3"}}, Moves: []string{"e7e5", "g2g4", "d8h4"}}
	got, err := g.PGN()
	if err != nil {
		t.Fatal(err)
	}
	want := `[Event "Outpost match, game 1"]
[White "w"]
[Black "b \"q\""]
[Result "0-1"]
[Opening "test"]
[Termination "checkmate"]

1. f3 e5 2. g4 Qh4# 0-1
`
	if got != want {
		t.Errorf("PGN\n%s\nwant\n%s", got, want)
	}
	// From a FEN with Black to move; notnil/chess reads it back.
	g = Game{White: "w", Black: "b", Result: Draw, Reason: "adjudicated",
		Start: engine.Position{StartFEN: "4k3/8/8/8/8/8/8/R3K3 b - - 10 42"}, Moves: []string{"e8d7", "a1a7"}}
	got, err = g.PGN()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 10 42\"]") || !strings.Contains(got, "42... Kd7 43. Ra7+ 1/2-1/2") {
		t.Errorf("PGN from FEN:\n%s", got)
	}
	read, err := chess.PGN(strings.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if gm := chess.NewGame(read); len(gm.Moves()) != 2 {
		t.Errorf("notnil read %d moves back", len(gm.Moves()))
	}
	g.Moves = []string{"e8e7", "a1a9"}
	if _, err := g.PGN(); err == nil {
		t.Error("illegal move rendered")
	}
}

// TestGamePGNWritesNoControlCharacter: an engine's name (its UCI id name)
// with control characters is written cleaned (trial 19, D6).
func TestGamePGNWritesNoControlCharacter(t *testing.T) {
	tests := []struct{ name, want string }{
		{"eng\x00ine", "[White \"eng\uFFFDine\"]"},
		{"eng 1\r", `[White "eng 1 "]`},
		{"tab\there", `[White "tab here"]`},
	}
	for _, tt := range tests {
		g := Game{White: tt.name, Black: "b", Result: Draw, Reason: "adjudicated"}
		got, err := g.PGN()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, tt.want+"\n") {
			t.Errorf("White %q: want %s in\n%q", tt.name, tt.want, got)
		}
	}
}
