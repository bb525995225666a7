package lichess

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// Seeds shared by the event fuzzers: real-looking lines and odd ones.
var fuzzSeeds = []string{
	`{"type":"gameStart","game":{"fullId":"abcdefgh1234","gameId":"abcdefgh","color":"white","status":{"id":20,"name":"started"},"variant":{"key":"standard","name":"Standard"},"opponent":{"id":null,"username":"Stockfish level 1","ai":1},"secondsLeft":60}}`,
	`{"type":"gameFinish","game":{"gameId":"abcdefgh","status":"mate","winner":"black","variant":"standard","perf":"blitz"}}`,
	`{"type":"challenge","challenge":{"id":"x","challenger":{"id":"a","name":"A","title":"BOT"},"destUser":null,"variant":{"key":"chess960"},"timeControl":{"type":"clock","limit":60,"increment":1},"perf":{"icon":"","name":"Bullet"}},"compat":{"bot":true}}`,
	`{"type":"challengeCanceled","challenge":{"id":"x","rules":["noAbort"]}}`,
	`{"type":"challengeDeclined","challenge":{"id":"x","declineReasonKey":"toofast","declineReason":"Too fast"}}`,
	`{"type":"gameFull","id":"g","variant":{"key":"standard"},"clock":{"initial":60000,"increment":0},"white":{"aiLevel":8},"black":{"id":"b","name":"B","title":null},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4","wtime":1,"btime":2,"winc":0,"binc":0,"status":"started","expiration":{"idleMillis":1,"millisToMove":2}}}`,
	`{"type":"gameState","moves":"e2e4 e7e5","wtime":59000,"btime":60000,"winc":0,"binc":0,"status":"started","wdraw":true}`,
	`{"type":"chatLine","room":"player","username":"x","text":"hi"}`,
	`{"type":"opponentGone","gone":true,"claimWinInSeconds":8}`,
	`{"type":"gameState","status":{"id":31},"wtime":1e3}`,
	`{"type":"somethingNew"}`,
	`{"type":"gameState","moves":"\ud800"}`,
	`{}`, `[]`, `null`, `{"type":null}`,
}

// checkEncodingStable asserts that encoding a decoded value and decoding it
// again gives the same encoding: the custom decoders (Status, Variant, Perf)
// read back what the structs write.
func checkEncodingStable[T any](t *testing.T, v *T) {
	t.Helper()
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var w T
	if err := json.Unmarshal(b1, &w); err != nil {
		t.Fatalf("re-decode of %s: %v", b1, err)
	}
	b2, err := json.Marshal(&w)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("unstable encoding:\n%s\n%s", b1, b2)
	}
}

func addSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
}

// fuzzDecoder fuzzes a line decoder: it never panics; a returned event's
// type is the line's type; a nil event always comes with a *DecodeError.
// check, when not nil, runs on every decoded event.
func fuzzDecoder[E interface{ EventType() string }](f *testing.F, decode func([]byte) (E, error), check func(E)) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := decode(line)
		if any(ev) == nil {
			if _, ok := err.(*DecodeError); !ok {
				t.Fatalf("nil event with error %T %v", err, err)
			}
			return
		}
		typ, terr := lineType(line)
		if terr != nil || typ != ev.EventType() {
			t.Fatalf("event type %q, line type %q (%v)", ev.EventType(), typ, terr)
		}
		if check != nil {
			check(ev)
		}
	})
}

// FuzzDecodeEvent fuzzes the event-stream decoder (see fuzzDecoder).
func FuzzDecodeEvent(f *testing.F) { fuzzDecoder(f, DecodeEvent, nil) }

// FuzzDecodeGameEvent: as FuzzDecodeEvent for game-stream lines; telling
// whether a game state ends the game never panics.
func FuzzDecodeGameEvent(f *testing.F) {
	fuzzDecoder(f, DecodeGameEvent, func(ev GameEvent) {
		if _, over := ev.(*GameState); over {
			_ = gameOver(ev) // must not panic
		}
	})
}

// fuzzType fuzzes one event type's decoder: decoding never panics and, when
// it succeeds, re-encoding is stable.
func fuzzType[T any](f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return
		}
		checkEncodingStable(t, &v)
	})
}

