package lichess

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong is returned by LineReader for a line longer than its limit.
// The line has been consumed; reading can go on with the next one.
var ErrLineTooLong = errors.New("ndjson line too long")

// LineReader splits an ndjson stream into lines with a bounded length.
type LineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewLineReader reads lines of at most max bytes (newline excluded) from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	size := 4096
	if max < size {
		size = max + 1
	}
	if size < 16 {
		size = 16
	}
	return &LineReader{r: bufio.NewReaderSize(r, size), max: max}
}

// ReadLine returns the next line without its line ending ("\n" or "\r\n"),
// including empty keep-alive lines. The slice is valid until the next call.
// A line longer than the limit is consumed and reported as an error wrapping
// ErrLineTooLong; the caller may carry on reading. At the end of the input
// it returns io.EOF (a last line without a newline is returned first).
func (l *LineReader) ReadLine() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	total := 0
	for {
		chunk, err := l.r.ReadSlice('\n')
		total += len(chunk)
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+2 {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			// chunk ended with '\n'
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if total == 0 {
				return nil, io.EOF
			}
			if tooLong {
				return nil, fmt.Errorf("%w: %d bytes (limit %d)", ErrLineTooLong, total, l.max)
			}
			return trimEOL(l.buf, l.max)
		default:
			return nil, err
		}
		if tooLong {
			return nil, fmt.Errorf("%w: %d bytes (limit %d)", ErrLineTooLong, total, l.max)
		}
		return trimEOL(l.buf, l.max)
	}
}

// trimEOL strips the line ending and applies the length limit.
func trimEOL(b []byte, max int) ([]byte, error) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if len(b) > max {
		return nil, fmt.Errorf("%w: %d bytes (limit %d)", ErrLineTooLong, len(b), max)
	}
	return b, nil
}

// Next returns the next non-blank line, skipping keep-alive blank lines
// (lines holding only whitespace). Errors are those of ReadLine.
func (l *LineReader) Next() ([]byte, error) {
	for {
		line, err := l.ReadLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}
