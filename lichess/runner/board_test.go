package runner

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/notnil/chess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/lichess"
)

// notnilValid returns the legal moves of pos in UCI, as notnil/chess (the
// sandbox's referee) sees them.
func notnilValid(pos *chess.Position) map[string]bool {
	valid := map[string]bool{}
	for _, m := range pos.ValidMoves() {
		valid[chess.UCINotation{}.Encode(pos, m)] = true
	}
	return valid
}

// nearMisses returns move strings close to the legal ones: other promotion
// letters, upper case, king-takes-rook castling, reversed and random squares.
func nearMisses(rng *rand.Rand, valid map[string]bool) []string {
	var out []string
	for m := range valid {
		out = append(out, m[:4], m[:4]+"q", m[:4]+"k", strings.ToUpper(m), m[2:4]+m[0:2], m+"q")
		if m == "e1g1" || m == "e8g8" {
			out = append(out, m[:2]+"h"+m[3:4])
		}
	}
	for range 8 {
		sq := func() string { return string(rune('a'+rng.IntN(8))) + string(rune('1'+rng.IntN(8))) }
		out = append(out, sq()+sq())
	}
	return append(out, "", "e2", "e2e4e", "0000", "i2i4", "e2e9")
}

// TestLegalAgreesWithNotnil plays random games and checks, at every
// position, that legal() accepts exactly the moves notnil/chess accepts and
// that the fallback move is one of them.
func TestLegalAgreesWithNotnil(t *testing.T) {
	starts := []string{
		"",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // castling, pins
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // en passant, discovered checks
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                              // promotions
	}
	rng := rand.New(rand.NewPCG(6, 10))
	positions := 0
	for _, fen := range starts {
		for range 6 {
			b, err := newBoard(fen, false)
			require.NoError(t, err)
			g, err := notnilGame(engine.Position{StartFEN: fen})
			require.NoError(t, err)
			pos := g.Position()
			for range 120 {
				valid := notnilValid(pos)
				positions++
				for m := range valid {
					if !legal(b, m) {
						t.Fatalf("%s: %s is legal", pos, m)
					}
				}
				for _, m := range nearMisses(rng, valid) {
					if legal(b, m) != valid[m] {
						t.Fatalf("%s: legal(%q) = %v", pos, m, !valid[m])
					}
				}
				fb := fallbackMove(b)
				if len(valid) == 0 {
					require.Empty(t, fb, "%s: no legal move", pos)
					break
				}
				require.True(t, valid[fb], "%s: fallback %q", pos, fb)
				moves := pos.ValidMoves()
				mv := moves[rng.IntN(len(moves))]
				require.NoError(t, b.MakeUCI(chess.UCINotation{}.Encode(pos, mv)))
				pos = pos.Update(mv)
			}
		}
	}
	t.Logf("%d positions", positions)
}

func TestFallbackMoveTakesTheMostValuablePiece(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		{"queen over rook", "4k3/8/8/3q1r2/4P3/8/8/4K3 w - - 0 1", "e4d5"},
		{"rook over pawn", "4k3/8/8/3p1r2/4P3/8/8/4K3 w - - 0 1", "e4f5"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"},
		{"checkmated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ""},
		{"stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := newBoard(tc.fen, false)
			require.NoError(t, err)
			assert.Equal(t, tc.want, fallbackMove(b))
		})
	}
}

