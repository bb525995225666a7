package board

import (
	"strings"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/8/8/8/K6k b - - 99 120",
	} {
		b := mustFEN(t, fen)
		if got := b.FEN(); got != fen {
			t.Errorf("FEN round trip: got %q want %q", got, fen)
		}
		if b.Hash() != b.computeHash() {
			t.Errorf("%s: hash mismatch", fen)
		}
	}
}

func TestFENNormalises(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}, // no pawn can take on e3
		{"4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},                                                       // rights without rooks
		{"4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},                                                                // clocks omitted
	} {
		if got := mustFEN(t, c.in).FEN(); got != c.want {
			t.Errorf("FromFEN(%q).FEN() = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFENErrors(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"", "fields"},
		{"8/8/8/8/8/8/8/8 w - - 0 1 extra", "fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"},
		{"rnbqkbnr/pppppppp/54/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 9 squares"},
		{"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "invalid character 'X'"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "white has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling character"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on rank 6"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "half-move"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "full-move"},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8"},
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "in check"},
	} {
		_, err := FromFEN(c.fen)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromFEN(%q) error = %v, want one containing %q", c.fen, err, c.want)
		}
	}
}

func TestParseUCI(t *testing.T) {
	b := mustFEN(t, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, s := range []string{"e1g1", "e1c1", "b7b8q", "b7a8n", "a1a8"} {
		m, err := b.ParseUCI(s)
		if err != nil {
			t.Fatalf("ParseUCI(%q): %v", s, err)
		}
		if m.String() != s {
			t.Errorf("ParseUCI(%q).String() = %q", s, m.String())
		}
	}
	for _, s := range []string{"", "e1", "e1g1x", "i1g1", "b7b8k", "b7b8", "e1e3"} {
		if _, err := b.ParseUCI(s); err == nil {
			t.Errorf("ParseUCI(%q) accepted", s)
		}
	}
}

// FuzzFromFEN checks that the parser never panics and that whatever it
// accepts round-trips through FEN and supports move generation and perft.
func FuzzFromFEN(f *testing.F) {
	for _, c := range perftCases {
		f.Add(c.fen)
	}
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		b, err := FromFEN(fen)
		if err != nil {
			return
		}
		out := b.FEN()
		b2, err := FromFEN(out)
		if err != nil {
			t.Fatalf("own output %q rejected: %v", out, err)
		}
		if b2.FEN() != out || b2.Hash() != b.Hash() {
			t.Fatalf("round trip of %q changed it: %q", out, b2.FEN())
		}
		before := b.Hash()
		b.Perft(2)
		if b.Hash() != before || b.FEN() != out {
			t.Fatalf("perft changed the board %q", out)
		}
	})
}

// FuzzParseUCI checks that move parsing never panics, that what it accepts
// is a legal move that prints back as given (lower-case promotion), and
// that playing it keeps the board consistent.
func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e1g1", "e7e8q", "a7b8N", "0000", "e2e9", "zzzz", "e2e4e", "e1h1", "f1h1", "f1g1"} {
		f.Add(s)
	}
	boards := []*Board{New(), mustFEN(f, perftCases[1].fen), mustFEN(f, perftCases[7].fen),
		mustFEN960(f, "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"), mustFEN960(f, "4k3/8/8/8/8/8/8/R4KR1 w AG - 0 1")}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range boards {
			m, err := b.ParseUCI(s)
			if err != nil {
				continue
			}
			if !strings.EqualFold(m.String(), s) && !m.IsCastle() {
				t.Fatalf("ParseUCI(%q) = %s", s, m)
			}
			h := b.Hash()
			b.Make(m)
			if b.Hash() != b.computeHash() {
				t.Fatalf("hash drift after %s", m)
			}
			b.Unmake()
			if b.Hash() != h {
				t.Fatalf("unmake of %s", m)
			}
		}
	})
}
