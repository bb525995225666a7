package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
)

// The chunk message is the only thing a worker takes from the bus, and
// decodeChunk is the only way a worker reads one. No command line crosses
// the wire: a chunk names an engine of a fixed set, which each worker
// resolves on its own machine (enginepath), with bounded settings, and
// every position passes the project's one position check (analysis/replay,
// i.e. board.FromFENChecked, then each move's legality) before an engine
// sees it. Anything else is refused: the worker answers the chunk as
// failed with the reason, once, and terminates it (docs/cluster.md,
// "What a worker accepts").

// Bounds of a chunk. A chunk outside them is refused by the worker, and the
// dispatcher refuses to publish one.
const (
	// MaxThreads bounds an engine's threads: more than any one machine of
	// a cluster is expected to give one engine (a worker runs --engines
	// engines at once, each with this many threads).
	MaxThreads = 32
	// MaxHashMB bounds an engine's hash: 128 times Stockfish's default of
	// 16 MB, which Lichess's fishnet keeps; a forged chunk cannot make a
	// worker's engine allocate more than this.
	MaxHashMB = 2048
	// MaxNodes bounds one position's node budget: about ten minutes of one
	// native engine thread (1.6 M nodes/s), 1,000 times Lichess's budget
	// and 50 times the deepest re-search of the deep preset (5 M × 4).
	MaxNodes = 1_000_000_000
	// MaxDepth bounds one position's depth budget: far above what any
	// preset or the expected-winrate depths (15–25) use; Stockfish's own
	// limit is 245.
	MaxDepth = 64
	// MaxChunkPositions bounds the positions of one chunk (the analysis
	// sends 5, fishnet's chunk, or 1).
	MaxChunkPositions = 64
	// maxMoves bounds the moves of one position: the longest game the
	// 75-move rule allows is 5,949 moves (11,898 plies).
	maxMoves = 11_898
	// maxFENLen bounds a FEN's length: the longest legal FEN is under 100
	// characters.
	maxFENLen = 128
	// maxReasonLen bounds the reason sent back with a refused chunk.
	maxReasonLen = 1000
)

// Engines returns the engine names a chunk may carry: each worker resolves
// them on its own machine. "auto" is not one of them: it could run
// Stockfish 19 on one worker and 15.1 on another within one job.
func Engines() []string {
	return []string{enginepath.Stockfish15, enginepath.Stockfish18, enginepath.Stockfish19}
}

// EngineSettings are the engine settings a chunk carries: a name of
// Engines() and bounded settings, never a command.
type EngineSettings struct {
	Name    string `json:"name"`
	Threads int    `json:"threads"`
	HashMB  int    `json:"hash_mb"`
}

// String is the settings as the status shows them.
func (s EngineSettings) String() string {
	return fmt.Sprintf("%s threads=%d hash=%dMB", s.Name, s.Threads, s.HashMB)
}

// check refuses a name outside Engines() and settings out of bounds.
func (s EngineSettings) check() error {
	if !slices.Contains(Engines(), s.Name) {
		return fmt.Errorf("engine %q is not one of %s", clip(s.Name), strings.Join(Engines(), ", "))
	}
	if s.Threads < 1 || s.Threads > MaxThreads {
		return fmt.Errorf("threads %d: want 1..%d", s.Threads, MaxThreads)
	}
	if s.HashMB < 1 || s.HashMB > MaxHashMB {
		return fmt.Errorf("hash %d MB: want 1..%d", s.HashMB, MaxHashMB)
	}
	return nil
}

// spec is the engine spec a worker starts: the name, which StartEngine
// resolves on this machine.
func (s EngineSettings) spec() analysis.EngineSpec {
	return analysis.EngineSpec{Command: []string{s.Name}, Threads: s.Threads, HashMB: s.HashMB}
}

