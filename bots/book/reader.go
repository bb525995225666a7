package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/edsrzf/mmap-go"

	"github.com/outpostchess/outpost/bots/board"
)

// EntrySize is the size of one Polyglot entry in bytes.
const EntrySize = 16

// Entry is one raw book entry.
type Entry struct {
	Key    uint64
	Move   uint16 // Polyglot encoding: see DecodeMove
	Weight uint16
	Learn  uint32
}

// Book is a Polyglot book held in memory (mapped from its file by Open, or
// given as bytes to Parse). It is safe for concurrent use.
type Book struct {
	name string
	data []byte
	mm   mmap.MMap // nil for a book from Parse
}

// Open maps the Polyglot book at path into memory and checks it (size a
// multiple of 16 bytes, entries sorted by key). Close releases it.
func Open(path string) (*Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("book: open %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("book: stat %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("book: %s is not a regular file", path)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("book: %s is empty: not a Polyglot book", path)
	}
	if err := checkSize(path, st.Size()); err != nil {
		return nil, err
	}
	mm, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("book: map %s: %w", path, err)
	}
	b := &Book{name: path, data: mm, mm: mm}
	if err := b.checkSorted(); err != nil {
		return nil, errors.Join(err, mm.Unmap())
	}
	return b, nil
}

// Parse checks data as a Polyglot book named name (for errors) and returns
// it. The book keeps data: the caller must not change it afterwards.
func Parse(name string, data []byte) (*Book, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("book: %s is empty: not a Polyglot book", name)
	}
	if err := checkSize(name, int64(len(data))); err != nil {
		return nil, err
	}
	b := &Book{name: name, data: data}
	if err := b.checkSorted(); err != nil {
		return nil, err
	}
	return b, nil
}

// checkSize rejects a file whose size is not a whole number of entries.
func checkSize(name string, size int64) error {
	if size%EntrySize != 0 {
		return fmt.Errorf("book: %s: size %d bytes is not a multiple of %d: not a Polyglot book (or truncated)", name, size, EntrySize)
	}
	return nil
}

// checkSorted rejects a book whose keys are not in ascending order: binary
// search would miss positions in it.
func (b *Book) checkSorted() error {
	var prev uint64
	for i := range b.Len() {
		k := binary.BigEndian.Uint64(b.data[i*EntrySize:])
		if i > 0 && k < prev {
			return fmt.Errorf("book: %s: entry %d (key %016x) is below entry %d (key %016x): entries not sorted by key, not a Polyglot book", b.name, i, k, i-1, prev)
		}
		prev = k
	}
	return nil
}

// Name returns the book's file name (or the name given to Parse).
func (b *Book) Name() string { return b.name }

// Len returns the number of entries.
func (b *Book) Len() int { return len(b.data) / EntrySize }

// Close unmaps a book from Open; it is a no-op for a parsed one.
func (b *Book) Close() error {
	if b.mm == nil {
		return nil
	}
	mm := b.mm
	b.mm, b.data = nil, nil
	if err := mm.Unmap(); err != nil {
		return fmt.Errorf("book: unmap %s: %w", b.name, err)
	}
	return nil
}

// entry decodes entry i.
func (b *Book) entry(i int) Entry {
	d := b.data[i*EntrySize : (i+1)*EntrySize]
	return Entry{
		Key:    binary.BigEndian.Uint64(d[0:8]),
		Move:   binary.BigEndian.Uint16(d[8:10]),
		Weight: binary.BigEndian.Uint16(d[10:12]),
		Learn:  binary.BigEndian.Uint32(d[12:16]),
	}
}

// Entries returns the entries stored under key, in file order.
func (b *Book) Entries(key uint64) []Entry {
	n := b.Len()
	i := sort.Search(n, func(i int) bool { return binary.BigEndian.Uint64(b.data[i*EntrySize:]) >= key })
	var out []Entry
	for ; i < n; i++ {
		e := b.entry(i)
		if e.Key != key {
			break
		}
		out = append(out, e)
	}
	return out
}

// Candidate is a legal book move of a position.
type Candidate struct {
	UCI    string // in the board's UCI (castling e1g1 in standard chess, e1h1 in Chess960)
	Weight uint16
	Learn  uint32
}

// Moves returns the legal book moves of the position, in file order. Entries
// whose move is not legal there (a corrupt book, or a key collision) are
// left out and reported in skipped, each naming the book, the move and the
// position. err is ErrUnhashable for a position the format cannot key.
func (b *Book) Moves(pos *board.Board) (moves []Candidate, skipped []error, err error) {
	key, err := Key(pos)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range b.Entries(key) {
		uci, err := DecodeMove(e.Move)
		if err == nil {
			var m board.Move
			if m, err = pos.ParseUCI(uci); err == nil {
				moves = append(moves, Candidate{UCI: m.String(), Weight: e.Weight, Learn: e.Learn})
				continue
			}
		}
		skipped = append(skipped, fmt.Errorf("book: %s: key %016x: move %04x skipped: %w", b.name, key, e.Move, err))
	}
	return moves, skipped, nil
}

// EncodeMove returns a move written in UCI squares (e2e4, e7e8q; castling
// as king takes rook, e1h1, as books store it) in Polyglot's encoding: to
// file in bits 0–2, to rank 3–5, from file 6–8, from rank 9–11, promotion
// (1 knight to 4 queen) 12–14. It checks the squares and the promotion
// piece only, so that a book writer (or a test of a bad book) can store
// any pair of squares; DecodeMove is its inverse for real moves.
func EncodeMove(uci string) (uint16, error) {
	if len(uci) != 4 && len(uci) != 5 {
		return 0, fmt.Errorf("book: encode move %q: want 4 or 5 characters", uci)
	}
	from, err := board.ParseSquare(uci[:2])
	if err != nil {
		return 0, fmt.Errorf("book: encode move %q: %w", uci, err)
	}
	to, err := board.ParseSquare(uci[2:4])
	if err != nil {
		return 0, fmt.Errorf("book: encode move %q: %w", uci, err)
	}
	m := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9
	if len(uci) == 5 {
		p := strings.IndexByte("nbrq", uci[4])
		if p < 0 {
			return 0, fmt.Errorf("book: encode move %q: promotion %q: want n, b, r or q", uci, uci[4])
		}
		m |= uint16(p+1) << 12
	}
	return m, nil
}

// DecodeMove returns a Polyglot move in UCI as the book writes it: castling
// stays king takes rook (e1h1), which board.ParseUCI reads as castling in
// both standard chess and Chess960.
func DecodeMove(m uint16) (string, error) {
	toFile, toRank := int(m&7), int(m>>3&7)
	fromFile, fromRank := int(m>>6&7), int(m>>9&7)
	promo := int(m >> 12 & 7)
	if m&0x8000 != 0 || promo > 4 {
		return "", fmt.Errorf("move %04x: invalid promotion bits", m)
	}
	from, to := board.MakeSquare(fromFile, fromRank), board.MakeSquare(toFile, toRank)
	if from == to {
		return "", fmt.Errorf("move %04x: from and to are both %s", m, from)
	}
	s := from.String() + to.String()
	if promo > 0 {
		s += string("nbrq"[promo-1])
	}
	return s, nil
}
