package config

import (
	"strings"

	"github.com/outpostchess/outpost/bots/book"
)

// BookConfig is [engines.NAME.book]: Polyglot opening books asked before the
// engine searches.
type BookConfig struct {
	// Files are Polyglot .bin books, tried in order; empty = no book.
	Files []string `toml:"files"`
	// Selection is best | weighted | uniform ("" = best).
	Selection string `toml:"selection"`
	// MaxDepth is the number of plies from the game's start played from
	// the book; 0 = no limit.
	MaxDepth int `toml:"max_depth"`
	// MinWeight leaves out book moves of lower weight (0..65535).
	MinWeight int `toml:"min_weight"`
}

// Enabled reports whether the engine plays from books.
func (b BookConfig) Enabled() bool { return len(b.Files) > 0 }

// bookSelections lists the allowed selection values.
func bookSelections() []string {
	var out []string
	for _, s := range book.Selections() {
		out = append(out, string(s))
	}
	return out
}

// checkEngineBook checks [engines.NAME.book]: every file must open as a
// Polyglot book (exists, readable, whole 16-byte entries sorted by key).
func checkEngineBook(ch *checker, key string, b BookConfig) {
	key += ".book"
	if b.Selection != "" {
		ch.oneOf(key+".selection", b.Selection, bookSelections())
	}
	ch.intRange(key+".max_depth", b.MaxDepth, 0, 1000, "plies (0 = no limit)")
	ch.intRange(key+".min_weight", b.MinWeight, 0, 65535, "")
	for i, f := range b.Files {
		fkey := indexKey(key+".files", i)
		if strings.TrimSpace(f) == "" {
			ch.fail(fkey, f, "empty path", "the path of a Polyglot .bin book")
			continue
		}
		bk, err := book.Open(f)
		if err != nil {
			ch.fail(fkey, f, err.Error(), "a readable Polyglot .bin book (16-byte entries sorted by key)")
			continue
		}
		_ = bk.Close() // read-only mapping: nothing to lose
	}
}
