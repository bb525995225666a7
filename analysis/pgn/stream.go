package pgn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// MaxGameBytes is the largest single game a Stream accepts (bytes of PGN
// text, comments and variations included). A real game with every move
// annotated is a few tens of kilobytes; 16 MiB leaves room for heavily
// commented studies while keeping one game's parse bounded.
const MaxGameBytes = 16 << 20

// MaxTotalBytes is the largest PGN input a Stream reads in all (bytes).
// Past it the input is refused with an error, never cut silently.
const MaxTotalBytes = 256 << 20

// readBufSize is the Stream's read buffer: long lines are read in pieces of
// this size, so memory stays bounded by the game being read.
const readBufSize = 64 << 10

// Limits bounds what a Stream reads; zero fields take the defaults
// (MaxGameBytes, MaxTotalBytes).
type Limits struct {
	Game  int64 // bytes of one game
	Total int64 // bytes of the whole input
}

func (l Limits) withDefaults() Limits {
	if l.Game <= 0 {
		l.Game = MaxGameBytes
	}
	if l.Total <= 0 {
		l.Total = MaxTotalBytes
	}
	return l
}

// LimitError reports input past one of the Stream's limits. It is fatal
// for the input: nothing after it is read.
type LimitError struct {
	What  string // "game 3 (line 120)" or "input"
	Limit int64  // the limit in bytes
	Name  string // the limit's name, e.g. "per-game limit"
}

// Error names what was too large and the limit.
func (e *LimitError) Error() string {
	return fmt.Sprintf("pgn: %s is larger than the %s of %s", e.What, e.Name, FormatBytes(e.Limit))
}

// FormatBytes renders a byte count the way the limits are documented
// (256 KiB, 16 MiB).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Stream reads games one at a time from an io.Reader in bounded memory:
// it cuts the input at game boundaries (a tag line after movetext) and
// parses each game on its own, so only the current game is held. A game
// larger than Limits.Game or an input larger than Limits.Total ends the
// stream with a *LimitError.
type Stream struct {
	br    *bufio.Reader
	lim   Limits
	total int64
	line  int // line number of the next line read
	// carry is a line already read that starts the next game.
	carry     []byte
	carryLine int
	inner     *Reader
	index     int   // index of the last game returned
	err       error // sticky end of the input (io.EOF, a read or limit error)
}

// NewStream returns a Stream over r with the given limits.
func NewStream(r io.Reader, lim Limits) *Stream {
	return &Stream{br: bufio.NewReaderSize(r, readBufSize), lim: lim.withDefaults(), line: 1}
}

// Next returns the next game, io.EOF at the end, a *SyntaxError for a
// malformed game (the stream goes on with the next one), a *LimitError or
// a read error (both final).
func (s *Stream) Next() (*Game, error) {
	for {
		if s.inner != nil {
			g, err := s.inner.Next()
			if !errors.Is(err, io.EOF) {
				s.trackIndex(g, err)
				return g, err
			}
			s.inner = nil
		}
		if s.err != nil {
			return nil, s.err
		}
		chunk, start, err := s.readGame()
		if err != nil {
			s.err = err
			var le *LimitError
			if errors.As(err, &le) {
				return nil, err // the partial game is not parsed
			}
		}
		if len(chunk) > 0 {
			s.inner = &Reader{lx: newLexer(chunk), index: s.index}
			s.inner.lx.line = start
		}
	}
}

func (s *Stream) trackIndex(g *Game, err error) {
	var se *SyntaxError
	switch {
	case g != nil:
		s.index = g.Index
	case errors.As(err, &se):
		s.index = se.Index
	}
}

// splitState follows the PGN text byte by byte, just enough to find game
// boundaries: brace comments may span lines and contain '[', tag pairs hold
// strings.
type splitState struct {
	inComment bool // inside { ... }
	reserved  bool // inside < ... > (reserved for expansion, skipped)
	inTag     bool // inside [ ... ]
	inString  bool // inside "..." (in a tag)
	escaped   bool // previous byte was a backslash in a string
	movetext  bool // something other than tags and comments was seen
}

// scan updates the state over p; lineStart tells whether p starts a line.
func (st *splitState) scan(p []byte, lineStart bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case st.inComment:
			if c == '}' {
				st.inComment = false
			}
		case st.reserved:
			if c == '>' {
				st.reserved = false
			}
		case st.inString:
			switch {
			case st.escaped:
				st.escaped = false
			case c == '\\':
				st.escaped = true
			case c == '"':
				st.inString = false
			case c == '\n':
				st.inString = false // the parser reports the unclosed string
			}
		case st.inTag:
			switch c {
			case '"':
				st.inString = true
			case ']':
				st.inTag = false
			case '\n':
				st.inTag = false
			}
		case c == '{':
			st.inComment = true
		case c == '<':
			st.reserved = true
		case c == ';' || (c == '%' && i == 0 && lineStart):
			return // rest of the line is a comment or an escape
		case c == '[':
			st.inTag = true
		case isSpace(c) || c == '\f' || c == '\v':
		default:
			st.movetext = true
		}
	}
}

// startsGame tells whether a line (its first bytes) opens a tag section.
func startsGame(p []byte) bool {
	i := 0
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r') {
		i++
	}
	return i+1 < len(p) && p[i] == '[' && isLetter(p[i+1])
}

// readGame reads the next game's text and the line it starts on. At the
// end of the input it returns what it has with io.EOF (or the read error).
func (s *Stream) readGame() ([]byte, int, error) {
	var chunk []byte
	var st splitState
	start := s.line
	if s.carry != nil {
		chunk, start = s.carry, s.carryLine
		st.scan(chunk, true)
		s.carry = nil
	}
	lineStart := len(chunk) == 0 || chunk[len(chunk)-1] == '\n'
	for {
		piece, err := s.br.ReadSlice('\n')
		if len(piece) > 0 {
			if s.total += int64(len(piece)); s.total > s.lim.Total {
				return nil, start, &LimitError{What: "the input", Limit: s.lim.Total, Name: "total limit"}
			}
			if lineStart && st.movetext && !st.inComment && !st.reserved && startsGame(piece) {
				s.carry, s.carryLine = append([]byte(nil), piece...), s.line
				s.countLine(piece)
				return chunk, start, nil
			}
			if len(chunk) == 0 && isBlank(piece) {
				// blank lines between games belong to no game
				s.countLine(piece)
				start = s.line
				continue
			}
			if int64(len(chunk)+len(piece)) > s.lim.Game {
				return nil, start, &LimitError{What: fmt.Sprintf("game %d (from line %d)", s.index+1, start), Limit: s.lim.Game, Name: "per-game limit"}
			}
			chunk = append(chunk, piece...)
			st.scan(piece, lineStart)
			s.countLine(piece)
			lineStart = piece[len(piece)-1] == '\n'
		}
		if err := readEnd(err); err != nil {
			return chunk, start, err
		}
	}
}

// readEnd maps ReadSlice's error: nil to go on, else the end of the input.
func readEnd(err error) error {
	switch {
	case err == nil, errors.Is(err, bufio.ErrBufferFull):
		return nil
	case errors.Is(err, io.EOF):
		return io.EOF
	}
	return fmt.Errorf("pgn: read: %w", err)
}

func isBlank(p []byte) bool {
	for _, c := range p {
		if !isSpace(c) && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}
func (s *Stream) countLine(piece []byte) {
	if piece[len(piece)-1] == '\n' {
		s.line++
	}
}
