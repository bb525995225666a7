package sandbox

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/board"
)

// TestPositionEndings plays move lists and checks the ending after every
// ply, on the rules where a careless implementation goes wrong: en passant
// counts for repetition only when the capture is legal, castling rights
// count, mate on the hundredth quiet ply is mate, bishops on one colour.
func TestPositionEndings(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves string
		want  ending // after the last move; ongoing before it
		san   string // SAN of the last move
	}{
		{"fool's mate", "", "f2f3 e7e5 g2g4 d8h4", endMate, "Qh4#"},
		{"threefold", "", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", endRepetition, "Ng8"},
		// After 1.e4 no black pawn can take en passant: the position
		// after 1.e4 recurs at plies 5 and 9 (notnil counts e3 and
		// misses this draw).
		{"illegal en passant does not count", "", "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1", endRepetition, "Ng1"},
		// After 2...d5 exd6 is legal: that position differs from the
		// same one at plies 8 and 12 without the capture, so no draw at
		// ply 12 (ignoring en passant would draw there); 7.Nf3 repeats
		// ply 5 a third time.
		{"legal en passant counts", "", "e2e4 g8f6 e4e5 d7d5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8 g1f3", endRepetition, "Nf3"},
		// The rook shuffle loses castling rights: the position after
		// 1.Nf3 Nf6 (KQkq) is not the one after 3.Rh1 Rh8 and 5.Rh1 Rh8
		// (Qq), so no draw at ply 10; 6...Rg8 repeats ply 4 a third time.
		{"castling rights count", "", "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8", endRepetition, "Rg8"},
		{"fifty moves", "7k/8/8/8/8/8/R7/K7 w - - 98 80", "a2b2 h8g8", endFiftyMoves, "Kg8"},
		{"mate on the hundredth ply", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1a8", endMate, "Ra8#"},
		{"stalemate", "7k/8/5K2/6Q1/8/8/8/8 w - - 0 1", "g5g6", endStalemate, "Qg6"},
		{"bare kings", "7k/8/8/8/8/8/1r6/K7 w - - 0 1", "a1b2", endInsufficient, "Kxb2"},
		{"bishops on one colour", "7k/8/8/8/8/1b6/6r1/5BK1 w - - 0 1", "g1g2", endInsufficient, "Kxg2"},
		{"bishops on both colours", "7k/8/8/8/8/2b5/6r1/5BK1 w - - 0 1", "g1g2", ongoing, "Kxg2"},
		{"promotion with check", "7k/P7/8/8/8/8/8/K7 w - - 0 1", "a7a8q", ongoing, "a8=Q+"},
		{"en passant capture", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4 d4e3", ongoing, "dxe3"},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1 e8c8", ongoing, "O-O-O"},
		{"disambiguation by rank", "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2", ongoing, "R1a2"},
		{"disambiguation by file", "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", ongoing, "Rad1"},
		{"disambiguation by both", "2k5/8/8/8/1Q5Q/8/8/K6Q w - - 0 1", "h4e1", ongoing, "Qh4e1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newPosition(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			moves := strings.Fields(tt.moves)
			for i, u := range moves {
				if e := p.ending(); e != ongoing {
					t.Fatalf("ended (%d) before ply %d", e, i+1)
				}
				m, ok := p.find(u)
				if !ok {
					t.Fatalf("ply %d: %s not legal", i+1, u)
				}
				san := p.play(m)
				if i == len(moves)-1 && san != tt.san {
					t.Errorf("SAN %q, want %q", san, tt.san)
				}
			}
			if got := p.ending(); got != tt.want {
				t.Errorf("ending %d, want %d", got, tt.want)
			}
		})
	}
}

// TestNewPositionErrors shows bad start positions are refused.
func TestNewPositionErrors(t *testing.T) {
	for _, fen := range []string{"not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2R b - - 0 1" /* ok */} {
		_, err := newPosition(fen)
		if (err == nil) != strings.HasSuffix(fen, "b - - 0 1") {
			t.Errorf("%q: err %v", fen, err)
		}
	}
	// White to move while black's king is in check: not a position.
	if _, err := newPosition("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"); err == nil {
		t.Error("side not to move in check accepted")
	}
}

// refGame is the reference the sandbox's rules are checked against:
// notnil/chess for moves, SAN, FEN, mate, stalemate and insufficient
// material, with repetitions counted by scanning the whole history for
// positions equal under the FIDE/Lichess definition (en passant only when
// legal), the slow way the sandbox used to do it.
type refGame struct {
	pos  *chess.Position
	keys []string // one per position so far
}

func newRefGame(t testing.TB, fen string) *refGame {
	t.Helper()
	pos := chess.StartingPosition()
	if fen != "" {
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		pos = chess.NewGame(opt).Position()
	}
	return &refGame{pos: pos, keys: []string{refKey(pos)}}
}

// refKey is the FIDE repetition identity of a notnil position.
func refKey(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	ep := "-"
	for _, m := range pos.ValidMoves() {
		if m.HasTag(chess.EnPassant) {
			ep = f[3]
		}
	}
	return strings.Join([]string{f[0], f[1], f[2], ep}, " ")
}

