package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/outpostchess/outpost/analysis"
)

// Document is the JSON output: the analysed games, the games that could not
// be read or analysed, and (when several games carried Lichess's analysis)
// the aggregated comparison.
type Document struct {
	Games     []*analysis.Analysis `json:"games"`
	Errors    []string             `json:"errors,omitempty"`
	Aggregate *Aggregate           `json:"aggregate,omitempty"`
}

// WriteJSON writes doc as indented JSON.
func WriteJSON(w io.Writer, doc Document) error {
	if doc.Games == nil {
		doc.Games = []*analysis.Analysis{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("report: json: %w", err)
	}
	return nil
}
