package sandbox

import (
	"net/url"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// TestChallengeFENAsLila: a challenge's fen is accepted as lila accepts it
// (scalachess Variant.isValidInitialFen, non-strict: any material), the
// challenge keeps the fen as sent (lila Challenge.make) and the game
// starts from it as lila reads it, its gameFull initialFen the FEN lila
// writes for the game (GameRepo.insertDenormalized: scalachess Fen.write):
// castling rights without their rook and an impossible en passant square
// gone.
func TestChallengeFENAsLila(t *testing.T) {
	const startFour = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
	tests := []struct {
		name, fen, variant string
		rated              bool
		wantVariant        string // the challenge's
		wantChallengeFEN   string // the challenge's initialFen ("" for none)
		wantGameVariant    string
		wantGameFEN        string // gameFull's initialFen
	}{
		{"castling rights without rooks", "r3k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "", false,
			"fromPosition", "r3k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "fromPosition", "r3k3/8/8/8/8/8/8/4K3 w q - 0 1"},
		{"en passant without its pawn", "4k3/8/8/8/8/8/8/R3K3 b - e3 0 1", "", false,
			"fromPosition", "4k3/8/8/8/8/8/8/R3K3 b - e3 0 1", "fromPosition", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"},
		{"ten pawns", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", "", false,
			"fromPosition", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1", "fromPosition", "4k3/8/8/8/8/PP6/PPPPPPPP/4K3 w - - 0 1"},
		{"seventeen pieces", "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", "", false,
			"fromPosition", "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", "fromPosition", "4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1"},
		{"three queens and every pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1", "", false,
			"fromPosition", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1", "fromPosition", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQQKQNR w KQkq - 0 1"},
		{"a half-move clock of 100", "8/8/8/8/8/8/1p6/K6k w - - 100 80", "", false,
			"fromPosition", "8/8/8/8/8/8/1p6/K6k w - - 100 80", "fromPosition", "8/8/8/8/8/8/1p6/K6k w - - 100 80"},
		{"placement only", "r3k3/8/8/8/8/8/8/4K3", "", false,
			"fromPosition", "r3k3/8/8/8/8/8/8/4K3", "fromPosition", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"a full-move number truncated", "r3k3/8/8/8/8/8/8/4K3 w q - 3 160", "", false,
			"fromPosition", "r3k3/8/8/8/8/8/8/4K3 w q - 3 60", "fromPosition", "r3k3/8/8/8/8/8/8/4K3 w q - 3 60"},
		{"the start, standard", board.StartFEN, "", true,
			"standard", "", "standard", "startpos"},
		{"the start, fromPosition", board.StartFEN, "fromPosition", false,
			"fromPosition", board.StartFEN, "standard", "startpos"},
		{"the start in four fields", startFour, "", false,
			"fromPosition", startFour + " 0 1", "standard", "startpos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			form := url.Values{"days": {"1"}, "fen": {tt.fen}, "color": {"white"}}
			if tt.variant != "" {
				form.Set("variant", tt.variant)
			}
			if tt.rated {
				form.Set("rated", "true")
			}
			code, c := e.post(tokAlice, "/api/challenge/bot1", form)
			if code != 200 {
				t.Fatalf("challenge: %d %v", code, c)
			}
			if v, _ := c["variant"].(map[string]any); v["key"] != tt.wantVariant || c["initialFen"] != nilIfEmpty(tt.wantChallengeFEN) {
				t.Errorf("challenge variant %v initialFen %v, want %s %q", c["variant"], c["initialFen"], tt.wantVariant, tt.wantChallengeFEN)
			}
			id := c["id"].(string)
			e.mustOK(tokBot1, "/api/challenge/"+id+"/accept", nil)
			gs := e.open(tokBot1, "/api/bot/game/stream/"+id)
			full := gs.nextType("gameFull")
			gs.close()
			if v, _ := full["variant"].(map[string]any); v["key"] != tt.wantGameVariant || full["initialFen"] != tt.wantGameFEN {
				t.Errorf("gameFull variant %v initialFen %v, want %s %q", full["variant"], full["initialFen"], tt.wantGameVariant, tt.wantGameFEN)
			}
		})
	}
}

// nilIfEmpty is s as a decoded JSON value, nil (field left out) for "".
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestChallengeCastlingWithAnInnerRook: a right lila keeps with its rook
// off the corner (FenReader.read: K is the outermost rook on the king's
// side) is played: the king castles with the g1 rook, the move written
// king takes rook as lila writes every fromPosition castling (scalachess
// UciDump.move).
func TestChallengeCastlingWithAnInnerRook(t *testing.T) {
	e := newEnv(t, Config{})
	const fen = "r3k3/8/8/8/8/8/8/4K1R1 w Kq - 0 1"
	id, gs, full := e.botGame(url.Values{"days": {"1"}, "fen": {fen}, "color": {"white"}})
	gs.close()
	if full["initialFen"] != fen {
		t.Fatalf("gameFull initialFen %v, want %s", full["initialFen"], fen)
	}
	e.play(id, "e1g1")
	g := e.snapshot(id)
	if len(g.Moves) != 1 || g.Moves[0] != "e1g1" || g.SAN[0] != "O-O" || g.FEN != "r3k3/8/8/8/8/8/8/5RK1 b q - 1 1" {
		t.Errorf("after castling: moves %v SAN %v FEN %s", g.Moves, g.SAN, g.FEN)
	}
}
