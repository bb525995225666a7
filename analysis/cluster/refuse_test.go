package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// answerWait bounds the wait for a worker's answer to one chunk: a worker
// that never answers (it retries the chunk) fails the test.
const answerWait = 30 * time.Second

// answer is a worker's result message as the tests read it.
type answer struct {
	subject string
	Job     string `json:"job"`
	Index   int    `json:"index"`
	Worker  string `json:"worker"`
	Err     string `json:"error"`
	Refused string `json:"refused"`
}

// validChunk is a well-formed chunk message of job as a map, for the
// forgeries to change.
func validChunk(job string) map[string]any {
	return map[string]any{
		"job": job, "index": 0, "nonce": "0123456789abcdef0123456789abcdef",
		"engine": map[string]any{"name": "sf15", "threads": 1, "hash_mb": 16},
		"jobs":   []map[string]any{{"white_to_move": true, "nodes": 1000}},
	}
}

// forged is a chunk message published straight to the work stream, as a
// client other than Outpost's dispatcher could.
type forged struct {
	name string
	// subject is the chunk's subject, JOB standing for the case's job id
	// (default outpost.work.JOB.0).
	subject string
	// body returns the message of the case's job; pwned is a file the
	// forgery would create if its command ran.
	body func(job, pwned string) []byte
	// reason is in the answer's error.
	reason string
	// refusedSubject: the subject names no chunk of a job, or the message
	// does not name the subject's chunk with a nonce, so the answer goes to
	// outpost.results.refused.SEQ.IDENTITY.
	refusedSubject bool
}