// EngineFor returns the settings a chunk carries for an analysis engine
// spec: its command must be one engine name of Engines() (any spelling
// enginepath accepts, e.g. "stockfish" for sf15), with no extra options,
// and threads and hash within bounds (0 means 1 thread and
// analysis.DefaultHashMB, as a local pool). A command line (a path, a
// program with arguments) is refused: the workers would have to run it.
func EngineFor(spec analysis.EngineSpec) (EngineSettings, error) {
	cmd := spec.Command
	if len(cmd) == 0 {
		cmd = analysis.DefaultEngineCommand()
	}
	name := enginepath.Name(cmd)
	if !slices.Contains(Engines(), name) {
		why := "a command line"
		if name == enginepath.Auto {
			why = "auto, which could pick Stockfish 19 on one worker and 15.1 on another"
		}
		return EngineSettings{}, fmt.Errorf("engine %q is %s: a cluster runs only the named engines %s, each resolved on the worker's machine",
			strings.Join(cmd, " "), why, strings.Join(Engines(), ", "))
	}
	if len(spec.Options) > 0 {
		return EngineSettings{}, fmt.Errorf("engine %s: UCI options are not sent to a cluster", name)
	}
	s := EngineSettings{Name: name, Threads: spec.Threads, HashMB: spec.HashMB}
	if s.Threads <= 0 {
		s.Threads = 1
	}
	if s.HashMB <= 0 {
		s.HashMB = analysis.DefaultHashMB
	}
	if err := s.check(); err != nil {
		return EngineSettings{}, err
	}
	return s, nil
}

// chunkMsg is one chunk on the work stream.
type chunkMsg struct {
	Job   string `json:"job"`
	Index int    `json:"index"`
	// Nonce identifies this publication of the chunk: its message ids
	// (chunk and result) carry it, so a chunk published again later (its
	// result was purged or failed) is not dropped as a duplicate.
	Nonce  string         `json:"nonce"`
	Engine EngineSettings `json:"engine"`
	Jobs   []wireJob      `json:"jobs"`
	Warmup *wireJob       `json:"warmup,omitempty"`
}

// wireJob is one position of a chunk: the position (a FEN, "" for the
// standard start, and the moves played from it), the side to move, and
// the budget. A skipped (terminal) position is not searched: the
// submitter fills in its outcome.
type wireJob struct {
	FEN         string   `json:"fen,omitempty"`
	Moves       []string `json:"moves,omitempty"`
	Chess960    bool     `json:"chess960,omitempty"`
	WhiteToMove bool     `json:"white_to_move"`
	Nodes       int64    `json:"nodes,omitempty"`
	Depth       int      `json:"depth,omitempty"`
	Skip        bool     `json:"skip,omitempty"`
}

// toWire is the wire form of a job; only a node or depth budget (and one
// line) can be sent.
func toWire(j analysis.Job) (wireJob, error) {
	l := j.Limits
	if l.MoveTime != 0 || l.WTime != 0 || l.BTime != 0 || l.WInc != 0 || l.BInc != 0 || l.MovesToGo != 0 || len(l.SearchMoves) > 0 || l.MultiPV > 1 {
		return wireJob{}, errors.New("only node and depth budgets of one line are sent to a cluster")
	}
	return wireJob{FEN: j.Pos.FEN, Moves: j.Pos.Moves, Chess960: j.Pos.Chess960, WhiteToMove: j.WhiteToMove,
		Nodes: l.Nodes, Depth: l.Depth, Skip: j.Skip}, nil
}

// job is the analysis job of a checked wire job (a skipped job's outcome
// is left empty: the submitter has it).
func (w wireJob) job() analysis.Job {
	moves := w.Moves
	if len(moves) == 0 {
		moves = nil // "moves": [] and no moves are the same position
	}
	return analysis.Job{Pos: uci.Position{FEN: w.FEN, Moves: moves, Chess960: w.Chess960}, WhiteToMove: w.WhiteToMove,
		Limits: uci.Limits{Nodes: w.Nodes, Depth: w.Depth}, Skip: w.Skip}
}

// check runs the one position check on the job's position and bounds its
// budget.
func (w wireJob) check() error {
	if len(w.FEN) > maxFENLen {
		return fmt.Errorf("fen of %d characters: want at most %d", len(w.FEN), maxFENLen)
	}
	if len(w.Moves) > maxMoves {
		return fmt.Errorf("%d moves: want at most %d", len(w.Moves), maxMoves)
	}
	b, err := replay.NewVariant(w.FEN, w.Chess960)
	if err != nil {
		return err
	}
	for i, u := range w.Moves {
		m, err := b.ParseUCI(u)
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		b = b.Play(m)
	}
	switch {
	case w.WhiteToMove != b.WhiteToMove():
		return fmt.Errorf("white_to_move is %v but the position has the other side to move", w.WhiteToMove)
	case w.Skip && !b.Checkmate() && !b.Stalemate():
		return errors.New("a position with legal moves is marked skip")
	case w.Nodes < 0 || w.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d: want 1..%d", w.Nodes, MaxNodes)
	case w.Depth < 0 || w.Depth > MaxDepth:
		return fmt.Errorf("depth %d: want 1..%d", w.Depth, MaxDepth)
	case !w.Skip && w.Nodes == 0 && w.Depth == 0:
		return errors.New("no budget: want nodes or depth (a search without one never ends)")
	}
	return nil
}

