package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/easy"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/lichess/runner"
)

// BenchmarkMoveLatency measures the daemon's own latency per move, as the
// issue defines it: from a gameState line arriving in the client to the
// move request being sent, minus the engine's thinking time. It plays games
// of the instant easy engine against the sandbox on loopback (3+0),
// everything in one process as `outpost run --sandbox` does: b.N games one
// after the other (games=1), and b.N rounds of 4 simultaneous games against
// 4 sparring partners (games=4), where moves of different games share the
// client's one-request-at-a-time discipline.
//
// The figures are taken on the wire, not from the runner's own account:
// the daemon's HTTP transport timestamps every game-stream line when its
// bytes are read and every move request when it is handed to the
// transport, and the engine (inside the bots.Fallback the daemon always
// uses, so the fallback's checks count as the daemon's time) timestamps
// its own thinking. Per move: request time - arrival of the line with the
// position the engine was given - engine time. It reports p50, p99 and
// the maximum in ms, the number of moves measured, moves that could not
// be attributed (should be 0), and the runner's self-reported p99.
//
//	go test ./internal/demo -run '^$' -bench MoveLatency -benchtime 3x
func BenchmarkMoveLatency(b *testing.B) {
	for _, games := range []int{1, 4} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchMoveLatency(b, games) })
	}
}

func benchMoveLatency(b *testing.B, simultaneous int) {
	cfg := config.Default()
	cfg.Engines.Default = "easy"
	cfg.Summary.Enabled = false
	cfg.Challenge.MaxGames = simultaneous
	cfg.Challenge.MaxGamesPerOpponent = 1
	var mu sync.Mutex
	var self []time.Duration
	hooks := daemon.Hooks{RunnerDone: func(out runner.Outcome, err error) {
		mu.Lock()
		self = append(self, out.Latencies...)
		mu.Unlock()
	}}
	rec := &wireRecorder{}
	engines := func(ctx context.Context, name string) (engine.Engine, error) {
		prim, err := easy.New()
		if err != nil {
			return nil, err
		}
		sec, err := easy.New()
		if err != nil {
			return nil, err
		}
		return bots.NewFallback(&timedEngine{Engine: prim, rec: rec}, sec), nil
	}
	ctx := testContext(b, 10*time.Minute)
	opt := Options{Config: cfg, Games: b.N * simultaneous, TC: "3+0", Dir: b.TempDir(), Logger: zerolog.Nop(), Hooks: hooks,
		Engines: engines, Sparrers: simultaneous}
	opt.Client.HTTPClient = &http.Client{Transport: &wireTransport{base: http.DefaultTransport.(*http.Transport).Clone(), rec: rec}}
	b.ResetTimer()
	if _, err := Run(ctx, opt); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()

	lat, unmatched, err := rec.latencies()
	if err != nil {
		b.Fatal(err)
	}
	if len(lat) == 0 {
		b.Fatal("no moves measured")
	}
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
	b.ReportMetric(percentile(lat, 1), "max-ms")
	b.ReportMetric(float64(len(lat)), "moves")
	b.ReportMetric(float64(unmatched), "unmatched")
	mu.Lock()
	defer mu.Unlock()
	if len(self) > 0 {
		b.ReportMetric(percentile(self, 0.99), "runner-p99-ms")
	}
}

// percentile returns the p-th percentile (nearest rank) of ds in ms; it
// sorts ds.
func percentile(ds []time.Duration, p float64) float64 {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[int(p*float64(len(ds)-1)+0.5)].Microseconds()) / 1000
}

// wireRecorder collects the timestamps the latency is computed from.
type wireRecorder struct {
	mu       sync.Mutex
	lines    []streamLine
	requests []moveRequest
	thoughts []engineCall
}

type streamLine struct {
	game string
	at   time.Time
	raw  []byte
}

type moveRequest struct {
	game, uci string
	at        time.Time
}

type engineCall struct {
	moves      string // the position's moves, space-separated
	uci        string
	start, end time.Time
}

