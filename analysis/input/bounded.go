package input

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/pgn"
)

// MaxJSONInput bounds a JSON export read by ReadJSON (bytes in all).
const MaxJSONInput = 256 << 20

// MaxJSONGame bounds one game of a JSON export (bytes). A Lichess export
// with the analysis and clocks of a long game is well under 1 MiB.
const MaxJSONGame = 16 << 20

// sniffBytes is how much of an input is looked at to tell JSON from PGN.
const sniffBytes = 64

// boundedReader counts what it reads and fails, naming the limit, once the
// whole input or the current game grows past its limit.
type boundedReader struct {
	r                 io.Reader
	total, game       int64
	maxTotal, maxGame int64
	what              func() string // names the current game
	err               error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.total += int64(n)
	b.game += int64(n)
	switch {
	case b.total > b.maxTotal:
		b.err = &pgn.LimitError{What: "the JSON input", Limit: b.maxTotal, Name: "total limit"}
	case b.game > b.maxGame:
		b.err = &pgn.LimitError{What: b.what(), Limit: b.maxGame, Name: "per-game limit"}
	}
	if b.err != nil {
		return 0, b.err
	}
	return n, err
}

// Emit receives the games of a stream in input order, one at a time: a
// game read, or (g nil) bad, the error of a game that could not be read.
// An error it returns stops the stream and is returned as is.
type Emit func(g *analysis.Game, bad error) error

// collect is an Emit that keeps every game and error.
func collect(games *[]*analysis.Game, errs *[]error) Emit {
	return func(g *analysis.Game, bad error) error {
		if bad != nil {
			*errs = append(*errs, bad)
		} else {
			*games = append(*games, g)
		}
		return nil
	}
}

// readStream reads PGN or JSON games from r one at a time, handing each to
// emit before the next is read. The error is a read error, a limit past
// which nothing more was read (not prefixed with source: the caller names
// the input), ctx's, or emit's.
func readStream(ctx context.Context, r io.Reader, source string, emit Emit) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read: %w", err)
	}
	if looksJSON(head) {
		return readJSONStream(ctx, br, source, emit)
	}
	return readPGNStream(ctx, br, source, emit)
}

// readJSONStream decodes one object, an array of objects or NDJSON.
func readJSONStream(ctx context.Context, r io.Reader, source string, emit Emit) error {
	index := 0
	bounded := &boundedReader{r: r, maxTotal: MaxJSONInput, maxGame: MaxJSONGame,
		what: func() string { return fmt.Sprintf("JSON game %d", index+1) }}
	dec := json.NewDecoder(bounded)
	array := false
	if tok, err := peekDelim(dec, bounded); err != nil {
		return err
	} else if tok == '[' {
		array = true
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if array && !dec.More() {
			return nil
		}
		bounded.game = 0
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) && !array {
				return nil
			}
			var le *pgn.LimitError
			if errors.As(err, &le) {
				return le
			}
			return emit(nil, fmt.Errorf("%s: JSON game %d: %w", source, index+1, err))
		}
		index++
		g, err := DecodeJSONGame(raw, source, index)
		if err != nil {
			g = nil
		}
		if err := emit(g, err); err != nil {
			return err
		}
	}
}

// peekDelim consumes a leading '[' (an array of games) and reports it; for
// anything else nothing is consumed.
func peekDelim(dec *json.Decoder, b *boundedReader) (byte, error) {
	br, ok := b.r.(*bufio.Reader)
	if !ok {
		return 0, nil
	}
	for {
		c, err := br.Peek(1)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, nil
			}
			return 0, fmt.Errorf("read: %w", err)
		}
		if !bytes.ContainsAny(c, " \t\r\n") {
			break
		}
		if _, err := br.ReadByte(); err != nil {
			return 0, fmt.Errorf("read: %w", err)
		}
	}
	c, _ := br.Peek(1)
	if c[0] != '[' {
		return 0, nil
	}
	if _, err := dec.Token(); err != nil {
		return 0, fmt.Errorf("JSON array: %w", err)
	}
	return '[', nil
}

// readPGNStream parses PGN game by game through pgn.Stream.
func readPGNStream(ctx context.Context, r io.Reader, source string, emit Emit) error {
	st := pgn.NewStream(r, pgn.Limits{})
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		pg, err := st.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var se *pgn.SyntaxError
		switch {
		case errors.As(err, &se):
			err = emit(nil, &GameError{Source: source, Index: se.Index, Game: se.Game, Line: se.Line, Err: errors.New(se.Msg)})
		case err != nil:
			return err
		default:
			g, ferr := FromPGN(pg, source)
			if ferr != nil {
				g = nil
			}
			err = emit(g, ferr)
		}
		if err != nil {
			return err
		}
	}
}
