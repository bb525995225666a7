package input

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis/pgn"
)

// endless never ends, like /dev/zero or a stuck pipe.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// Regression (issue 18): endless inputs on stdin were read into memory
// until the process died; each must end with an error naming the limit.
func TestFileGamesBoundsEveryInput(t *testing.T) {
	tests := []struct {
		name  string
		stdin io.Reader
		want  string
	}{
		{"zeros", endless{0}, "per-game limit of 16 MiB"},
		{"endless PGN comment", io.MultiReader(strings.NewReader("[Event \"x\"]\n1. e4 {"), endless{'c'}), "game 1 (from line 1) is larger than the per-game limit of 16 MiB"},
		{"endless JSON string", io.MultiReader(strings.NewReader(`{"id":"`), endless{'a'}), "JSON game 1 is larger than the per-game limit of 16 MiB"},
		{"endless JSON array", io.MultiReader(strings.NewReader(`[{"id":"`), endless{'a'}), "JSON game 1 is larger than the per-game limit of 16 MiB"},
		{"endless JSON whitespace", io.MultiReader(strings.NewReader(`{`), endless{' '}), "per-game limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := File{Path: "-", Stdin: tt.stdin}.Games(context.Background())
			var le *pgn.LimitError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want a limit error containing %q", err, tt.want)
			}
		})
	}
}

func TestFileGamesReadsJSONArrayAndNDJSONFromStdin(t *testing.T) {
	one := `{"id":"abcdefgh","variant":"standard","status":"mate","winner":"white","moves":"f3 e5 g4 Qh4#"}`
	for _, in := range []string{"  [" + one + ",\n" + one + "]", one + "\n" + one + "\n", "[]"} {
		games, errs, err := File{Path: "-", Stdin: strings.NewReader(in)}.Games(context.Background())
		want := 2
		if in == "[]" {
			want = 0
		}
		if err != nil || len(errs) != 0 || len(games) != want {
			t.Errorf("%.20q: %d games, errs %v, err %v", in, len(games), errs, err)
		}
	}
}

// Regression (issue 18): illegal set-up positions were replayed and sent
// to Stockfish, which crashed; the position check refuses them by name.
func TestIllegalSetUpPositionsRefused(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"PGN castling without a rook", "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1\"]\n\n1. O-O *\n", "castling right 'K': no white rook on h1"},
		{"PGN side not to move in check", "[FEN \"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1\"]\n\n1. Rxe8 *\n", "the side not to move (black) is in check"},
		{"PGN pawn on the back rank", "[FEN \"P3k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n", "pawn on rank 8"},
		{"JSON side not to move in check", `{"id":"abcdefgh","variant":"fromPosition","initialFen":"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1","moves":"Rxe8"}`, "is in check"},
		{"JSON impossible en passant", `{"id":"abcdefgh","variant":"fromPosition","initialFen":"4k3/8/8/8/8/8/8/4K3 b - e3 0 1","moves":"Kd7"}`, "no white pawn on e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, errs, err := File{Path: "-", Stdin: strings.NewReader(tt.in)}.Games(context.Background())
			if err != nil || len(games) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("games %d, errs %v, err %v; want one error containing %q", len(games), errs, err, tt.want)
			}
		})
	}
}