// latencies attributes every move request to the engine call that chose it
// and to the stream line that carried the position the engine was given.
// Requests it cannot attribute (a fallback move, a resent move) are
// counted as unmatched.
func (w *wireRecorder) latencies() ([]time.Duration, int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	type arrival struct {
		game, moves string
		at          time.Time
	}
	var arrivals []arrival
	for _, l := range w.lines {
		var ev struct {
			Type  string `json:"type"`
			Moves string `json:"moves"`
			State struct {
				Moves string `json:"moves"`
			} `json:"state"`
		}
		if err := json.Unmarshal(l.raw, &ev); err != nil {
			return nil, 0, err
		}
		switch ev.Type {
		case "gameFull":
			arrivals = append(arrivals, arrival{l.game, ev.State.Moves, l.at})
		case "gameState":
			arrivals = append(arrivals, arrival{l.game, ev.Moves, l.at})
		}
	}
	// arrivalFor returns the latest line of game carrying moves that
	// arrived by t, or -1.
	arrivalFor := func(game, moves string, t time.Time) int {
		ai := -1
		for i, a := range arrivals {
			if a.game == game && a.moves == moves && !a.at.After(t) {
				ai = i
			}
		}
		return ai
	}
	used := make([]bool, len(w.thoughts))
	var lat []time.Duration
	unmatched := 0
	for _, r := range w.requests {
		ci, ai := -1, -1
		for i, c := range w.thoughts {
			if used[i] || c.uci != r.uci || c.end.After(r.at) || (ci >= 0 && !c.end.After(w.thoughts[ci].end)) {
				continue
			}
			if a := arrivalFor(r.game, c.moves, c.start); a >= 0 {
				ci, ai = i, a
			}
		}
		if ci < 0 {
			unmatched++
			continue
		}
		used[ci] = true
		c := w.thoughts[ci]
		lat = append(lat, r.at.Sub(arrivals[ai].at)-c.end.Sub(c.start))
	}
	return lat, unmatched, nil
}

// timedEngine records the wrapped engine's thinking time per call.
type timedEngine struct {
	engine.Engine
	rec *wireRecorder
}

func (e *timedEngine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	start := time.Now()
	m, err := e.Engine.SelectMove(ctx, pos, lim)
	end := time.Now()
	e.rec.mu.Lock()
	e.rec.thoughts = append(e.rec.thoughts, engineCall{moves: strings.Join(pos.Moves, " "), uci: m.UCI, start: start, end: end})
	e.rec.mu.Unlock()
	return m, err
}

// NewGame forwards to the engine when it keeps per-game state.
func (e *timedEngine) NewGame(ctx context.Context) error {
	if s, ok := e.Engine.(engine.Stateful); ok {
		return s.NewGame(ctx)
	}
	return nil
}

// wireTransport timestamps the daemon's game-stream lines and move
// requests.
type wireTransport struct {
	base http.RoundTripper
	rec  *wireRecorder
}

func (t *wireTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	// POST /api/bot/game/{id}/move/{uci}
	if req.Method == http.MethodPost && len(parts) == 6 && parts[2] == "game" && parts[4] == "move" {
		at := time.Now()
		t.rec.mu.Lock()
		t.rec.requests = append(t.rec.requests, moveRequest{game: parts[3], uci: parts[5], at: at})
		t.rec.mu.Unlock()
	}
	resp, err := t.base.RoundTrip(req)
	// GET /api/bot/game/stream/{id}
	if err == nil && req.Method == http.MethodGet && len(parts) == 5 && parts[2] == "game" && parts[3] == "stream" {
		resp.Body = &lineTimer{ReadCloser: resp.Body, game: parts[4], rec: t.rec}
	}
	return resp, err
}

// lineTimer stamps each complete ndjson line with the time its last bytes
// were read; the lines are parsed only after the run.
type lineTimer struct {
	io.ReadCloser
	game    string
	rec     *wireRecorder
	partial []byte
}

func (l *lineTimer) Read(p []byte) (int, error) {
	n, err := l.ReadCloser.Read(p)
	if n == 0 {
		return n, err
	}
	at := time.Now()
	chunk := p[:n]
	for {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			l.partial = append(l.partial, chunk...)
			break
		}
		line := append(l.partial, chunk[:i]...)
		l.partial = nil
		chunk = chunk[i+1:]
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		l.rec.mu.Lock()
		l.rec.lines = append(l.rec.lines, streamLine{game: l.game, at: at, raw: bytes.Clone(line)})
		l.rec.mu.Unlock()
	}
	return n, err
}
