package comparerun

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/duration"
	"github.com/outpostchess/outpost/analysis/input"
)

// Source yields the games of one comparison run.
type Source interface {
	// Key is the run's key in the store (its "user"): the Lichess username,
	// or "pgn:" and a file path.
	Key() string
	// Params describes the source in the run's recorded parameters.
	Params() SourceParams
	// Games returns the run's games. start is the run's start time, the
	// same when a run is resumed, so a window relative to it is stable.
	// Games that cannot be read come back in errs.
	Games(ctx context.Context, start time.Time) (games []*analysis.Game, errs []error, err error)
}

// SourceParams is the source part of a run's parameters.
type SourceParams struct {
	Kind   string `json:"kind"` // "lichess" or "file"
	Server string `json:"server,omitempty"`
	User   string `json:"user,omitempty"`
	File   string `json:"file,omitempty"`
	Since  string `json:"since,omitempty"` // e.g. "30d"; "" = no bound
	Max    int    `json:"max,omitempty"`   // 0 = all
}

// UserSource is a Lichess user's analysed games.
type UserSource struct {
	Fetcher *Fetcher
	User    string
	// Since is how far back from the run's start games are fetched (0: no
	// bound); Max is how many games at most (0: all).
	Since time.Duration
	Max   int
}

// Key returns the username.
func (u UserSource) Key() string { return u.User }

// Params describes the source.
func (u UserSource) Params() SourceParams {
	p := SourceParams{Kind: "lichess", Server: u.Fetcher.Client.BaseURL(), User: strings.ToLower(u.User), Max: u.Max}
	if u.Since > 0 {
		p.Since = duration.Format(u.Since)
	}
	return p
}

// Games fetches the user's analysed games started in [start-Since, start].
func (u UserSource) Games(ctx context.Context, start time.Time) ([]*analysis.Game, []error, error) {
	o := UserGamesOptions{Until: start, Max: u.Max}
	if u.Since > 0 {
		o.Since = start.Add(-u.Since)
	}
	return u.Fetcher.UserGames(ctx, u.User, o)
}

// FileSource is a PGN or JSON file carrying Lichess's analysis (the
// offline `outpost compare --pgn FILE`).
type FileSource struct {
	Path string
}

func (f FileSource) abs() string {
	if p, err := filepath.Abs(f.Path); err == nil {
		return p
	}
	return f.Path
}

// Key returns "pgn:" and the file's absolute path.
func (f FileSource) Key() string { return "pgn:" + f.abs() }

// Params describes the source.
func (f FileSource) Params() SourceParams { return SourceParams{Kind: "file", File: f.abs()} }

// Games reads the file.
func (f FileSource) Games(ctx context.Context, _ time.Time) ([]*analysis.Game, []error, error) {
	games, errs, err := input.File{Path: f.abs()}.Games(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("comparerun: %w", err)
	}
	return games, errs, nil
}
