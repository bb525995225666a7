package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/outpostchess/outpost/analysis"
)

// ErrOffline is returned for a Lichess game id or URL when no Fetcher is
// configured.
var ErrOffline = errors.New("fetching Lichess games is not available offline (no fetcher configured)")

// GameSource yields games to analyse. Games that cannot be read come back
// in errs (one per bad game); the error return is for the source as a
// whole (file missing, fetch failed).
type GameSource interface {
	// Name identifies the source in messages.
	Name() string
	Games(ctx context.Context) (games []*analysis.Game, errs []error, err error)
}

// Streamer is a GameSource that can also hand its games over one at a
// time, each before the next is read, so that a large input is never held
// whole (File and Bytes are Streamers).
type Streamer interface {
	GameSource
	// Stream calls emit with each game (or each game's error) in input
	// order; its error is the source's (as Games' err) or emit's.
	Stream(ctx context.Context, emit Emit) error
}

// Each hands src's games to emit one at a time: through Stream when src
// is a Streamer, else from Games.
func Each(ctx context.Context, src GameSource, emit Emit) error {
	if s, ok := src.(Streamer); ok {
		return s.Stream(ctx, emit)
	}
	games, errs, err := src.Games(ctx)
	if err != nil {
		return err
	}
	for _, e := range errs {
		if err := emit(nil, e); err != nil {
			return err
		}
	}
	for _, g := range games {
		if err := emit(g, nil); err != nil {
			return err
		}
	}
	return nil
}

// Fetcher fetches Lichess games by id or URL; the Lichess client plugs in
// here (e.g. exporting with evals=true&literate=true so Lichess's own
// analysis comes along).
type Fetcher interface {
	Fetch(ctx context.Context, id string) (GameSource, error)
}

// File is a PGN or JSON file ("-" is standard input, read as PGN unless it
// starts with '{' or '[').
type File struct {
	Path  string
	Stdin io.Reader
}

// Name returns the path.
func (f File) Name() string {
	if f.Path == "-" {
		return "stdin"
	}
	return f.Path
}

// Games reads the file (or standard input) game by game, within the
// limits of pgn.Stream and MaxJSONInput/MaxJSONGame; an input past a limit
// is an error naming it.
func (f File) Games(ctx context.Context) (games []*analysis.Game, errs []error, err error) {
	err = f.Stream(ctx, collect(&games, &errs))
	return games, errs, err
}

// Stream reads the file (or standard input) game by game as Games does,
// handing each game to emit before the next is read.
func (f File) Stream(ctx context.Context, emit Emit) error {
	var r io.Reader = f.Stdin
	if f.Path != "-" || f.Stdin == nil {
		file, err := os.Open(f.Path)
		if err != nil {
			return fmt.Errorf("input: %w", err)
		}
		defer file.Close()
		r = file
	}
	return readStream(ctx, r, f.Name(), emit)
}

// Bytes is in-memory PGN or JSON text.
type Bytes struct {
	Label string
	Data  []byte
}

// Name returns the label.
func (b Bytes) Name() string { return b.Label }

// Games parses the bytes: JSON when they start with '{' or '[' followed by
// a quote or brace (a PGN starts with a '[Tag'), else PGN.
func (b Bytes) Games(ctx context.Context) (games []*analysis.Game, errs []error, err error) {
	err = b.Stream(ctx, collect(&games, &errs))
	return games, errs, err
}

// Stream parses the bytes as Games does, handing each game to emit before
// the next is parsed.
func (b Bytes) Stream(ctx context.Context, emit Emit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return readStream(ctx, bytes.NewReader(b.Data), b.Label, emit)
}

var jsonStartRe = regexp.MustCompile(`^\s*(\{|\[\s*(\{|\]))`)

func looksJSON(data []byte) bool {
	head := data
	if len(head) > 64 {
		head = head[:64]
	}
	return jsonStartRe.Match(head)
}

var (
	gameIDRe  = regexp.MustCompile(`^[A-Za-z0-9]{8}(?:[A-Za-z0-9]{4})?$`)
	gameURLRe = regexp.MustCompile(`^https?://(?:[a-z]+\.)?lichess\.(?:org|dev)/([A-Za-z0-9]{8})(?:[A-Za-z0-9]{4})?(?:/(?:white|black))?(?:[#?].*)?$`)
)

// LichessID returns the game id when arg is a Lichess game id or URL.
func LichessID(arg string) (string, bool) {
	if m := gameURLRe.FindStringSubmatch(arg); m != nil {
		return m[1], true
	}
	if gameIDRe.MatchString(arg) {
		return arg[:8], true
	}
	return "", false
}

// Open resolves a command-line input: an existing file (or "-"), else a
// Lichess game id or URL (through fetcher; ErrOffline without one).
func Open(ctx context.Context, arg string, stdin io.Reader, fetcher Fetcher) (GameSource, error) {
	if arg == "-" {
		return File{Path: "-", Stdin: stdin}, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return File{Path: arg}, nil
	}
	if id, ok := LichessID(arg); ok {
		if fetcher == nil {
			return nil, fmt.Errorf("input %s: %w", arg, ErrOffline)
		}
		src, err := fetcher.Fetch(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", arg, err)
		}
		return src, nil
	}
	ext := strings.ToLower(filepath.Ext(arg))
	if ext == ".pgn" || ext == ".json" || ext == ".ndjson" {
		return nil, fmt.Errorf("input %s: no such file", arg)
	}
	return nil, fmt.Errorf("input %q: not a file, Lichess game id or game URL", arg)
}