// encodeChunk is the message of chunk index of job, checked as a worker
// will check it.
func encodeChunk(job string, index int, nonce string, eng EngineSettings, c analysis.Chunk) ([]byte, error) {
	m := chunkMsg{Job: job, Index: index, Nonce: nonce, Engine: eng}
	for i, j := range c.Jobs {
		w, err := toWire(j)
		if err != nil {
			return nil, fmt.Errorf("position %d: %w", i, err)
		}
		m.Jobs = append(m.Jobs, w)
	}
	if c.Warmup != nil {
		w, err := toWire(*c.Warmup)
		if err != nil {
			return nil, fmt.Errorf("warm-up position: %w", err)
		}
		m.Warmup = &w
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// decoded is a checked chunk, ready for an engine.
type decoded struct {
	job    string
	index  int
	nonce  string
	engine EngineSettings
	chunk  analysis.Chunk
}

// decodeChunk reads the chunk message data delivered on subject: strict
// JSON (an unknown field, such as an engine command, is refused), the
// subject and the body naming the same chunk, then every check of
// chunkMsg.check. The error says what is wrong.
func decodeChunk(subject string, data []byte) (*decoded, error) {
	job, index, err := parseSubject(workPrefix, subject)
	if err != nil {
		return nil, err
	}
	var m chunkMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a chunk message: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a chunk message: data after the message")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if m.Job != job || m.Index != index {
		return nil, fmt.Errorf("the message names job %s chunk %d, its subject %s", m.Job, m.Index, clip(subject))
	}
	d := &decoded{job: m.Job, index: m.Index, nonce: m.Nonce, engine: m.Engine}
	for _, w := range m.Jobs {
		d.chunk.Jobs = append(d.chunk.Jobs, w.job())
	}
	if m.Warmup != nil {
		wj := m.Warmup.job()
		d.chunk.Warmup = &wj
	}
	return d, nil
}

// route is what a worker needs to answer a chunk it refuses: the chunk's
// job, index and nonce, when the subject names a chunk and the message,
// read leniently, names the same chunk with a well-formed nonce (ok).
// Without them the answer names no job (outpost.results.refused.SEQ).
type route struct {
	job   string
	index int
	nonce string
	ok    bool
}

// peekRoute reads the route of a chunk message decodeChunk refused.
func peekRoute(subject string, data []byte) route {
	job, index, err := parseSubject(workPrefix, subject)
	if err != nil || !isHex(job, jobIDLen) {
		return route{}
	}
	var m struct {
		Job   string `json:"job"`
		Index int    `json:"index"`
		Nonce string `json:"nonce"`
	}
	if json.Unmarshal(data, &m) != nil || m.Job != job || m.Index != index || !isHex(m.Nonce, nonceLen) {
		return route{job: job, index: index}
	}
	return route{job: job, index: index, nonce: m.Nonce, ok: true}
}

// check bounds the message and checks its engine and every position.
func (m *chunkMsg) check() error {
	switch {
	case !isHex(m.Job, jobIDLen):
		return fmt.Errorf("job %q: want %d hex digits", clip(m.Job), jobIDLen)
	case m.Index < 0:
		return fmt.Errorf("chunk index %d is negative", m.Index)
	case !isHex(m.Nonce, nonceLen):
		return fmt.Errorf("nonce %q: want %d hex digits", clip(m.Nonce), nonceLen)
	case len(m.Jobs) == 0:
		return errors.New("no positions")
	case len(m.Jobs) > MaxChunkPositions:
		return fmt.Errorf("%d positions: want at most %d", len(m.Jobs), MaxChunkPositions)
	}
	if err := m.Engine.check(); err != nil {
		return err
	}
	for i, j := range m.Jobs {
		if err := j.check(); err != nil {
			return fmt.Errorf("position %d: %w", i, err)
		}
	}
	if m.Warmup != nil {
		if m.Warmup.Skip {
			return errors.New("warm-up position: marked skip")
		}
		if err := m.Warmup.check(); err != nil {
			return fmt.Errorf("warm-up position: %w", err)
		}
	}
	return nil
}

// isHex reports whether s is n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// clip shortens an untrusted string quoted in a reason.
func clip(s string) string {
	const n = 64
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
