package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

// TestStreamWriterMatchesBatchWriters: game by game, the stream writer
// writes byte for byte what the batch writers write, for no game, one
// game, and every shared game, with and without skipped games.
func TestStreamWriterMatchesBatchWriters(t *testing.T) {
	all := sharedAnalyses(t)
	batch := map[string]func(*bytes.Buffer, []*analysis.Analysis, []string) error{
		"text": func(b *bytes.Buffer, as []*analysis.Analysis, sk []string) error { return WriteText(b, as, sk) },
		"pgn": func(b *bytes.Buffer, as []*analysis.Analysis, _ []string) error {
			return WritePGN(b, as, DefaultPGNOptions)
		},
		"json": func(b *bytes.Buffer, as []*analysis.Analysis, sk []string) error {
			return WriteJSON(b, Document{Games: as, Errors: sk, Aggregate: AggregateComparisons(as)})
		},
	}
	cases := []struct {
		name    string
		games   []*analysis.Analysis
		skipped []string
	}{
		{"none", nil, nil},
		{"none, skipped", nil, []string{"x.pgn game 1: bad"}},
		{"one", all[:1], nil},
		{"all", all, nil},
		{"all, skipped", all, []string{"x.pgn game 3: bad <&>", "y"}},
	}
	for format, write := range batch {
		for _, c := range cases {
			t.Run(format+"/"+c.name, func(t *testing.T) {
				var want, got bytes.Buffer
				if err := write(&want, c.games, c.skipped); err != nil {
					t.Fatal(err)
				}
				sw, err := NewStreamWriter(&got, format)
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range c.games {
					if err := sw.Game(a); err != nil {
						t.Fatal(err)
					}
					if i == 0 && got.Len() == 0 {
						t.Fatal("the first game is not written when it is handed over")
					}
				}
				if err := sw.Close(c.skipped); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("stream output differs from the batch writer's:\n--- stream\n%.2000s\n--- batch\n%.2000s", got.String(), want.String())
				}
				if format == "json" && !json.Valid(got.Bytes()) {
					t.Fatal("invalid JSON")
				}
			})
		}
	}
}

// TestStreamWriterRefusesUnstreamableFormat: html needs every game at once.
func TestStreamWriterRefusesUnstreamableFormat(t *testing.T) {
	if _, err := NewStreamWriter(&bytes.Buffer{}, "html"); err == nil {
		t.Fatal("html accepted")
	}
}
