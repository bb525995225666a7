package board

import "testing"

// TestMagicNumbers checks every fixed magic exhaustively: for each square
// and every occupancy of its relevant squares (with random pieces beyond
// them too), the table lookup must equal the slowly computed attack set.
func TestMagicNumbers(t *testing.T) {
	rng := &xorshift{s: 0x1234_5678_9abc_def1}
	for _, tc := range []struct {
		name   string
		dirs   [4][2]int
		nums   *[64]uint64
		lookup func(Square, Bitboard) Bitboard
	}{
		{"rook", rookDirs, &rookMagicNumbers, RookAttacks},
		{"bishop", bishopDirs, &bishopMagicNumbers, BishopAttacks},
	} {
		for s := Square(0); s < 64; s++ {
			table := make([]Bitboard, 1<<magicBits(s, tc.dirs))
			if _, ok := newMagic(s, tc.dirs, tc.nums[s], table); !ok {
				t.Fatalf("%s magic for %s (%#x) has a destructive collision", tc.name, s, tc.nums[s])
			}
			mask := relevantMask(s, tc.dirs)
			sub := Bitboard(0)
			for {
				occ := sub | rng.next()&^mask&^(1<<s)
				if got, want := tc.lookup(s, occ), slide(s, occ, tc.dirs); got != want {
					t.Fatalf("%s on %s with occupancy %#x: got %#x, want %#x", tc.name, s, occ, got, want)
				}
				sub = (sub - mask) & mask
				if sub == 0 {
					break
				}
			}
		}
	}
}

// TestNewMagicRejectsNonMagic shows that the check above can fail: numbers
// that map different attack sets to one slot are refused.
func TestNewMagicRejectsNonMagic(t *testing.T) {
	for _, num := range []uint64{0, 1, ^uint64(0), rookMagicNumbers[9]} {
		table := make([]Bitboard, 1<<magicBits(0, rookDirs))
		if _, ok := newMagic(0, rookDirs, num, table); ok {
			t.Errorf("%#x accepted as a rook magic for a1", num)
		}
	}
	if _, ok := newMagic(0, rookDirs, bishopMagicNumbers[0], make([]Bitboard, 1<<magicBits(0, rookDirs))); ok {
		t.Error("the bishop magic of a1 accepted for the rook")
	}
}

// BenchmarkInitTables measures building the slider tables from the fixed
// magics, which every process does once at start-up.
func BenchmarkInitTables(b *testing.B) {
	for b.Loop() {
		for s := Square(0); s < 64; s++ {
			table := make([]Bitboard, 1<<magicBits(s, rookDirs))
			newMagic(s, rookDirs, rookMagicNumbers[s], table)
			table = make([]Bitboard, 1<<magicBits(s, bishopDirs))
			newMagic(s, bishopDirs, bishopMagicNumbers[s], table)
		}
	}
}
