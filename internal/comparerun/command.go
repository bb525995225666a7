package comparerun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Request is which games one `outpost compare` run compares, as the command
// line and the configuration resolve it.
type Request struct {
	// File, when set, is a PGN or JSON file carrying Lichess's analysis
	// (the offline comparison). Otherwise User's analysed games are fetched
	// through Fetcher: those started within Since of the run's start (0: no
	// bound), Max at most (0: all).
	File    string
	User    string
	Fetcher *Fetcher
	Since   time.Duration
	Max     int
}

// Key is the key the request's runs are stored under (Source.Key).
func (r Request) Key() string {
	if r.File != "" {
		return FileSource{Path: r.File}.Key()
	}
	return r.User
}

// Source returns the request's source of games; a missing file or an
// incomplete user request is an error naming what is wrong.
func (r Request) Source() (Source, error) {
	switch {
	case r.File != "" && r.User != "":
		return nil, errors.New("comparerun: a request takes a file or a user, not both")
	case r.File != "":
		if _, err := os.Stat(r.File); err != nil {
			return nil, fmt.Errorf("comparerun: games file: %w", err)
		}
		return FileSource{Path: r.File}, nil
	case r.User == "":
		return nil, errors.New("comparerun: a request needs a file or a user")
	case r.Fetcher == nil:
		return nil, fmt.Errorf("comparerun: user %s: no Lichess fetcher", r.User)
	case r.Max < 0:
		return nil, fmt.Errorf("comparerun: user %s: max %d games: want 0 (all) or more", r.User, r.Max)
	}
	return UserSource{Fetcher: r.Fetcher, User: r.User, Since: r.Since, Max: r.Max}, nil
}

// Execute runs the comparison of src's games with c and writes its report
// to out, as JSON when asJSON, else as text. An interrupted run's error says
// how to resume it.
func (c *Comparer) Execute(ctx context.Context, src Source, asJSON bool, out io.Writer) error {
	rep, err := c.Run(ctx, src)
	if c.ProgressDone != nil {
		c.ProgressDone()
	}
	if err != nil {
		if errors.Is(err, ErrInterrupted) {
			return fmt.Errorf("%w; run the same command again to resume", err)
		}
		return err
	}
	return WriteReport(out, rep, asJSON)
}

// WriteLast writes the newest finished run stored under key (Request.Key),
// with the trend of trendRuns runs, without running anything.
func WriteLast(ctx context.Context, st RunStore, key string, trendRuns int, asJSON bool, out io.Writer) error {
	rep, err := LastReport(ctx, st, key, trendRuns)
	if err != nil {
		return err
	}
	return WriteReport(out, rep, asJSON)
}

// WriteReport writes r as JSON (asJSON) or as text.
func WriteReport(w io.Writer, r *RunReport, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, r)
	}
	return WriteText(w, r)
}
