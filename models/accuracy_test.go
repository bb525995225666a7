package models

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// pgnGame is a game read from a PGN file: its start FEN and UCI moves.
type pgnGame struct {
	name  string
	fen   string
	moves []string
}

var (
	pgnHeader  = regexp.MustCompile(`(?m)^\[(\w+)\s+"([^"]*)"\]\s*$`)
	pgnComment = regexp.MustCompile(`\{[^}]*\}`)
	pgnNAG     = regexp.MustCompile(`\$\d+`)
	pgnMoveNum = regexp.MustCompile(`^\d+\.+$|^\d+\.+`)
)

// readPGN reads the mainline of a single-game PGN file (comments,
// variations and NAGs are dropped; SAN is converted to UCI).
func readPGN(t *testing.T, path string) pgnGame {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	g := pgnGame{name: filepath.Base(path)}
	for _, m := range pgnHeader.FindAllStringSubmatch(text, -1) {
		if m[1] == "FEN" {
			g.fen = m[2]
		}
	}
	body := pgnHeader.ReplaceAllString(text, "")
	body = pgnComment.ReplaceAllString(body, " ")
	// Drop (nested) variations.
	var b strings.Builder
	depth := 0
	for _, r := range body {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	body = pgnNAG.ReplaceAllString(b.String(), " ")
	pos := &chess.Position{}
	start := g.fen
	if start == "" {
		start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	}
	if err := pos.UnmarshalText([]byte(start)); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, tok := range strings.Fields(body) {
		tok = pgnMoveNum.ReplaceAllString(tok, "")
		tok = strings.TrimRight(tok, "?!")
		if tok == "" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
			continue
		}
		m, err := chess.AlgebraicNotation{}.Decode(pos, tok)
		if err != nil {
			t.Fatalf("%s: move %q: %v", path, tok, err)
		}
		g.moves = append(g.moves, m.String())
		pos = pos.Update(m)
	}
	return g
}

// TestMoveMatching reports the top-1 move-matching accuracy of every Maia-1
// level on the human moves of ../shared/lichess-games. It takes about a
// minute, so it only runs when OUTPOST_MAIA_ACCURACY=1:
//
//	OUTPOST_MAIA_ACCURACY=1 go test ./models -run MoveMatching -v
func TestMoveMatching(t *testing.T) {
	if os.Getenv("OUTPOST_MAIA_ACCURACY") == "" {
		t.Skip("set OUTPOST_MAIA_ACCURACY=1 to run the accuracy report")
	}
	paths, _ := filepath.Glob("../../shared/lichess-games/*.pgn")
	if len(paths) == 0 {
		t.Skip("no games in ../shared/lichess-games")
	}
	var reqs []Request
	var human []string
	for _, p := range paths {
		g := readPGN(t, p)
		for i, mv := range g.moves {
			reqs = append(reqs, Request{StartFEN: g.fen, Moves: g.moves[:i]})
			human = append(human, mv)
		}
	}
	p := testPredictor(t)
	ctx := context.Background()
	t.Logf("%d human moves from %d games", len(reqs), len(paths))
	for _, lvl := range Maia1Levels {
		for i := range reqs {
			reqs[i].Model = Maia1Name(lvl)
		}
		preds, err := p.Predict(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		hit := 0
		for i, pr := range preds {
			if pr.Moves[0].UCI == human[i] {
				hit++
			}
		}
		acc := float64(hit) / float64(len(reqs))
		t.Logf("%s: top-1 %d/%d = %.1f%%", Maia1Name(lvl), hit, len(reqs), 100*acc)
		if acc < 0.25 {
			t.Errorf("%s: accuracy %.1f%% is implausibly low", Maia1Name(lvl), 100*acc)
		}
	}
}
