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

// readStream reads PGN or JSON games from r one at a time. Bad games come
// back in errs; fatal is a read error or a limit past which nothing more
// was read (not prefixed with source: the caller names the input).
func readStream(ctx context.Context, r io.Reader, source string) (games []*analysis.Game, errs []error, fatal error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, nil, fmt.Errorf("read: %w", err)
	}
	if looksJSON(head) {
		return readJSONStream(ctx, br, source)
	}
	return readPGNStream(ctx, br, source)
}

// readJSONStream decodes one object, an array of objects or NDJSON.
func readJSONStream(ctx context.Context, r io.Reader, source string) (games []*analysis.Game, errs []error, fatal error) {
	index := 0
	bounded := &boundedReader{r: r, maxTotal: MaxJSONInput, maxGame: MaxJSONGame,
		what: func() string { return fmt.Sprintf("JSON game %d", index+1) }}
	dec := json.NewDecoder(bounded)
	array := false
	if tok, err := peekDelim(dec, bounded); err != nil {
		return nil, nil, err
	} else if tok == '[' {
		array = true
	}
	for {
		if err := ctx.Err(); err != nil {
			return games, errs, err
		}
		if array && !dec.More() {
			break
		}
		bounded.game = 0
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) && !array {
				break
			}
			var le *pgn.LimitError
			if errors.As(err, &le) {
				return games, errs, le
			}
			return games, append(errs, fmt.Errorf("%s: JSON game %d: %w", source, index+1, err)), nil
		}
		index++
		g, err := DecodeJSONGame(raw, source, index)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
	return games, errs, nil
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
func readPGNStream(ctx context.Context, r io.Reader, source string) (games []*analysis.Game, errs []error, fatal error) {
	st := pgn.NewStream(r, pgn.Limits{})
	for {
		if err := ctx.Err(); err != nil {
			return games, errs, err
		}
		pg, err := st.Next()
		if errors.Is(err, io.EOF) {
			return games, errs, nil
		}
		var se *pgn.SyntaxError
		switch {
		case errors.As(err, &se):
			errs = append(errs, &GameError{Source: source, Index: se.Index, Game: se.Game, Line: se.Line, Err: errors.New(se.Msg)})
			continue
		case err != nil:
			return games, errs, err
		}
		g, err := FromPGN(pg, source)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
}
