package app

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/report"
)

// Stream is one streamed `outpost analyse` run.
type Stream struct {
	// Sources are the inputs, read in order.
	Sources []input.GameSource
	// Out receives the report in Format (report.NewStreamWriter's).
	Out    io.Writer
	Format string
	// Options are the analysis's engines and budget.
	Options analysis.BatchOptions
	// Finish, when not nil, is called once a game is analysed, before it
	// is written, and at the end (it ends a progress bar).
	Finish func()
	// Skipped, when not nil, receives every game that was not analysed,
	// with why.
	Skipped func(error)
	// Warning, when not nil, receives each warning of every game read
	// (the reader kept the game: a missing result token, a control
	// character in a tag), as the game's source and its
	// analysis.Game.WarningLines line, before the game is analysed.
	Warning func(source, line string)
	// Logger receives the errors of closing the engines.
	Logger zerolog.Logger
}

// StreamAnalyses analyses the inputs game by game, writing each game's
// report as soon as it is analysed (in input order) and keeping only its
// Lichess comparison for the aggregate: memory stays that of one game
// however large the input (docs/operations.md, "Limits"). It fails when no
// game was analysed; an interrupted run says after how many games.
func StreamAnalyses(ctx context.Context, s Stream) error {
	finish := s.Finish
	if finish == nil {
		finish = func() {}
	}
	sw, err := report.NewStreamWriter(s.Out, s.Format)
	if err != nil {
		return err
	}
	an := analysis.NewAnalyser(s.Options)
	defer func() {
		if cerr := an.Close(); cerr != nil {
			s.Logger.Warn().Err(cerr).Msg("closing engines")
		}
	}()
	var skipped []string
	analysed := 0
	emit := func(g *analysis.Game, bad error) error {
		if bad == nil {
			warn(s.Warning, g)
			a, err := an.Analyse(ctx, g)
			if err != nil && !analysis.IsSkipped(err) {
				return runError{err}
			}
			bad = err
			if a != nil {
				finish()
				analysed++
				if err := sw.Game(a); err != nil {
					return runError{fmt.Errorf("--out: %w", err)}
				}
			}
		}
		if bad != nil {
			skipped = append(skipped, bad.Error())
			if s.Skipped != nil {
				s.Skipped(bad)
			}
		}
		return nil
	}
	runErr := eachGame(ctx, s.Sources, emit)
	finish()
	if err := sw.Close(skipped); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	switch {
	case runErr != nil && ctx.Err() != nil:
		return fmt.Errorf("interrupted after %d games: %w", analysed, runErr)
	case runErr != nil:
		return runErr
	case analysed == 0:
		return fmt.Errorf("no game analysed (%d skipped)", len(skipped))
	}
	return nil
}

// warn hands g's warnings to sink (nil: nowhere).
func warn(sink func(source, line string), g *analysis.Game) {
	if sink == nil || g == nil {
		return
	}
	for _, l := range g.WarningLines() {
		sink(g.Source, l)
	}
}

// eachGame reads the sources in order, calling emit with every game; an
// input error is prefixed with its source's name, an error of emit's
// (runError) is not.
func eachGame(ctx context.Context, srcs []input.GameSource, emit func(*analysis.Game, error) error) error {
	for _, src := range srcs {
		if err := input.Each(ctx, src, emit); err != nil {
			var re runError
			if errors.As(err, &re) {
				return re.err
			} else if ctx.Err() == nil {
				return fmt.Errorf("%s: %w", src.Name(), err)
			}
			return err
		}
	}
	return nil
}

// runError is an error of the analysis or the output, not of the input
// (not prefixed with the input's name).
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
