package board

import "math/bits"

// Bitboard is a set of squares, bit i = square i.
type Bitboard = uint64

// File and rank masks used by the generators and the evaluation.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

// Read-only attack tables, built once at package init.
var (
	knightAtt [64]Bitboard
	kingAtt   [64]Bitboard
	pawnAtt   [2][64]Bitboard
	between   [64][64]Bitboard // squares strictly between two aligned squares
	lineThru  [64][64]Bitboard // the whole line through two aligned squares
	rookMagic [64]magic
	bishMagic [64]magic
)

type magic struct {
	mask   Bitboard
	num    uint64
	shift  uint8
	attack []Bitboard
}

func (m *magic) index(occ Bitboard) uint64 { return ((occ & m.mask) * m.num) >> m.shift }

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAtt[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAtt[s] }

// RookAttacks returns the squares a rook on s attacks given occupancy occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagic[s]
	return m.attack[m.index(occ)]
}

// BishopAttacks returns the squares a bishop on s attacks given occupancy occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishMagic[s]
	return m.attack[m.index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks given occupancy occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// PopLSB removes and returns the lowest set square of *b.
func PopLSB(b *Bitboard) Square {
	s := Square(bits.TrailingZeros64(*b))
	*b &= *b - 1
	return s
}

// LSB returns the lowest set square of b (b must be non-zero).
func LSB(b Bitboard) Square { return Square(bits.TrailingZeros64(b)) }

// Count returns the number of squares in b.
func Count(b Bitboard) int { return bits.OnesCount64(b) }

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slide computes sliding attacks the slow way; used only to build tables.
func slide(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			b := Bitboard(1) << (r*8 + f)
			att |= b
			if occ&b != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

// relevantMask is the slider's ray squares excluding the board edge beyond
// which occupancy cannot matter.
func relevantMask(s Square, dirs [4][2]int) Bitboard {
	var m Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f+d[0] >= 0 && f+d[0] < 8 && r+d[1] >= 0 && r+d[1] < 8 {
			m |= Bitboard(1) << (r*8 + f)
			f, r = f+d[0], r+d[1]
		}
	}
	return m
}

// xorshift is the deterministic generator of the Zobrist keys (and of the
// candidate numbers when magics are searched for, in tests).
type xorshift struct{ s uint64 }

func (x *xorshift) next() uint64 {
	x.s ^= x.s >> 12
	x.s ^= x.s << 25
	x.s ^= x.s >> 27
	return x.s * 2685821657736338717
}

// magicBits returns how many table-index bits a slider on s needs: the
// number of squares in its relevant mask.
func magicBits(s Square, dirs [4][2]int) int { return Count(relevantMask(s, dirs)) }

// newMagic builds the attack table of a slider on s for the multiplier num,
// storing it in table (which must hold 1<<magicBits entries). Every subset
// of the relevant mask is enumerated (carry-rippler) and its attack set
// written at its index; ok is false when two subsets with different attack
// sets collide, i.e. when num is not a magic for s.
func newMagic(s Square, dirs [4][2]int, num uint64, table []Bitboard) (m magic, ok bool) {
	mask := relevantMask(s, dirs)
	m = magic{mask: mask, num: num, shift: uint8(64 - Count(mask)), attack: table}
	clear(table)
	sub := Bitboard(0)
	for {
		att := slide(s, sub, dirs)
		idx := m.index(sub)
		if table[idx] != 0 && table[idx] != att {
			return m, false
		}
		// Every attack set is non-empty, so 0 marks a free slot.
		table[idx] = att
		sub = (sub - mask) & mask
		if sub == 0 {
			return m, true
		}
	}
}

func init() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if nf, nr := f+d[0], r+d[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				knightAtt[s] |= 1 << (nr*8 + nf)
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if nf, nr := f+df, r+dr; (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
					kingAtt[s] |= 1 << (nr*8 + nf)
				}
			}
		}
		for _, df := range [2]int{-1, 1} {
			if nf := f + df; nf >= 0 && nf < 8 {
				if r < 7 {
					pawnAtt[White][s] |= 1 << ((r+1)*8 + nf)
				}
				if r > 0 {
					pawnAtt[Black][s] |= 1 << ((r-1)*8 + nf)
				}
			}
		}
	}
	// The magics are fixed (magics.go): searching for them at start-up
	// cost about 0.6 s of CPU in every process. One backing array holds
	// all the tables.
	size := 0
	for s := Square(0); s < 64; s++ {
		size += 1<<magicBits(s, rookDirs) + 1<<magicBits(s, bishopDirs)
	}
	tables := make([]Bitboard, size)
	for s := Square(0); s < 64; s++ {
		n := 1 << magicBits(s, rookDirs)
		rookMagic[s], _ = newMagic(s, rookDirs, rookMagicNumbers[s], tables[:n:n])
		tables = tables[n:]
		n = 1 << magicBits(s, bishopDirs)
		bishMagic[s], _ = newMagic(s, bishopDirs, bishopMagicNumbers[s], tables[:n:n])
		tables = tables[n:]
	}
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			ab := Bitboard(1)<<a | Bitboard(1)<<b
			for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
				if slide(a, 0, dirs)&(1<<b) != 0 {
					between[a][b] = slide(a, ab, dirs) & slide(b, ab, dirs)
					lineThru[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | ab
				}
			}
		}
	}
}
