package syzygy

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci/pipetest"
)

// stockfishPath is Debian's Stockfish 15.1 (installed by `make setup`).
const stockfishPath = enginepath.DebianStockfish

// sfTBWinCP: Stockfish 15.1 reports a tablebase win as a score of several
// thousand centipawns (8795 with its NNUE scaling); anything this large is
// a decided result, anything smaller a draw.
const sfTBWinCP = 5000

// stockfish is a Stockfish process driven over UCI for the oracle test.
type stockfish struct{ *pipetest.Engine }

func startStockfish(t *testing.T, tables string) stockfish {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatalf("Stockfish (run `make setup`): %v", err)
	}
	sf := stockfish{pipetest.Start(t, stockfishPath, time.Hour)}
	abs, err := filepath.Abs(tables)
	require.NoError(t, err)
	sf.Send(t, "uci")
	sf.Until(t, "uciok")
	sf.Send(t, "setoption name SyzygyPath value "+abs)
	sf.Send(t, "isready")
	sf.Until(t, "readyok")
	return sf
}

// rootWDL asks Stockfish for a depth-1 search of fen and returns the result
// its score means (win, draw or loss for the side to move) and its move.
func (sf stockfish) rootWDL(t *testing.T, fen string) (WDL, string) {
	t.Helper()
	sf.Send(t, "position fen "+fen)
	sf.Send(t, "go depth 1")
	lines := sf.Until(t, "bestmove")
	best := strings.Fields(lines[len(lines)-1])[1]
	var score string
	for _, l := range lines {
		if i := strings.Index(l, " score "); i >= 0 {
			score = l[i+7:]
		}
	}
	f := strings.Fields(score)
	require.GreaterOrEqual(t, len(f), 2, "no score for %s: %v", fen, lines)
	n, err := strconv.Atoi(f[1])
	require.NoError(t, err, "score %q", score)
	switch {
	case f[0] == "mate" && n > 0, f[0] == "cp" && n >= sfTBWinCP:
		return Win, best
	case f[0] == "mate", f[0] == "cp" && n <= -sfTBWinCP:
		return Loss, best
	}
	return Draw, best
}

// randomEndgame returns a legal position with the two kings and extra
// random pieces (no pawn on the first or last rank), side to move random.
func randomEndgame(r *rand.Rand, extra int) (*board.Board, bool) {
	var sq [64]byte
	place := func(c byte, pawn bool) {
		for {
			s := r.IntN(64)
			if sq[s] != 0 || (pawn && (s < 8 || s >= 56)) {
				continue
			}
			sq[s] = c
			return
		}
	}
	place('K', false)
	place('k', false)
	for i := 0; i < extra; i++ {
		c := "QRBNPqrbnp"[r.IntN(10)]
		place(c, c == 'P' || c == 'p')
	}
	var fen strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c := sq[rank*8+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fen.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			fen.WriteByte(c)
		}
		if empty > 0 {
			fen.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			fen.WriteByte('/')
		}
	}
	side := "wb"[r.IntN(2)]
	b, err := board.FromFEN(fmt.Sprintf("%s %c - - 0 1", fen.String(), side))
	return b, err == nil && b.HasLegalMoves()
}

// TestSyzygyAgainstStockfish compares our probes with Stockfish 15.1's own
// Syzygy probing on the EPD positions and 300 random 3–4-piece positions:
// the same win/draw/loss at the root, and Stockfish's chosen move keeps
// that result by our tables.
func TestSyzygyAgainstStockfish(t *testing.T) {
	tb := openShared(t)
	sf := startStockfish(t, sharedTables)
	var boards []*board.Board
	for _, p := range readEPD(t, "endgame-dm-4.epd") {
		boards = append(boards, mustBoard(t, p.fen))
	}
	r := rand.New(rand.NewPCG(16, 3))
	for len(boards) < 350 {
		if b, ok := randomEndgame(r, 1+r.IntN(2)); ok {
			boards = append(boards, b)
		}
	}
	decided := 0
	for _, b := range boards {
		fen := b.FEN()
		root, err := tb.ProbeRoot(b)
		require.NoError(t, err, fen)
		want := root.WDL
		if want == CursedWin || want == BlessedLoss {
			want = Draw // under the 50-move rule, as Stockfish scores them
		}
		got, sfMove := sf.rootWDL(t, fen)
		require.Equal(t, want, got, "%s: ours %s (DTZ %d), Stockfish's score says %s", fen, root.WDL, root.DTZ, got)
		if want != Draw {
			decided++
		}
		var found bool
		for _, m := range root.Moves {
			if m.UCI == sfMove {
				found = true
				require.Equal(t, root.WDL, m.WDL, "%s: Stockfish's %s", fen, sfMove)
			}
		}
		require.True(t, found, "%s: Stockfish's move %s is not among our %d", fen, sfMove, len(root.Moves))
	}
	require.Greater(t, decided, 100, "the sample has decided positions")
}
