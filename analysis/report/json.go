package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/outpostchess/outpost/analysis"
)

// Document is the JSON output of `outpost analyse --format json`: the
// analysed games, the games that could not be read or analysed, and (when
// several games carried Lichess's analysis) the aggregated comparison.
type Document struct {
	// Games are the analyses, in input order (the schema of each is
	// analysis.Analysis; [] when none).
	Games []*analysis.Analysis `json:"games"`
	// Errors say, one line each, which games were skipped and why.
	Errors []string `json:"errors,omitempty"`
	// Aggregate compares our judgements with Lichess's over the games.
	Aggregate *Aggregate `json:"aggregate,omitempty"`
	// EWR, when not nil, adds an "ewr" array to every game in it: its
	// expected-winrate moments ([] for a game without any).
	EWR EWRSet `json:"-"`
}

// gameWithEWR is a game's JSON object with its expected-winrate moments.
type gameWithEWR struct {
	*analysis.Analysis
	EWR *[]EWRMoment `json:"ewr,omitempty"`
}

// WriteJSON writes doc as indented JSON.
func WriteJSON(w io.Writer, doc Document) error {
	if doc.Games == nil {
		doc.Games = []*analysis.Analysis{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	var v any = doc
	if doc.EWR != nil {
		games := make([]gameWithEWR, len(doc.Games))
		for i, a := range doc.Games {
			games[i] = gameWithEWR{Analysis: a}
			if ms, ok := doc.EWR[a]; ok {
				if ms == nil {
					ms = []EWRMoment{}
				}
				games[i].EWR = &ms
			}
		}
		v = struct {
			Games     []gameWithEWR `json:"games"`
			Errors    []string      `json:"errors,omitempty"`
			Aggregate *Aggregate    `json:"aggregate,omitempty"`
		}{games, doc.Errors, doc.Aggregate}
	}
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("report: json: %w", err)
	}
	return nil
}
