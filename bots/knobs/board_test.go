package knobs

import (
	"math/rand/v2"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// TestMailboxTracksBoard plays seeded random games (castling, en passant
// and promotions included, standard and Chess960) and checks after every
// move that the mailbox equals the board, that the attack map agrees with
// the board about check, and that the quick mobility test never claims a
// move in a position without one.
func TestMailboxTracksBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var castles, eps, promos int
	p := newParams(Defaults())
	for game := 0; game < 40; game++ {
		pos := board.New()
		if game%2 == 1 {
			fen, err := board.Chess960FEN(rng.IntN(960))
			if err != nil {
				t.Fatal(err)
			}
			if pos, err = board.FromFEN960(fen); err != nil {
				t.Fatal(err)
			}
		}
		mb := mailboxOf(pos)
		for ply := 0; ply < 200; ply++ {
			moves := pos.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			// Prefer the rare move kinds so that they are exercised.
			for _, c := range moves {
				if c.IsEnPassant() || c.IsCastle() || c.IsPromotion() {
					m = c
					break
				}
			}
			switch {
			case m.IsEnPassant():
				eps++
			case m.IsCastle():
				castles++
			case m.IsPromotion():
				promos++
			}
			before := mb
			pos.Make(m)
			captured, _ := mb.play(m, pos)
			if m.IsCapture() && captured == 0 || !m.IsCapture() && captured != 0 {
				t.Fatalf("game %d ply %d: %s captured %d", game, ply, m, captured)
			}
			if want := mailboxOf(pos); mb != want || mb == before {
				t.Fatalf("game %d ply %d after %s: mailbox diverged in %s", game, ply, m, pos.FEN())
			}
			f := p.measure(&mb)
			stm := colorIndex(pos.SideToMove())
			if f[stm].inCheck != pos.InCheck() {
				t.Fatalf("in check %v after %s in %s", f[stm].inCheck, m, pos.FEN())
			}
			if !f[stm].inCheck && hasMoveQuick(&mb, &f, stm) && !pos.HasLegalMoves() {
				t.Fatalf("hasMoveQuick true in stalemate %s", pos.FEN())
			}
		}
	}
	if castles == 0 || eps == 0 || promos == 0 {
		t.Errorf("special moves not exercised: castles %d en passant %d promotions %d", castles, eps, promos)
	}
}

func TestRepetitionKey(t *testing.T) {
	key := func(fen string) repKey {
		p := newParams(Defaults())
		g, err := parsePosition(p, engineFEN(fen))
		if err != nil {
			t.Fatal(err)
		}
		return keyOf(&g.root.mb, g.root.pos)
	}
	base := key("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1")
	if key("4k3/8/8/8/4p3/8/3P4/4K3 w - - 5 30") != base {
		t.Error("move counters change the key")
	}
	if key("4k3/8/8/8/4p3/8/3P4/4K3 b - - 0 1") == base {
		t.Error("side to move ignored")
	}
	if key("r3k3/8/8/8/8/8/8/4K3 w q - 0 1") == key("r3k3/8/8/8/8/8/8/4K3 w - - 0 1") {
		t.Error("castling rights ignored")
	}
	// An en-passant square counts only when a pawn can take.
	if key("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1") == key("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1") {
		t.Error("usable en-passant square ignored")
	}
	if key("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1") != key("4k3/8/8/8/3P4/8/8/4K3 b - - 0 1") {
		t.Error("unusable en-passant square changes the key")
	}
}

func TestHasMoveQuickStalemates(t *testing.T) {
	for _, fen := range []string{
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",     // classic queen stalemate
		"k7/P7/K7/8/8/8/8/8 b - - 0 1",       // king and pawn
		"k7/8/1Q6/8/8/8/8/7K b - - 0 1",      // queen covers everything
		"7k/7P/6K1/8/8/8/8/b7 b - - 0 1",     // pinned-looking bishop is free: not stalemate
		"5bnk/5PpP/6P1/8/8/8/8/K7 b - - 0 1", // blocked pieces
	} {
		p := newParams(Defaults())
		g, err := parsePosition(p, engineFEN(fen))
		if err != nil {
			t.Fatal(err)
		}
		stm := colorIndex(g.root.pos.SideToMove())
		quick := hasMoveQuick(&g.root.mb, &g.root.feat, stm)
		legal := g.root.pos.HasLegalMoves()
		if quick && !legal {
			t.Errorf("%s: quick test claims a move in a stalemate", fen)
		}
	}
}
