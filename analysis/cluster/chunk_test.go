package cluster

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

const (
	testJob   = "0123456789abcdef01234567"
	testNonce = "0123456789abcdef0123456789abcdef"
)

var testEngine = EngineSettings{Name: "sf15", Threads: 1, HashMB: 16}

// A chunk the dispatcher encodes decodes on the worker to the same jobs;
// a terminal position's fixed outcome stays with the submitter.
func TestChunkRoundTrip(t *testing.T) {
	mate := []string{"f2f3", "e7e5", "g2g4", "d8h4"} // fool's mate: a checkmated position
	stalemate := "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
	e := score.CP(0)
	in := analysis.Chunk{Jobs: []analysis.Job{
		{Pos: uci.Position{Moves: mate[:3]}, WhiteToMove: false, Limits: uci.Limits{Nodes: 857142}},
		{Pos: uci.Position{Moves: mate}, WhiteToMove: true, Limits: uci.Limits{Nodes: 857142}, Skip: true},
		{Pos: uci.Position{FEN: stalemate}, Limits: uci.Limits{Depth: 20}, Skip: true, Fixed: analysis.Outcome{Eval: &e}},
		{Pos: uci.Position{FEN: "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1", Moves: []string{"a1b3"}, Chess960: true}, WhiteToMove: false, Limits: uci.Limits{Depth: 12, MultiPV: 1}},
	}}
	in.Warmup = &analysis.Job{Pos: uci.Position{Moves: mate[:2]}, WhiteToMove: true, Limits: uci.Limits{Nodes: 857142}}
	b, err := encodeChunk(testJob, 3, testNonce, testEngine, in)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decodeChunk(workSubject(testJob, 3), b)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Jobs = append([]analysis.Job(nil), in.Jobs...)
	want.Jobs[2].Fixed = analysis.Outcome{}
	want.Jobs[3].Limits.MultiPV = 0 // one line either way
	if d.job != testJob || d.index != 3 || d.nonce != testNonce || d.engine != testEngine || !reflect.DeepEqual(d.chunk, want) {
		t.Fatalf("decoded %+v\nwant chunk %+v", d, want)
	}
}

