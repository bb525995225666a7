package board

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci/pipetest"
)

// stockfishPerft drives one Stockfish process in UCI_Chess960 mode as the
// perft oracle.
type stockfishPerft struct{ *pipetest.Engine }

func startStockfish(t *testing.T) stockfishPerft {
	t.Helper()
	sf := stockfishPerft{pipetest.Start(t, pipetest.Installed(t, enginepath.DebianStockfish), 2*time.Minute)}
	sf.Send(t, "uci\nsetoption name UCI_Chess960 value true\nisready")
	sf.Until(t, "readyok")
	return sf
}

// divide returns Stockfish's perft count per root move and the total.
func (sf stockfishPerft) divide(t *testing.T, fen string, depth int) (map[string]int64, int64) {
	t.Helper()
	sf.Send(t, fmt.Sprintf("position fen %s\ngo perft %d", fen, depth))
	lines := sf.Until(t, "Nodes searched: ")
	moves := map[string]int64{}
	for _, line := range lines[:len(lines)-1] {
		if mv, n, ok := strings.Cut(line, ": "); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil {
				moves[mv] = v
			}
		}
	}
	last := lines[len(lines)-1]
	total, err := strconv.ParseInt(strings.TrimPrefix(last, "Nodes searched: "), 10, 64)
	if err != nil {
		t.Fatalf("stockfish: %q: %v", last, err)
	}
	return moves, total
}

// chess960Oracle lists the positions compared with Stockfish: the start
// positions of the Chess960 games in ../shared/chess960, a spread of the 960
// numbered start positions, the published mid-game positions, and
// positions a few random (non-castling) plies into the game, which keep
// castling rights on both wings.
func chess960Oracle(t *testing.T) []perftCase {
	var cases []perftCase
	pgn, err := os.ReadFile("../../../shared/chess960/cutechess-fischerrandom.pgn")
	if err != nil {
		t.Logf("no shared Chess960 games (%v); numbered positions only", err)
	}
	for _, m := range regexp.MustCompile(`\[FEN "([^"]+)"\]`).FindAllStringSubmatch(string(pgn), -1) {
		cases = append(cases, perftCase{name: "pgn " + m[1], fen: m[1], notnil: 4})
	}
	rng := rand.New(rand.NewPCG(960, 1))
	for _, n := range []int{0, 1, 105, 358, 518, 711, 959} {
		fen, err := Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, perftCase{name: fmt.Sprintf("start %d", n), fen: fen, notnil: 4})
		b := mustFEN960(t, fen)
		for ply := 0; ply < 10; ply++ {
			var ml MoveList
			b.GenerateMoves(&ml)
			var quiet []Move
			for _, m := range ml.Slice() {
				if !m.IsCastle() {
					quiet = append(quiet, m)
				}
			}
			if len(quiet) == 0 {
				break
			}
			b.Make(quiet[rng.IntN(len(quiet))])
		}
		cases = append(cases, perftCase{name: fmt.Sprintf("start %d + 10 plies", n), fen: b.FEN(), notnil: 4})
	}
	for _, c := range chess960Perft {
		cases = append(cases, perftCase{name: c.name, fen: c.fen, notnil: 4})
	}
	// Both wings ready to castle, the rooks inside, outside and next to
	// the king, and queens behind the rooks where a castling rook shields
	// the king's target.
	for _, fen := range []string{
		"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
		"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
		"r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR b KQkq - 0 1",
		"2r1kr2/8/8/8/8/8/8/2R1KR2 w KQkq - 0 1",
		"1r2k1r1/8/8/8/8/8/8/qR2K1Rq w KQkq - 0 1",
		"1rk3rQ/8/8/8/8/8/8/qRK3R1 b KQkq - 0 1",
	} {
		cases = append(cases, perftCase{name: fen, fen: fen, notnil: 4})
	}
	return cases
}

// TestPerftChess960Stockfish compares perft, move by move at the root, with
// Stockfish's go perft in UCI_Chess960 mode (the notnil field of each case
// is the depth compared).
func TestPerftChess960Stockfish(t *testing.T) {
	sf := startStockfish(t)
	for _, c := range chess960Oracle(t) {
		b := mustFEN960(t, c.fen)
		want, total := sf.divide(t, b.FEN(), c.notnil)
		var got int64
		for _, e := range b.Divide(c.notnil) {
			got += e.Nodes
			if want[e.Move.String()] != e.Nodes {
				t.Errorf("%s: divide %s = %d, Stockfish %d", c.name, e.Move, e.Nodes, want[e.Move.String()])
			}
		}
		t.Logf("%s: perft(%d) = %d, Stockfish %d", c.name, c.notnil, got, total)
		if got != total {
			t.Errorf("%s (%s): perft(%d) = %d, Stockfish %d", c.name, c.fen, c.notnil, got, total)
		}
	}
}