func FuzzGameStartEvent(f *testing.F)         { fuzzType[GameStartEvent](f) }
func FuzzGameFinishEvent(f *testing.F)        { fuzzType[GameFinishEvent](f) }
func FuzzChallengeEvent(f *testing.F)         { fuzzType[ChallengeEvent](f) }
func FuzzChallengeCanceledEvent(f *testing.F) { fuzzType[ChallengeCanceledEvent](f) }
func FuzzChallengeDeclinedEvent(f *testing.F) { fuzzType[ChallengeDeclinedEvent](f) }
func FuzzGameFull(f *testing.F)               { fuzzType[GameFull](f) }
func FuzzGameState(f *testing.F)              { fuzzType[GameState](f) }
func FuzzChatLine(f *testing.F)               { fuzzType[ChatLine](f) }
func FuzzOpponentGone(f *testing.F)           { fuzzType[OpponentGone](f) }
func FuzzGame(f *testing.F)                   { fuzzType[Game](f) }

// fuzzLenient fuzzes a lenient decoder: it accepts any JSON value without
// error and, when stable, the decoded value re-encodes stably.
func fuzzLenient[T any, PT interface {
	*T
	json.Unmarshaler
}](f *testing.F, seeds []string, stable bool) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var v T
		if err := PT(&v).UnmarshalJSON(b); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		if stable {
			checkEncodingStable(t, &v)
		}
	})
}

// FuzzStatus, FuzzVariant and FuzzPerf: the lenient decoders accept any
// JSON value without error; Variant and Perf re-encode stably.
func FuzzStatus(f *testing.F) {
	fuzzLenient[Status](f, []string{`"mate"`, `{"id":20,"name":"started"}`, `{"id":31}`, `35`, `null`, `true`, `[1]`, `{"id":"x"}`, `1e400`}, false)
}

func FuzzVariant(f *testing.F) {
	fuzzLenient[Variant](f, []string{`"chess960"`, `{"key":"standard","name":"Standard","short":"Std"}`, `null`, `7`, `{"key":7}`}, true)
}

func FuzzPerf(f *testing.F) {
	fuzzLenient[Perf](f, []string{`"blitz"`, `{"icon":"x","name":"Blitz"}`, `null`, `[]`}, true)
}

// FuzzNDJSONEvents runs a whole ndjson body through the line reader and the
// event decoder as a stream does: every non-blank line that fits is either
// an event or a *DecodeError, and the reader always reaches the end.
func FuzzNDJSONEvents(f *testing.F) {
	f.Add([]byte(strings.Join(fuzzSeeds, "\n\n")), 256)
	f.Add([]byte("\n{\"type\":\"gameState\"}\r\n\nnot json\n"), 64)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max <= 0 || max > 1<<16 {
			max = 64
		}
		lr := NewLineReader(bytes.NewReader(data), max)
		lines := 0
		for {
			line, err := lr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, ErrLineTooLong) {
				continue
			}
			if err != nil {
				t.Fatalf("reader error %v", err)
			}
			if len(line) > max {
				t.Fatalf("line of %d bytes exceeds %d", len(line), max)
			}
			lines++
			if lines > len(data)+1 {
				t.Fatal("more lines than bytes")
			}
			ev, derr := DecodeGameEvent(line)
			if ev == nil && derr == nil {
				t.Fatal("neither event nor error")
			}
		}
	})
}

// FuzzErrorMessage: any error body yields a message of bounded length
// without panicking; a per-field form error names each of its fields.
func FuzzErrorMessage(f *testing.F) {
	for _, s := range []string{`{"error":"Not your turn"}`, `{"clock.limit":["Invalid value"],"error":{"clock.limit":["Invalid value"]}}`,
		`{"error":{"a":[]}}`, `{"error":{"a":"b"}}`, `{"error":null}`, `not json`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg := errorMessage(body)
		if len([]rune(msg)) > 301 {
			t.Fatalf("message of %d runes", len([]rune(msg)))
		}
		var v struct {
			Error map[string][]string `json:"error"`
		}
		if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 && len(msg) < 300 {
			for k := range v.Error {
				if !strings.Contains(msg, k+": ") {
					t.Fatalf("field %q missing from %q", k, msg)
				}
			}
		}
	})
}
