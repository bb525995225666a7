package board

import (
	"fmt"
	"strings"
)

// Chess960FEN returns the FEN of Chess960 start position n (0-959) in the
// standard numbering, where 518 is the standard start position. Castling
// rights are written KQkq (X-FEN: both rooks are outermost).
func Chess960FEN(n int) (string, error) {
	if n < 0 || n > 959 {
		return "", fmt.Errorf("chess960 position %d: want 0 to 959", n)
	}
	var rank [8]byte
	free := func(k int) int { // file of the k-th empty square
		for f := 0; f < 8; f++ {
			if rank[f] == 0 {
				if k == 0 {
					return f
				}
				k--
			}
		}
		return -1 // unreachable: callers ask for an existing square
	}
	rank[2*(n%4)+1] = 'B' // light-squared bishop: b, d, f or h
	n /= 4
	rank[2*(n%4)] = 'B' // dark-squared bishop: a, c, e or g
	n /= 4
	rank[free(n%6)] = 'Q'
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	a, c := free(knights[0]), free(knights[1])
	rank[a], rank[c] = 'N', 'N'
	rank[free(0)] = 'R'
	rank[free(0)] = 'K'
	rank[free(0)] = 'R'
	white := string(rank[:])
	black := strings.ToLower(white)
	return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1", nil
}

// Chess960Number returns the number (0-959) of the Chess960 start position
// fen sets up, comparing piece placement only, and false when fen's
// placement is not a Chess960 start position.
func Chess960Number(fen string) (int, bool) {
	placement, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	for n := 0; n < 960; n++ {
		start, err := Chess960FEN(n)
		if err != nil {
			return 0, false // unreachable: n is in range
		}
		if p, _, _ := strings.Cut(start, " "); p == placement {
			return n, true
		}
	}
	return 0, false
}
