package app

import (
	"io"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
)

// WriteAnalyses writes a whole run's analyses to w in format: "json" (one
// document with the games, the skipped inputs, the aggregate comparison
// with Lichess and the expected-winrate moments), "pgn" (annotated, with
// the moments), "html" (one self-contained report page), else text. moments
// is nil when expected winrate was not asked for.
func WriteAnalyses(w io.Writer, format string, analyses []*analysis.Analysis, moments report.EWRSet, skipped []string) error {
	switch format {
	case "json":
		return report.WriteJSON(w, report.Document{Games: analyses, Errors: skipped, Aggregate: report.AggregateComparisons(analyses), EWR: moments})
	case "pgn":
		opt := report.DefaultPGNOptions
		opt.EWR = moments
		return report.WritePGN(w, analyses, opt)
	case "html":
		return htmlreport.WriteEWR(w, analyses, moments)
	}
	return report.WriteTextEWR(w, analyses, moments, nil)
}
