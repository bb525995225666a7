package search

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/easy"
	"github.com/outpostchess/outpost/bots/engine"
)

// openings are short, varied opening lines (UCI) so that engine games do
// not all repeat the same moves.
var openings = [][]string{
	{"e2e4", "e7e5", "g1f3", "b8c6"},
	{"d2d4", "d7d5", "c2c4", "e7e6"},
	{"e2e4", "c7c5", "g1f3", "d7d6"},
	{"c2c4", "e7e5", "b1c3", "g8f6"},
	{"d2d4", "g8f6", "c2c4", "g7g6"},
	{"e2e4", "e7e6", "d2d4", "d7d5"},
	{"g1f3", "d7d5", "g2g3", "c7c5"},
	{"e2e4", "c7c6", "d2d4", "d7d5"},
	{"d2d4", "f7f5", "g2g3", "g8f6"},
	{"e2e4", "d7d5", "e4d5", "d8d5"},
	{"b2b3", "e7e5", "c1b2", "b8c6"},
	{"e2e4", "e7e5", "f2f4", "e5f4"},
	{"d2d4", "d7d5", "c1f4", "g8f6"},
	{"e2e4", "g7g6", "d2d4", "f8g7"},
	{"c2c4", "c7c5", "g1f3", "g8f6"},
	{"e2e4", "b8c6", "d2d4", "d7d5"},
	{"d2d4", "e7e6", "e2e4", "c7c5"},
	{"f2f4", "d7d5", "g1f3", "g7g6"},
	{"e2e4", "e7e5", "g1f3", "g8f6"},
	{"d2d4", "g8f6", "g1f3", "e7e6"},
}

// gameResult is a finished game: the score for White (1, 0.5, 0), why it
// ended, and the moves.
type gameResult struct {
	white  float64
	reason string
	moves  []string
}

// playGame plays one game with notnil/chess as the referee. Any illegal
// move or engine error fails the test. Games are adjudicated drawn at
// threefold repetition, the fifty-move rule or maxPlies.
func playGame(t testing.TB, white, black engine.Engine, opening []string, lim engine.Limits, maxPlies int) gameResult {
	t.Helper()
	game := chess.NewGame()
	pos := engine.Position{}
	play := func(uci string) {
		mv, err := chess.UCINotation{}.Decode(game.Position(), uci)
		if err != nil {
			t.Fatalf("illegal move %s in %s (moves %v): %v", uci, game.FEN(), pos.Moves, err)
		}
		if err := game.Move(mv); err != nil {
			t.Fatalf("notnil rejects %s in %s: %v", uci, game.FEN(), err)
		}
		pos.Moves = append(pos.Moves, uci)
	}
	for _, m := range opening {
		play(m)
	}
	for {
		switch game.Outcome() {
		case chess.WhiteWon:
			return gameResult{1, game.Method().String(), pos.Moves}
		case chess.BlackWon:
			return gameResult{0, game.Method().String(), pos.Moves}
		case chess.Draw:
			return gameResult{0.5, game.Method().String(), pos.Moves}
		}
		for _, d := range game.EligibleDraws() {
			if d == chess.ThreefoldRepetition || d == chess.FiftyMoveRule {
				return gameResult{0.5, d.String(), pos.Moves}
			}
		}
		if len(pos.Moves) >= maxPlies {
			return gameResult{0.5, "ply limit", pos.Moves}
		}
		e := white
		if game.Position().Turn() == chess.Black {
			e = black
		}
		m, err := e.SelectMove(context.Background(), pos, lim)
		if err != nil {
			t.Fatalf("%s failed in %s: %v", e.Name(), game.FEN(), err)
		}
		play(m.UCI)
	}
}

// matchScore plays games pairs with colours swapped and returns a's score
// fraction and a summary.
func matchScore(t testing.TB, a, b engine.Engine, games int, lim engine.Limits) (float64, string) {
	t.Helper()
	var score float64
	var wins, draws, losses int
	for g := 0; g < games; g++ {
		op := openings[(g/2)%len(openings)]
		var r gameResult
		var s float64
		if g%2 == 0 {
			r = playGame(t, a, b, op, lim, 300)
			s = r.white
		} else {
			r = playGame(t, b, a, op, lim, 300)
			s = 1 - r.white
		}
		switch s {
		case 1:
			wins++
		case 0:
			losses++
		default:
			draws++
		}
		score += s
		if testing.Verbose() {
			t.Logf("game %d (%s as %s): %.1f by %s after %d plies", g+1, a.Name(), map[bool]string{true: "white", false: "black"}[g%2 == 0], s, r.reason, len(r.moves))
		}
	}
	return score / float64(games), fmt.Sprintf("%s vs %s: +%d =%d -%d (%.1f%%)", a.Name(), b.Name(), wins, draws, losses, 100*score/float64(games))
}

// envInt reads an integer environment variable with a default.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestMediumBeatsEasy plays a couple of games in the normal suite; set
// OUTPOST_MATCH_GAMES=N (and OUTPOST_MATCH_MS per move) for a real match.
func TestMediumBeatsEasy(t *testing.T) {
	games := envInt("OUTPOST_MATCH_GAMES", 2)
	lim := engine.Limits{Nodes: 4000}
	if ms := envInt("OUTPOST_MATCH_MS", 0); ms > 0 {
		lim = engine.Limits{MoveTime: time.Duration(ms) * time.Millisecond}
	}
	med, err := NewMedium()
	if err != nil {
		t.Fatal(err)
	}
	ez, err := easy.New(easy.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	score, summary := matchScore(t, med, ez, games, lim)
	t.Log(summary)
	if score < 0.9 {
		t.Fatalf("medium scored %.0f%% against easy, want >= 90%%: %s", score*100, summary)
	}
}

// TestHardBeatsMedium is a longer match, run only when OUTPOST_MATCH_GAMES
// is set: OUTPOST_MATCH_GAMES=20 OUTPOST_MATCH_MS=100 go test -run HardBeatsMedium.
func TestHardBeatsMedium(t *testing.T) {
	if os.Getenv("OUTPOST_MATCH_GAMES") == "" {
		t.Skip("set OUTPOST_MATCH_GAMES to play hard vs medium")
	}
	games := envInt("OUTPOST_MATCH_GAMES", 2)
	lim := engine.Limits{MoveTime: time.Duration(envInt("OUTPOST_MATCH_MS", 100)) * time.Millisecond}
	hard, _ := NewHard(WithHashMB(16))
	med, _ := NewMedium()
	score, summary := matchScore(t, hard, med, games, lim)
	t.Log(summary)
	if score < 0.75 {
		t.Errorf("hard scored %.0f%% against medium, want >= 75%%", score*100)
	}
}

// TestFeatureGain plays hard against hard without one feature
// (OUTPOST_FEATURE=lmr, …), only when OUTPOST_FEATURE is set.
func TestFeatureGain(t *testing.T) {
	feat := os.Getenv("OUTPOST_FEATURE")
	if feat == "" {
		t.Skip("set OUTPOST_FEATURE (and OUTPOST_MATCH_GAMES, OUTPOST_MATCH_MS) to measure a feature")
	}
	games := envInt("OUTPOST_MATCH_GAMES", 20)
	lim := engine.Limits{MoveTime: time.Duration(envInt("OUTPOST_MATCH_MS", 100)) * time.Millisecond}
	hard, _ := NewHard(WithHashMB(16))
	minus, err := NewHard(WithHashMB(16), WithoutFeatures(feat), WithName("hard-no-"+feat))
	if err != nil {
		t.Fatal(err)
	}
	_, summary := matchScore(t, hard, minus, games, lim)
	t.Log(summary)
}
