package lichess

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// A long game's gameState (200 plies) is the line the bot decodes most.
var benchState = []byte(`{"type":"gameState","moves":"` + strings.TrimSpace(strings.Repeat("e2e4 e7e5 g1f3 b8c6 ", 50)) +
	`","wtime":59000,"btime":60000,"winc":1000,"binc":1000,"status":"started"}`)

func BenchmarkDecodeGameState(b *testing.B) { benchDecodeGameEvent(b, benchState) }

func BenchmarkDecodeGameFull(b *testing.B) { benchDecodeGameEvent(b, []byte(fullStarted)) }

// benchDecodeGameEvent measures decoding one game-stream line.
func benchDecodeGameEvent(b *testing.B, line []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := DecodeGameEvent(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLineReader(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < 1000; i++ {
		buf.Write(benchState)
		buf.WriteString("\n\n")
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		lr := NewLineReader(bytes.NewReader(data), DefaultMaxLineBytes)
		for {
			if _, err := lr.Next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