// ending is the reference's ending of the current position: notnil's own
// verdict on it, then the repetition scan, then the half-move clock.
func (r *refGame) ending(t testing.TB) ending {
	opt, err := chess.FEN(r.pos.String())
	if err != nil {
		t.Fatalf("notnil: %v", err)
	}
	switch chess.NewGame(opt).Method() {
	case chess.Checkmate:
		return endMate
	case chess.Stalemate:
		return endStalemate
	case chess.InsufficientMaterial:
		return endInsufficient
	}
	reps := 0
	for _, k := range r.keys {
		if k == r.keys[len(r.keys)-1] {
			reps++
		}
	}
	if reps >= 3 {
		return endRepetition
	}
	if r.pos.HalfMoveClock() >= 100 {
		return endFiftyMoves
	}
	return ongoing
}

// play plays a UCI move and returns its SAN.
func (r *refGame) play(t testing.TB, uci string) string {
	t.Helper()
	d, err := chess.UCINotation{}.Decode(r.pos, uci)
	if err != nil {
		t.Fatalf("notnil: %s: %v", uci, err)
	}
	var m *chess.Move // the generated move, with its check tag
	for _, v := range r.pos.ValidMoves() {
		if v.S1() == d.S1() && v.S2() == d.S2() && v.Promo() == d.Promo() {
			m = v
		}
	}
	if m == nil {
		t.Fatalf("notnil: %s is not legal", uci)
	}
	san := chess.AlgebraicNotation{}.Encode(r.pos, m)
	r.pos = r.pos.Update(m)
	r.keys = append(r.keys, refKey(r.pos))
	return san
}

// randomFENs are the start positions of the randomised comparison: the
// standard one, busy middlegames, and endgames where the fifty-move rule,
// insufficient material and repetitions come up.
var randomFENs = []string{
	"",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"4k3/8/8/8/8/8/8/R3K2R w KQ - 60 70",
	"8/8/4k3/8/1B6/8/4K3/6n1 w - - 80 90",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"4k3/8/8/2pPp3/8/8/8/4K2B w - e6 0 1",
	"7k/8/6K1/8/8/8/5Q2/8 w - - 0 1",
	"8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
}

// playAgreement plays a random game from fen and checks, after every ply,
// that the sandbox's legal moves, SAN, FEN and ending agree with the
// reference. With repeat set, moves that undo the mover's previous move
// are favoured, so repetitions happen often.
func playAgreement(t testing.TB, seed uint64, fen string, maxPlies int, repeat bool) (endings map[ending]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	p, err := newPosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	ref := newRefGame(t, fen)
	endings = map[ending]int{}
	var last [2]board.Move
	for ply := 0; ply < maxPlies; ply++ {
		var mine, theirs []string
		for _, m := range p.legal.Slice() {
			mine = append(mine, m.String())
		}
		for _, m := range ref.pos.ValidMoves() {
			theirs = append(theirs, chess.UCINotation{}.Encode(ref.pos, m))
		}
		slices.Sort(mine)
		slices.Sort(theirs)
		if !slices.Equal(mine, theirs) {
			t.Fatalf("seed %d ply %d %s: legal moves\n%v\nwant\n%v", seed, ply, p.fen(), mine, theirs)
		}
		if got, want := p.ending(), ref.ending(t); got != want {
			t.Fatalf("seed %d ply %d %s: ending %d, want %d", seed, ply, p.fen(), got, want)
		}
		if p.ending() != ongoing {
			endings[p.ending()]++
			return endings
		}
		want := ref.pos.String()
		if !p.epOK {
			f := strings.Fields(want)
			f[3] = "-"
			want = strings.Join(f, " ")
		}
		if got := p.fen(); got != want {
			t.Fatalf("seed %d ply %d: FEN %q, want %q", seed, ply, got, want)
		}
		side := p.turn()
		m := p.legal.Moves[rng.IntN(p.legal.N)]
		if back := last[side]; repeat && back != board.NullMove && rng.IntN(3) > 0 {
			if u, ok := p.find(back.To().String() + back.From().String()); ok {
				m = u
			}
		}
		last[side] = m
		san := p.play(m)
		if want := ref.play(t, m.String()); san != want {
			t.Fatalf("seed %d ply %d: SAN %q, want %q", seed, ply, san, want)
		}
	}
	endings[ongoing]++
	return endings
}

// TestPositionAgreesWithNotnil compares the sandbox's rules with the
// reference on random games from several start positions, and checks that
// every kind of ending was met.
func TestPositionAgreesWithNotnil(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 3
	}
	seen := map[ending]int{}
	for i, fen := range randomFENs {
		for g := range games {
			for e, n := range playAgreement(t, uint64(1000*i+g), fen, 400, g%2 == 0) {
				seen[e] += n
			}
		}
	}
	t.Logf("endings: %v", seen)
	for _, e := range []ending{endMate, endStalemate, endInsufficient, endRepetition, endFiftyMoves} {
		if seen[e] == 0 && !testing.Short() {
			t.Errorf("no game ended with %d: the comparison did not cover it", e)
		}
	}
}

// FuzzPositionAgreesWithNotnil plays the random game the fuzzer's seed
// picks, from a start position it picks, against the reference.
func FuzzPositionAgreesWithNotnil(f *testing.F) {
	for i := range randomFENs {
		f.Add(uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, start uint8) {
		playAgreement(t, seed, randomFENs[int(start)%len(randomFENs)], 300, seed%2 == 0)
	})
}