func changed(f func(m map[string]any)) func(job, pwned string) []byte {
	return func(job, _ string) []byte {
		m := validChunk(job)
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
}

func withPosition(p map[string]any) func(job, pwned string) []byte {
	return changed(func(m map[string]any) { m["jobs"] = []map[string]any{p} })
}

func forgeries() []forged {
	return []forged{
		{name: "shell command in the engine spec (the old format)", reason: "not a chunk message: json: unknown field",
			body: func(job, pwned string) []byte {
				b, _ := json.Marshal(map[string]any{"job": job, "index": 0, "nonce": "0123456789abcdef0123456789abcdef",
					"spec":  map[string]any{"Command": []string{"/bin/sh", "-c", "echo pwned > " + pwned + "; exec false"}},
					"chunk": map[string]any{"Jobs": []map[string]any{{"WhiteToMove": true, "Limits": map[string]any{"Nodes": 1000}}}}})
				return b
			}},
		{name: "shell command as the engine name", reason: "is not one of sf15, sf18, sf19",
			body: func(job, pwned string) []byte {
				return changed(func(m map[string]any) {
					m["engine"] = map[string]any{"name": "/bin/sh -c 'echo pwned > " + pwned + "'", "threads": 1, "hash_mb": 16}
				})(job, pwned)
			}},
		{name: "engine auto", reason: `engine "auto" is not one of`,
			body: changed(func(m map[string]any) { m["engine"] = map[string]any{"name": "auto", "threads": 1, "hash_mb": 16} })},
		{name: "castling rights but no rooks", reason: "castling right 'K': no white rook on h1",
			body: withPosition(map[string]any{"fen": "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "white_to_move": true, "nodes": 1000})},
		{name: "empty board", reason: "illegal position",
			body: withPosition(map[string]any{"fen": "8/8/8/8/8/8/8/8 w - - 0 1", "white_to_move": true, "nodes": 1000})},
		{name: "negative index and no positions", reason: "chunk index -1 is negative", refusedSubject: true,
			body: changed(func(m map[string]any) { m["index"], m["jobs"] = -1, []any{} })},
		{name: "negative index in the subject", subject: "outpost.work.JOB.-1", reason: `bad chunk index "-1"`, refusedSubject: true,
			body: changed(func(m map[string]any) { m["index"], m["jobs"] = -1, []any{} })},
		{name: "no positions", reason: "no positions",
			body: changed(func(m map[string]any) { m["jobs"] = []any{} })},
		{name: "no budget", reason: "no budget",
			body: withPosition(map[string]any{"white_to_move": true})},
		{name: "illegal move", reason: `move 1: replay: illegal UCI move "e2e5"`,
			body: withPosition(map[string]any{"moves": []string{"e2e5"}, "white_to_move": false, "nodes": 1000})},
		{name: "hash above the bound", reason: "hash 100000 MB: want 1..2048",
			body: changed(func(m map[string]any) { m["engine"] = map[string]any{"name": "sf15", "threads": 1, "hash_mb": 100000} })},
		{name: "not JSON", reason: "not a chunk message", refusedSubject: true,
			body: func(string, string) []byte { return []byte("{") }},
	}
}

// Forged and malformed chunks published straight to the work stream of a
// real embedded server: the worker (with the real engine starter) runs no
// command and starts no engine, answers each chunk as failed with its
// reason exactly once, terminates it (never redelivered) and counts none
// as done.
func TestClusterWorkerRefusesForgedChunks(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	pwned := filepath.Join(t.TempDir(), "pwned")
	var starts atomic.Int64
	w := &cluster.Worker{Conn: connect(t, srv.URL()), ID: "w", Engines: 1, Settings: cluster.Settings{AckWait: testAckWait}, Logger: zerolog.Nop(),
		Start: func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
			starts.Add(1)
			return analysis.StartEngine(ctx, spec, log)
		}}
	stop := runWorker(w)
	stopped := false
	defer func() {
		if !stopped {
			_ = stop()
		}
	}()
	conn := connect(t, srv.URL())
	ctx := context.Background()
	if err := conn.Ensure(ctx, cluster.Settings{AckWait: testAckWait}, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	answers := resultsReader(t, conn)
	cases := forgeries()
	for i, c := range cases {
		job := fmt.Sprintf("%024x", i+1)
		subject := strings.ReplaceAll(c.subject, "JOB", job)
		if subject == "" {
			subject = "outpost.work." + job + ".0"
		}
		if _, err := conn.JS.Publish(ctx, subject, c.body(job, pwned)); err != nil {
			t.Fatalf("%s: publish: %v", c.name, err)
		}
		a, err := answers()
		if err != nil {
			t.Errorf("%s: no answer: %v", c.name, err)
			break
		}
		wantSubject := "outpost.results." + job + ".0"
		if c.refusedSubject {
			wantSubject = "outpost.results.refused."
		}
		if !strings.HasPrefix(a.subject, wantSubject) || a.Refused != subject || a.Worker != "w" || !strings.Contains(a.Err, c.reason) {
			t.Errorf("%s: answer on %s %+v; want on %s, refused %s, error with %q", c.name, a.subject, a, wantSubject, subject, c.reason)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if _, err := os.Stat(pwned); !os.IsNotExist(err) {
		t.Errorf("the forged command ran: %s exists (%v)", pwned, err)
	}
	if done, failed := w.Counts(); done != 0 || failed != int64(len(cases)) || starts.Load() != 0 {
		t.Errorf("worker counted %d done, %d failed, started %d engines; want 0, %d, 0", done, failed, starts.Load(), len(cases))
	}
	assertNothingLeft(t, conn, uint64(len(cases)))
}

// assertNothingLeft checks that no chunk waits, is in flight or was
// delivered twice, and that the results stream holds results answers.
// A worker terminates a refused chunk without waiting for the server's
// confirmation (JetStream's Term is not acknowledged), and the test reads
// through another connection, so the last terminations may land after the
// worker has stopped: the state is polled until it is right or answerWait
// has passed (a redelivery fails at once: it cannot be undone).
func assertNothingLeft(t *testing.T, conn *cluster.Conn, results uint64) {
	t.Helper()
	deadline := time.Now().Add(answerWait)
	for {
		problems := leftOver(t, conn, results)
		if len(problems) == 0 {
			return
		}
		if strings.Contains(problems[0], "redelivered") || time.Now().After(deadline) {
			for _, p := range problems {
				t.Error(p)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// leftOver describes what assertNothingLeft finds wrong now: a chunk
// redelivered first, then chunks pending or unacknowledged, then streams
// holding other counts than 0 chunks and results answers.
func leftOver(t *testing.T, conn *cluster.Conn, results uint64) []string {
	t.Helper()
	ctx := context.Background()
	cons, err := conn.JS.Consumer(ctx, cluster.WorkStream, cluster.WorkConsumer)
	if err != nil {
		t.Fatal(err)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	if ci.NumRedelivered != 0 {
		problems = append(problems, fmt.Sprintf("work consumer: %d redelivered; want none", ci.NumRedelivered))
	}
	if ci.NumPending != 0 || ci.NumAckPending != 0 {
		problems = append(problems, fmt.Sprintf("work consumer: %d pending, %d unacknowledged; want none", ci.NumPending, ci.NumAckPending))
	}
	for _, stream := range []string{cluster.WorkStream, cluster.ResultsStream} {
		want := map[string]uint64{cluster.WorkStream: 0, cluster.ResultsStream: results}[stream]
		s, err := conn.JS.Stream(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.CachedInfo().State.Msgs; got != want {
			problems = append(problems, fmt.Sprintf("stream %s holds %d messages, want %d", stream, got, want))
		}
	}
	return problems
}

// resultsReader returns a function that reads the next message of the
// results stream (each once, in order), waiting at most answerWait.
func resultsReader(t *testing.T, conn *cluster.Conn) func() (answer, error) {
	t.Helper()
	cons, err := conn.JS.OrderedConsumer(context.Background(), cluster.ResultsStream, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return func() (answer, error) {
		msg, err := cons.Next(jetstream.FetchMaxWait(answerWait))
		if err != nil {
			return answer{}, err
		}
		a := answer{subject: msg.Subject()}
		if err := json.Unmarshal(msg.Data(), &a); err != nil {
			return answer{}, fmt.Errorf("result %s: %w", msg.Data(), err)
		}
		return a, nil
	}
}

// A worker asked for an engine it does not have installed answers the
// chunk as failed with the reason, once, instead of handing it round until
// JetStream gives up; the submitter's job fails with that reason.
func TestClusterWorkerWithoutTheEngineAnswersFailed(t *testing.T) {
	noLeaks(t)
	t.Setenv(enginepath.EnvEnginesDir, t.TempDir()) // no native build: sf18 is not installed
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	w := &cluster.Worker{Conn: connect(t, srv.URL()), ID: "bare", Engines: 1, Settings: cluster.Settings{AckWait: testAckWait}, Logger: zerolog.Nop()}
	stop := runWorker(w)
	conn := connect(t, srv.URL())
	ctx, cancel := context.WithTimeout(context.Background(), 2*answerWait)
	defer cancel()
	d := &cluster.Dispatcher{Conn: conn, Settings: cluster.Settings{AckWait: testAckWait}, Logger: zerolog.Nop()}
	_, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf18"}}, []analysis.Chunk{{Jobs: ruyLopez(2)}}, nil)
	if err == nil || !strings.Contains(err.Error(), "engine sf18 is not installed on worker bare") || !strings.Contains(err.Error(), enginepath.InstallSF18Command) {
		t.Fatalf("job: %v; want the worker's reason", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if done, failed := w.Counts(); done != 0 || failed != 1 {
		t.Errorf("worker counted %d done, %d failed; want 0, 1", done, failed)
	}
	// the failed result stays (only the admin may purge); asked again, the
	// job publishes the chunk again (TestClusterFailedChunkIsNotSticky)
	assertNothingLeft(t, conn, 1)
}

// The dispatcher sends engine names, never a command: a command line, auto,
// UCI options or settings out of bounds are refused before anything is
// published; an alias goes out as its canonical name, which is what the
// worker's engine starter receives.
func TestDispatcherSendsNamesNotCommands(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	conn := connect(t, srv.URL())
	d := &cluster.Dispatcher{Conn: conn, Logger: zerolog.Nop()}
	chunks := []analysis.Chunk{{Jobs: ruyLopez(2)}}
	// a refused spec publishes nothing: without a worker, a published
	// chunk would leave RunChunks waiting until this deadline
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	for _, tt := range []struct {
		spec analysis.EngineSpec
		want string
	}{
		{analysis.EngineSpec{Command: []string{"/usr/games/stockfish"}}, `engine "/usr/games/stockfish" is a command line: a cluster runs only the named engines sf15, sf18, sf19`},
		{analysis.EngineSpec{Command: []string{"/bin/sh", "-c", "touch x; exec stockfish"}}, "is a command line"},
		{analysis.EngineSpec{Command: []string{"auto"}}, "is auto, which could pick Stockfish 19 on one worker"},
		{analysis.EngineSpec{Command: []string{"sf15"}, Options: map[string]string{"Debug Log File": "/tmp/x"}}, "UCI options are not sent"},
		{analysis.EngineSpec{Command: []string{"sf15"}, HashMB: 4096}, "hash 4096 MB: want 1..2048"},
		{analysis.EngineSpec{Command: []string{"sf15"}, Threads: 64}, "threads 64: want 1..32"},
	} {
		if _, err := d.RunChunks(ctx, tt.spec, chunks, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v; want an error with %q", tt.spec, err, tt.want)
		}
	}
	deep := ruyLopez(1)
	deep[0].Limits.Nodes = cluster.MaxNodes + 1
	if _, err := d.RunChunks(ctx, analysis.EngineSpec{}, []analysis.Chunk{{Jobs: deep}}, nil); err == nil || !strings.Contains(err.Error(), "chunk 0: position 0: nodes 1000000001") {
		t.Errorf("a budget above MaxNodes: %v", err)
	}
	assertNothingLeft(t, conn, 0)

	var mu sync.Mutex
	var got [][]string
	start := func(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, spec.Command)
		return &countingEngine{}, nil
	}
	stop := runWorker(&cluster.Worker{Conn: connect(t, srv.URL()), ID: "w", Start: start, Logger: zerolog.Nop()})
	defer stop()
	if _, err := d.RunChunks(context.Background(), analysis.EngineSpec{Command: []string{"Stockfish"}}, chunks, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || len(got[0]) != 1 || got[0][0] != "sf15" {
		t.Errorf("the worker started %v; want the name sf15", got)
	}
}
