package online

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/syzygy"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

// syzygyProber answers the sandbox's tablebase from local Syzygy tables
// (root WDL and DTZ with the 50-move rule applied; no DTM, as Lichess for
// 7 pieces).
type syzygyProber struct{ t *syzygy.Tables }

func (p syzygyProber) Probe(_ context.Context, b *board.Board) (sandbox.TablebaseProbe, error) {
	r, err := p.t.ProbeRoot(b)
	if errors.Is(err, syzygy.ErrNotCovered) {
		return sandbox.TablebaseProbe{}, sandbox.ErrTablebaseUnknown
	}
	if err != nil {
		return sandbox.TablebaseProbe{}, err
	}
	dtz := r.DTZ
	return sandbox.TablebaseProbe{WDL: int(r.WDL), DTZ: &dtz}, nil
}

// TestTablebaseSyzygySandboxPlaysOut: with the sandbox's tablebase backed
// by the 3–4-piece Syzygy tables of ../shared, the tablebase source plays
// both sides of won endings (the winner by shortest DTZ, the loser by
// longest) and the winner mates within the 50-move rule, every move legal.
func TestTablebaseSyzygySandboxPlaysOut(t *testing.T) {
	testkit.AwaitSetup(t, testkit.SetupDebian) // libfathom1
	tables, err := syzygy.Open([]string{filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy")})
	if err != nil {
		t.Fatalf("opening the shared tables (run `make setup` for libfathom1): %v", err)
	}
	defer tables.Close()
	_, u := listen(t, sandbox.Config{Tablebase: syzygyProber{tables}})
	ctx := t.Context()
	svc, err := lichess.NewService(lichess.ServiceOptions{BaseURL: u})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewTablebase(svc, TablebaseOptions{MaxPieces: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range []string{
		"8/8/8/4k3/8/8/8/K6R w - - 0 1",   // KRK
		"8/8/8/3k4/8/8/8/KQ6 w - - 0 1",   // KQK
		"k6r/8/8/8/3K4/8/8/8 b - - 0 1",   // KRK, Black wins
		"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", // KPK, White wins (promotes, then KQK)
	} {
		t.Run(fen, func(t *testing.T) {
			pos := engine.Position{StartFEN: fen}
			b, err := board.FromFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			winner := b.SideToMove()
			for ply := 0; ; ply++ {
				if b.IsCheckmate() {
					if b.SideToMove() == winner {
						t.Fatalf("the winning side got mated after %v", pos.Moves)
					}
					t.Logf("mate in %d plies: %v", ply, pos.Moves)
					return
				}
				if ply > 200 || b.Status() != board.Ongoing {
					t.Fatalf("no mate: %v after %v", b.Status(), pos.Moves)
				}
				mv, err := src.Move(ctx, pos, engine.Limits{})
				if err != nil {
					t.Fatalf("ply %d (%s): %v", ply, b.FEN(), err)
				}
				if err := b.MakeUCI(mv.UCI); err != nil {
					t.Fatalf("ply %d: %v", ply, err)
				}
				pos.Moves = append(pos.Moves, mv.UCI)
			}
		})
	}
}
