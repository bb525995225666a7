// Package maia2 implements the input and output conventions of Maia-2 ONNX
// models: the 18-plane board (mirrored so that White is to move), the
// 1880-move vocabulary, Elo categories and the value → win probability map.
package maia2

import (
	"fmt"
	"math"

	"github.com/outpostchess/outpost/models/game"
)

// Sizes of the Maia-2 interface.
const (
	Planes    = 18
	InputSize = Planes * 64 // floats per position
	VocabSize = 1880
	// EloCategories is the number of Elo categories (0..10).
	EloCategories = 11
)

// Default tensor names of a Maia-2 export (inputs may also be named
// elos_self/elos_oppo; the model is asked for its real names).
const (
	BoardsName = "boards"
	PolicyName = "logits_maia"
	ValueName  = "logits_value"
	SideName   = "logits_side_info"
)

var promoLetters = [4]byte{'q', 'r', 'b', 'n'}

// vocabulary is the read-only move table built at init.
type vocabulary struct {
	moves [VocabSize]string
	index map[string]int
}

var vocab = buildVocab()

func sq(f, r int) string { return string(rune('a'+f)) + string(rune('1'+r)) }

func buildVocab() *vocabulary {
	v := &vocabulary{index: make(map[string]int, VocabSize)}
	n := 0
	add := func(m string) {
		v.moves[n] = m
		v.index[m] = n
		n++
	}
	for from := 0; from < 64; from++ {
		ff, fr := from%8, from/8
		for to := 63; to >= 0; to-- {
			df, dr := to%8-ff, to/8-fr
			if to != from && (df == 0 || dr == 0 || df == dr || df == -dr) {
				add(sq(ff, fr) + sq(to%8, to/8))
			}
		}
		for to := 63; to >= 0; to-- {
			df, dr := to%8-ff, to/8-fr
			if df*df+dr*dr == 5 {
				add(sq(ff, fr) + sq(to%8, to/8))
			}
		}
	}
	for f := 0; f < 8; f++ {
		for _, df := range []int{0, -1, 1} {
			t := f + df
			if t < 0 || t > 7 {
				continue
			}
			for _, p := range promoLetters {
				add(sq(f, 6) + sq(t, 7) + string(p))
			}
		}
	}
	if n != VocabSize {
		panic(fmt.Sprintf("maia2: vocabulary has %d moves, want %d", n, VocabSize))
	}
	return v
}

// Move returns vocabulary entry i.
func Move(i int) string { return vocab.moves[i] }

// Index returns the vocabulary index of a move in the mirrored (White to
// move) frame, or -1.
func Index(m string) int {
	if i, ok := vocab.index[m]; ok {
		return i
	}
	return -1
}

// EloCategory maps a rating to Maia-2's category: 0 below 1100, 1..9 for
// 1100-1199 … 1900-1999, 10 from 2000.
func EloCategory(rating int) int64 {
	switch {
	case rating < 1100:
		return 0
	case rating >= 2000:
		return 10
	default:
		return int64((rating-1100)/100 + 1)
	}
}

// WinProb maps the value output to the side to move's win probability:
// clamp(v/2 + 0.5, 0, 1).
func WinProb(v float32) float64 {
	p := float64(v)/2 + 0.5
	if math.IsNaN(p) {
		return 0.5
	}
	return math.Min(1, math.Max(0, p))
}

// mirrorSq flips a square's rank (a1 ↔ a8).
func mirrorSq(s int) int { return s ^ 56 }

// Encode writes g's final position into dst (InputSize floats, layout
// [channel][rank][file]). When Black is to move the position is mirrored
// first: ranks flipped, colours, castling rights and en passant swapped.
func Encode(g *game.Game, dst []float32) error {
	if len(dst) != InputSize {
		return fmt.Errorf("maia2: encode buffer has %d floats, want %d", len(dst), InputSize)
	}
	clear(dst)
	cur := g.Current()
	mirror := !cur.WhiteToMove
	for s, p := range cur.Board {
		if p == game.Empty {
			continue
		}
		white, at := p.White(), s
		if mirror {
			white, at = !white, mirrorSq(s)
		}
		ch := p.Kind()
		if !white {
			ch += 6
		}
		dst[ch*64+at] = 1
	}
	fill(dst, 12, 1) // White to move (always, after mirroring)
	c := cur.Castle
	if mirror {
		c = [4]bool{c[game.BlackKingside], c[game.BlackQueenside], c[game.WhiteKingside], c[game.WhiteQueenside]}
	}
	rights := [4]bool{c[game.WhiteKingside], c[game.WhiteQueenside], c[game.BlackKingside], c[game.BlackQueenside]}
	for i, ok := range rights {
		if ok {
			fill(dst, 13+i, 1)
		}
	}
	if cur.EPSquare >= 0 && g.EPCaptureLegal() {
		ep := cur.EPSquare
		if mirror {
			ep = mirrorSq(ep)
		}
		dst[17*64+ep] = 1
	}
	return nil
}

func fill(dst []float32, ch int, v float32) {
	for i := ch * 64; i < (ch+1)*64; i++ {
		dst[i] = v
	}
}

// MoveIndex returns the vocabulary index of a legal move of g's final
// position (as g.LegalMoves writes it), mirroring it when Black is to move.
func MoveIndex(g *game.Game, uci string) (int, error) {
	m := uci
	if _, kingTo, ok := g.Castling(uci); ok && len(m) == 4 {
		// Maia-2 writes castling as the king's move (e1g1), also for a
		// Chess960 game's king-takes-rook move.
		m = m[:2] + string(rune('a'+kingTo%8)) + string(rune('1'+kingTo/8))
	}
	if !g.Current().WhiteToMove {
		if len(m) < 4 {
			return -1, fmt.Errorf("maia2: bad move %q", uci)
		}
		b := []byte(m)
		b[1] = '1' + ('8' - b[1])
		b[3] = '1' + ('8' - b[3])
		m = string(b)
	}
	i := Index(m)
	if i < 0 {
		return -1, fmt.Errorf("maia2: move %q is not in the vocabulary", uci)
	}
	return i, nil
}

// Decode turns the 1880 policy logits of g's final position into the legal
// moves' probabilities (softmax over legal moves), best first.
func Decode(g *game.Game, logits []float32) ([]game.MoveProb, error) {
	if len(logits) != VocabSize {
		return nil, fmt.Errorf("maia2: %d policy logits, want %d", len(logits), VocabSize)
	}
	return game.SoftmaxLegal(g.LegalMoves(), logits, func(m string) (int, error) { return MoveIndex(g, m) })
}
