package main

import (
	"strings"
	"testing"
)

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestPerftCommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "perft", "--depth", "3")
	if code != 0 || lastLine(out) != "8902" {
		t.Fatalf("perft start depth 3: code %d, output %q", code, out)
	}
	code, out, _ = runCLI(t, "", "perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--depth", "2", "--divide")
	if code != 0 || lastLine(out) != "2039" || !strings.Contains(out, "e1g1: 43\n") {
		t.Fatalf("kiwipete divide: code %d, output %q", code, out)
	}
	// Chess960: X-FEN with --chess960, or Shredder-FEN alone; king takes rook.
	for _, args := range [][]string{
		{"--chess960", "--fen", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"},
		{"--fen", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"},
	} {
		// The counts of Stockfish 15.1's go perft 3 with UCI_Chess960.
		code, out, _ = runCLI(t, "", append([]string{"perft", "--depth", "3", "--divide"}, args...)...)
		if code != 0 || lastLine(out) != "15131" || !strings.Contains(out, "e1g1: 600\n") || !strings.Contains(out, "e1b1: 550\n") {
			t.Errorf("chess960 perft %v: code %d, output %q", args, code, out)
		}
	}
	if code, _, errOut := runCLI(t, "", "perft", "--depth", "0"); code != 2 || !strings.Contains(errOut, "--depth") {
		t.Errorf("depth 0: code %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "perft", "--depth", "2", "--fen", "8/8 w"); code != 1 || !strings.Contains(errOut, `"8/8 w"`) {
		t.Errorf("bad fen: code %d, stderr %q", code, errOut)
	}
}

func TestBenchCommands(t *testing.T) {
	code, out, errOut := runCLI(t, "", "bench", "perft", "--depth", "2", "--min-time", "10ms")
	if code != 0 || !strings.Contains(out, "perft(2) = 2039") || !strings.Contains(out, "ratio:") {
		t.Fatalf("bench perft: code %d, out %q, err %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "bench", "--movetime", "20ms", "--stockfish", "", "--hash", "1")
	if code != 0 || !strings.Contains(out, "hard:") || strings.Contains(out, "stockfish") {
		t.Fatalf("bench hard only: code %d, out %q, err %q", code, out, errOut)
	}
}
