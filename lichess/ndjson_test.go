package lichess

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAllLines(t testing.TB, lr *LineReader) (lines []string, tooLong int) {
	t.Helper()
	for {
		line, err := lr.Next()
		switch {
		case err == nil:
			lines = append(lines, string(line))
		case errors.Is(err, ErrLineTooLong):
			tooLong++
		case errors.Is(err, io.EOF):
			return lines, tooLong
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
}

func TestLineReader(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		max     int
		want    []string
		tooLong int
	}{
		{"empty", "", 100, nil, 0},
		{"keepalives only", "\n\n\n", 100, nil, 0},
		{"one line", `{"a":1}` + "\n", 100, []string{`{"a":1}`}, 0},
		{"no final newline", `{"a":1}`, 100, []string{`{"a":1}`}, 0},
		{"crlf", "x\r\n\r\ny\r\n", 100, []string{"x", "y"}, 0},
		{"keepalives between", "\na\n\n\nb\n\n", 100, []string{"a", "b"}, 0},
		{"whitespace-only line is keepalive", "a\n  \t\nb\n", 100, []string{"a", "b"}, 0},
		{"exactly max", "abcde\nfg\n", 5, []string{"abcde", "fg"}, 0},
		{"too long skipped", "abcdef\nfg\n", 5, []string{"fg"}, 1},
		{"too long at end", "ab\nabcdefgh", 5, []string{"ab"}, 1},
		{"huge line skipped, stream goes on", strings.Repeat("x", 100000) + "\nok\n", 64, []string{"ok"}, 1},
		{"two long lines", strings.Repeat("x", 70) + "\n" + strings.Repeat("y", 9000) + "\nz\n", 64, []string{"z"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, wrap := range []struct {
				name string
				r    func(io.Reader) io.Reader
			}{{"plain", func(r io.Reader) io.Reader { return r }}, {"onebyte", iotest.OneByteReader}, {"half", iotest.HalfReader}} {
				lr := NewLineReader(wrap.r(strings.NewReader(tc.in)), tc.max)
				got, tooLong := readAllLines(t, lr)
				if strings.Join(got, "|") != strings.Join(tc.want, "|") || tooLong != tc.tooLong {
					t.Errorf("%s: got %q (tooLong %d), want %q (tooLong %d)", wrap.name, got, tooLong, tc.want, tc.tooLong)
				}
			}
		})
	}
}

func TestLineReaderReadLineKeepsBlankLines(t *testing.T) {
	lr := NewLineReader(strings.NewReader("a\n\nb\n"), 10)
	var got []string
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	if strings.Join(got, ",") != "a,,b" {
		t.Fatalf("got %q", got)
	}
}

func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	lr := NewLineReader(io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(boom)), 10)
	if line, err := lr.Next(); err != nil || string(line) != "a" {
		t.Fatalf("first line: %q %v", line, err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("want boom, got %v", err)
	}
}

// FuzzLineReader checks the reader against a simple model: the non-blank
// lines of the input that fit the limit, in order, never panicking.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"type\":\"gameState\"}\n\n{\"a\":1}\r\n"), 16)
	f.Add([]byte("\n\n\n"), 1)
	f.Add([]byte(strings.Repeat("z", 5000)+"\nq"), 100)
	f.Add([]byte("a\r\r\nb"), 2)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max <= 0 || max > 1<<16 {
			max = 1 + (max&0xffff+0xffff)%4096
		}
		var want []string
		var wantLong int
		parts := bytes.Split(data, []byte("\n"))
		if len(parts) > 0 && len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1]
		}
		for _, p := range parts {
			p = bytes.TrimSuffix(p, []byte("\r"))
			switch {
			case len(p) > max:
				wantLong++
			case len(bytes.TrimSpace(p)) > 0:
				want = append(want, string(p))
			}
		}
		got, gotLong := readAllLines(t, NewLineReader(bytes.NewReader(data), max))
		if len(got) != len(want) || gotLong != wantLong {
			t.Fatalf("got %d lines/%d long, want %d/%d", len(got), gotLong, len(want), wantLong)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("line %d: got %q want %q", i, got[i], want[i])
			}
		}
	})
}
