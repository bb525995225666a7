package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/outpostchess/outpost/analysis"
)

// StreamWriter writes a report one game at a time, so that a run over a
// large input holds one analysis at a time: each game is written (and
// flushed) when Game is called, in call order; Close writes what comes
// after the games (the aggregate comparison, the skipped games). Its
// output is byte for byte what WriteText, WritePGN and WriteJSON write for
// the same games. Only each game's Lichess comparison is kept, for the
// aggregate.
type StreamWriter struct {
	w      *bufio.Writer
	format string
	opt    PGNOptions
	// compared holds, per game written, an analysis carrying nothing but
	// its comparison (AggregateComparisons reads nothing else).
	compared []*analysis.Analysis
	games    int
	err      error
}

// NewStreamWriter returns a StreamWriter for format: "text", "pgn"
// (with DefaultPGNOptions) or "json".
func NewStreamWriter(w io.Writer, format string) (*StreamWriter, error) {
	switch format {
	case "text", "pgn", "json":
	default:
		return nil, fmt.Errorf("report: format %q cannot be streamed (want text, pgn or json)", format)
	}
	return &StreamWriter{w: bufio.NewWriter(w), format: format, opt: DefaultPGNOptions}, nil
}

// Game writes one game's report and flushes it to the underlying writer.
func (s *StreamWriter) Game(a *analysis.Analysis) error {
	if s.err != nil {
		return s.err
	}
	switch s.format {
	case "text":
		if s.games > 0 {
			s.w.WriteString("\n")
		}
		writeGameText(s.w, a)
	case "pgn":
		if s.games > 0 {
			s.w.WriteString("\n\n")
		}
		s.w.WriteString(RenderPGN(a, s.opt))
		s.w.WriteString("\n")
	case "json":
		if err := s.jsonGame(a); err != nil {
			s.err = err
			return err
		}
	}
	s.games++
	if a.Comparison != nil {
		s.compared = append(s.compared, &analysis.Analysis{Comparison: a.Comparison})
	}
	return s.flush()
}

// jsonGame writes a as an element of the document's "games" array,
// indented as WriteJSON indents it.
func (s *StreamWriter) jsonGame(a *analysis.Analysis) error {
	if s.games == 0 {
		s.w.WriteString("{\n  \"games\": [\n    ")
	} else {
		s.w.WriteString(",\n    ")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return fmt.Errorf("report: json: game %s: %w", a.ID, err)
	}
	s.w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}

// Close writes the end of the report (aggregate, skipped games) and
// flushes it; it does not close the underlying writer.
func (s *StreamWriter) Close(skipped []string) error {
	if s.err != nil {
		return s.err
	}
	ag := AggregateComparisons(s.compared)
	switch s.format {
	case "text":
		if ag != nil && ag.Games > 1 {
			s.w.WriteString("\n")
			writeAggregateText(s.w, ag)
		}
		if len(skipped) > 0 {
			s.w.WriteString("\nSkipped:\n")
			for _, e := range skipped {
				fmt.Fprintf(s.w, "  %s\n", e)
			}
		}
	case "json":
		if err := s.jsonEnd(skipped, ag); err != nil {
			s.err = err
			return err
		}
	}
	return s.flush()
}

// jsonEnd closes the "games" array and writes the document's other keys.
func (s *StreamWriter) jsonEnd(skipped []string, ag *Aggregate) error {
	if s.games == 0 {
		s.w.WriteString("{\n  \"games\": []")
	} else {
		s.w.WriteString("\n  ]")
	}
	tail := []struct {
		key string
		v   any
		on  bool
	}{{"errors", skipped, len(skipped) > 0}, {"aggregate", ag, ag != nil}}
	for _, t := range tail {
		if !t.on {
			continue
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("  ", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(t.v); err != nil {
			return fmt.Errorf("report: json: %s: %w", t.key, err)
		}
		fmt.Fprintf(s.w, ",\n  %q: %s", t.key, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	s.w.WriteString("\n}\n")
	return nil
}

func (s *StreamWriter) flush() error {
	if err := s.w.Flush(); err != nil {
		s.err = fmt.Errorf("report: writing: %w", err)
	}
	return s.err
}
