package maia1

import "fmt"

// PolicySize is the number of policy outputs of an lc0 network.
const PolicySize = 1858

// Square numbering: a1 = 0, b1 = 1, …, h8 = 63 (index = rank*8 + file).

// Queen-line directions in channel order: N, NE, E, SE, S, SW, W, NW.
var queenDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// Knight offsets (df, dr) in channel order 56..63.
var knightDirs = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}

// Promotion piece suffixes. PromoNone is a plain move (or a knight
// promotion, which lc0 writes bare).
const (
	PromoNone = iota
	PromoQueen
	PromoRook
	PromoBishop
	numPromos
)

var promoSuffix = [numPromos]string{"", "q", "r", "b"}

// policyTable holds the read-only move tables built at init.
type policyTable struct {
	names  [PolicySize]string // lc0 move strings, mover's view
	gather [PolicySize]int64  // index into the flattened 80x64 conv output
	// index maps (from*64+to)*numPromos+promo to a policy index, or -1.
	index [64 * 64 * numPromos]int16
}

var policy = buildPolicy()

func sqName(s int) string { return string(rune('a'+s%8)) + string(rune('1'+s/8)) }

// moveChannel returns the conv channel for a move from→to with promo, or -1.
func moveChannel(from, to, promo int) int {
	ff, fr, tf, tr := from%8, from/8, to%8, to/8
	df, dr := tf-ff, tr-fr
	if promo == PromoQueen || promo == PromoRook || promo == PromoBishop {
		if fr != 6 || tr != 7 || df < -1 || df > 1 {
			return -1
		}
		piece := map[int]int{PromoRook: 0, PromoBishop: 1, PromoQueen: 2}[promo]
		return 64 + (df+1)*3 + piece
	}
	for k, d := range knightDirs {
		if d[0] == df && d[1] == dr {
			return 56 + k
		}
	}
	for dir, d := range queenDirs {
		for dist := 1; dist <= 7; dist++ {
			if d[0]*dist == df && d[1]*dist == dr {
				return dir*7 + dist - 1
			}
		}
	}
	return -1
}

func buildPolicy() *policyTable {
	t := &policyTable{}
	for i := range t.index {
		t.index[i] = -1
	}
	n := 0
	add := func(from, to, promo int) {
		c := moveChannel(from, to, promo)
		if c < 0 {
			panic(fmt.Sprintf("maia1: no channel for %s%s", sqName(from), sqName(to)))
		}
		t.names[n] = sqName(from) + sqName(to) + promoSuffix[promo]
		t.gather[n] = int64(c*64 + from)
		t.index[(from*64+to)*numPromos+promo] = int16(n)
		n++
	}
	for from := 0; from < 64; from++ {
		for to := 0; to < 64; to++ {
			if to != from && moveChannel(from, to, PromoNone) >= 0 {
				add(from, to, PromoNone)
			}
		}
	}
	for from := 48; from < 56; from++ {
		for to := 56; to < 64; to++ {
			d := to%8 - from%8
			if d < -1 || d > 1 {
				continue
			}
			for _, p := range []int{PromoQueen, PromoRook, PromoBishop} {
				add(from, to, p)
			}
		}
	}
	if n != PolicySize {
		panic(fmt.Sprintf("maia1: built %d policy moves, want %d", n, PolicySize))
	}
	return t
}

// PolicyIndex returns the policy index of a move given in the mover's view
// (lc0 convention: castling as king-takes-rook, knight promotions with
// PromoNone), or -1 when the network has no such output.
func PolicyIndex(from, to, promo int) int {
	if from < 0 || from >= 64 || to < 0 || to >= 64 || promo < 0 || promo >= numPromos {
		return -1
	}
	return int(policy.index[(from*64+to)*numPromos+promo])
}

// PolicyMove returns the lc0 move string of policy index i ("e2e4", "a7a8q").
func PolicyMove(i int) string { return policy.names[i] }

// GatherIndices returns a copy of the 1858 indices into the flattened
// [80*64] convolutional policy output (channel*64 + from-square).
func GatherIndices() []int64 {
	out := make([]int64, PolicySize)
	copy(out, policy.gather[:])
	return out
}