// TestSyncBoardFollowsTheServer feeds move lists as successive game states
// would (one more move, a takeback, a bad move) and checks the runner's
// board against notnil/chess after each.
func TestSyncBoardFollowsTheServer(t *testing.T) {
	r := New(Config{GameID: "g1", Me: "bot"}, nil, nil, nil)
	r.full = &lichess.GameFull{InitialFEN: "startpos"}
	r.color = lichess.Black
	steps := []struct {
		moves   string
		wantErr bool
	}{
		{"", false},
		{"e2e4", false},
		{"e2e4 e7e5 g1f3", false},
		{"e2e4 e7e5", false}, // a takeback: the board is set up again
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", false},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f6f6", true}, // not a move
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f6e4", false},
		{"d2d4", false}, // another game altogether
	}
	for _, st := range steps {
		moves := strings.Fields(st.moves)
		err := r.syncBoard(moves)
		if st.wantErr {
			require.Error(t, err, st.moves)
			assert.False(t, r.ourTurn(), "no board, no turn")
			continue
		}
		require.NoError(t, err, st.moves)
		assert.Equal(t, st.moves, strings.Join(r.gameMoves, " "))
		g, err := notnilGame(engine.Position{Moves: moves})
		require.NoError(t, err)
		pos := g.Position()
		for m := range notnilValid(pos) {
			assert.True(t, legal(r.game, m), "after %q: %s", st.moves, m)
		}
		assert.Equal(t, strings.Join(strings.Fields(pos.String())[:3], " "), strings.Join(strings.Fields(r.game.FEN())[:3], " "))
		assert.Equal(t, len(moves)%2 == 1, r.ourTurn(), "black to move after %q", st.moves)
	}
}

// FuzzLegal checks legal() against notnil/chess for arbitrary strings in a
// few positions rich in special moves.
func FuzzLegal(f *testing.F) {
	fens := []string{
		chess.StartingPosition().String(),
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	}
	for _, s := range []string{"e2e4", "e1g1", "e1h1", "b7b8q", "B7B8Q", "e5f6", "", "zz", "a1a1", "h2h1n"} {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, uci string) {
		fen := fens[int(which)%len(fens)]
		b, err := newBoard(fen, false)
		require.NoError(t, err)
		g, err := notnilGame(engine.Position{StartFEN: fen})
		require.NoError(t, err)
		assert.Equal(t, notnilValid(g.Position())[uci], legal(b, uci), "%s: %q", fen, uci)
	})
}

// TestCanonicalChess960 checks that engine moves in either castling
// spelling are sent the way Lichess writes them for the game's variant.
func TestCanonicalChess960(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	tests := []struct {
		chess960  bool
		in, want  string
		wantLegal bool
	}{
		{false, "e1g1", "e1g1", true},
		{false, "e1h1", "e1g1", true},
		{true, "e1h1", "e1h1", true},
		{true, "e1g1", "e1h1", true},
		{true, "e1c1", "e1a1", true},
		{true, "a1a8", "a1a8", true},
		{true, "e1e3", "e1e3", false},
		{true, "", "", false},
	}
	for _, tc := range tests {
		b, err := newBoard(fen, tc.chess960)
		require.NoError(t, err)
		got := canonical(b, tc.in)
		assert.Equal(t, tc.want, got, "chess960=%v %s", tc.chess960, tc.in)
		assert.Equal(t, tc.wantLegal, legal(b, got), "legal(%s)", got)
	}
}

// TestNewBoardPlaysWhatLichessStarts: the runner refuses the positions
// Lichess refuses, but plays a game Lichess started from any material
// (Lichess counts neither promotions nor pieces; trial 19, D7), which the
// strict check of analysis refuses, and gives engines the position with
// what Lichess drops dropped (want: the engine's start FEN).
func TestNewBoardPlaysWhatLichessStarts(t *testing.T) {
	tests := []struct {
		name, fen string
		want      string // the start engines get
		want960   bool
		wantErr   string // "" = played
	}{
		{"nine queens and a pawn", "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", "8/8/8/8/7k/4Q3/QQQQ3P/QQQQ2K1 w - - 0 1", false, ""},
		{"three black rooks and eight pawns", "rrr1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", "rrr1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", false, ""},
		{"ten pawns", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", false, ""},
		{"castling without a rook", "4k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false, ""},
		{"Shredder letters, black's rooks missing", "4k3/8/8/8/8/8/8/R3K2R w HAha - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false, ""},
		{"castling with the g1 rook", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", true, ""},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "", false, "the side not to move (black) is in check"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start, err := readStart(tc.fen, false)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, startPosition{fen: tc.want, chess960: tc.want960}, start)
		})
	}
}