// Every refusal names what is wrong.
func TestDecodeChunkRefuses(t *testing.T) {
	valid := func() map[string]any {
		return map[string]any{"job": testJob, "index": 0, "nonce": testNonce,
			"engine": map[string]any{"name": "sf15", "threads": 1, "hash_mb": 16},
			"jobs":   []any{map[string]any{"white_to_move": true, "nodes": 1000}}}
	}
	pos := func(p map[string]any) func(map[string]any) { return func(m map[string]any) { m["jobs"] = []any{p} } }
	eng := func(name string, threads, hash int) func(map[string]any) {
		return func(m map[string]any) {
			m["engine"] = map[string]any{"name": name, "threads": threads, "hash_mb": hash}
		}
	}
	tests := []struct {
		name    string
		subject string
		change  func(map[string]any)
		want    string
	}{
		{"valid", "", func(map[string]any) {}, ""},
		{"subject of another chunk", workSubject(testJob, 1), func(map[string]any) {}, "names job " + testJob + " chunk 0, its subject outpost.work." + testJob + ".1"},
		{"subject with a leading zero", "outpost.work." + testJob + ".00", func(map[string]any) {}, "bad chunk index"},
		{"job not an id", workSubject("jx", 0), func(m map[string]any) { m["job"] = "jx" }, `job "jx": want 24 hex digits`},
		{"nonce", "", func(m map[string]any) { m["nonce"] = "x" }, `nonce "x"`},
		{"command", "", func(m map[string]any) { m["command"] = []string{"/bin/sh"} }, `unknown field "command"`},
		{"engine path", "", eng("/usr/games/stockfish", 1, 16), `engine "/usr/games/stockfish" is not one of sf15, sf18, sf19`},
		{"engine alias", "", eng("stockfish", 1, 16), `engine "stockfish" is not one of`},
		{"no threads", "", eng("sf18", 0, 16), "threads 0: want 1..32"},
		{"hash", "", eng("sf19", 1, 4096), "hash 4096 MB: want 1..2048"},
		{"too many positions", "", func(m map[string]any) {
			j := make([]any, MaxChunkPositions+1)
			for i := range j {
				j[i] = map[string]any{"white_to_move": true, "nodes": 1}
			}
			m["jobs"] = j
		}, "65 positions: want at most 64"},
		{"castling without rooks", "", pos(map[string]any{"fen": "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "white_to_move": true, "nodes": 1}), "castling right 'K'"},
		{"empty board", "", pos(map[string]any{"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "white_to_move": true, "nodes": 1}), "illegal position"},
		{"side not to move in check", "", pos(map[string]any{"fen": "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "white_to_move": true, "nodes": 1}), "illegal position"},
		{"long fen", "", pos(map[string]any{"fen": strings.Repeat("8/", 100), "white_to_move": true, "nodes": 1}), "fen of 200 characters"},
		{"illegal move", "", pos(map[string]any{"moves": []string{"e2e4", "e2e4"}, "white_to_move": true, "nodes": 1}), "move 2:"},
		{"side to move", "", pos(map[string]any{"moves": []string{"e2e4"}, "white_to_move": true, "nodes": 1}), "white_to_move is true but the position has the other side to move"},
		{"skip with legal moves", "", pos(map[string]any{"white_to_move": true, "skip": true}), "a position with legal moves is marked skip"},
		{"no budget", "", pos(map[string]any{"white_to_move": true}), "no budget"},
		{"negative nodes", "", pos(map[string]any{"white_to_move": true, "nodes": -1}), "nodes -1: want 1..1000000000"},
		{"deep", "", pos(map[string]any{"white_to_move": true, "depth": 65}), "depth 65: want 1..64"},
		{"movetime", "", pos(map[string]any{"white_to_move": true, "nodes": 1, "movetime": 1}), `unknown field "movetime"`},
		{"skipped warm-up", "", func(m map[string]any) { m["warmup"] = map[string]any{"white_to_move": true, "skip": true} }, "warm-up position: marked skip"},
		{"bad warm-up", "", func(m map[string]any) { m["warmup"] = map[string]any{"white_to_move": false, "nodes": 1} }, "warm-up position: white_to_move"},
	}
	for _, tt := range tests {
		m := valid()
		tt.change(m)
		b, _ := json.Marshal(m)
		subject := tt.subject
		if subject == "" {
			subject = workSubject(testJob, 0)
		}
		_, err := decodeChunk(subject, b)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error with %q", tt.name, err, tt.want)
		}
	}
	for _, raw := range []string{"", "null", "[]", `{"job":1}`, "{}{}", `{"job":"` + testJob + `"} trailing`} {
		if _, err := decodeChunk(workSubject(testJob, 0), []byte(raw)); err == nil {
			t.Errorf("%q accepted", raw)
		}
	}
}

// The worker's decoder takes any bytes: what it accepts is within the
// bounds, passes the position check again when encoded as the dispatcher
// encodes it, and decodes to the same chunk.
func FuzzDecodeChunk(f *testing.F) {
	ok, _ := encodeChunk(testJob, 0, testNonce, testEngine, analysis.Chunk{Jobs: []analysis.Job{
		{Pos: uci.Position{Moves: []string{"e2e4"}}, Limits: uci.Limits{Nodes: 1000}}}})
	f.Add(workSubject(testJob, 0), ok)
	f.Add(workSubject(testJob, 0), []byte(`{"job":"`+testJob+`","index":0,"nonce":"`+testNonce+`","engine":{"name":"sf18","threads":2,"hash_mb":64},"jobs":[{"fen":"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1","white_to_move":true,"depth":5}]}`))
	f.Add(workSubject(testJob, 0), []byte(`{"job":"`+testJob+`","index":0,"nonce":"`+testNonce+`","spec":{"Command":["/bin/sh","-c","touch x"]}}`))
	f.Add("outpost.work.x.-1", []byte(`{"index":-1,"jobs":[]}`))
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		d, err := decodeChunk(subject, data)
		if err != nil {
			return
		}
		if d.engine.check() != nil || len(d.chunk.Jobs) == 0 || len(d.chunk.Jobs) > MaxChunkPositions || d.index < 0 {
			t.Fatalf("accepted out of bounds: %+v", d)
		}
		b, err := encodeChunk(d.job, d.index, d.nonce, d.engine, d.chunk)
		if err != nil {
			t.Fatalf("accepted %q, which does not encode again: %v", data, err)
		}
		again, err := decodeChunk(subject, b)
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("round trip of %q: %v\n%+v\n%+v", data, err, d, again)
		}
	})
}
