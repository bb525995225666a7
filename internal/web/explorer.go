package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// jobTTL is how long a started calculation waits for its event stream.
const jobTTL = time.Minute

// maxJobs bounds calculations waiting for their streams.
const maxJobs = 16

// job is a calculation requested by POST /api/ewr and run by the event
// stream that claims it.
type job struct {
	pos     ewr.Position
	params  ewr.Params
	created time.Time
}

type explorerData struct {
	Available  bool
	FEN        string
	StartFEN   string
	Moves      string
	Board      template.HTML
	Error      string
	Source     string
	Thresholds []float64
	Depths     []int
	Ratings    []int
	Defaults   ewr.Params
}

// position resolves the explorer's position from the query: ?game=ID&ply=N
// (the position after N plies of a stored game), else ?fen=FEN (default:
// the standard start).
func (s *Server) position(ctx context.Context, q map[string][]string) (ewr.Position, string, string, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if id := get("game"); id != "" {
		g, err := s.opt.Store.Game(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return ewr.Position{}, "", "", fmt.Errorf("no game %s in the store", id)
		}
		if err != nil {
			return ewr.Position{}, "", "", err
		}
		moves := strings.Fields(g.Moves)
		n := len(moves)
		if p := get("ply"); p != "" {
			v, err := strconv.Atoi(p)
			if err != nil || v < 0 || v > len(moves) {
				return ewr.Position{}, "", "", fmt.Errorf("ply %q: want 0..%d", p, len(moves))
			}
			n = v
		}
		start := g.InitialFEN
		if start == "startpos" {
			start = ""
		}
		pos := ewr.Position{StartFEN: start, Moves: moves[:n]}
		fen, err := fenOf(pos)
		return pos, fen, fmt.Sprintf("game %s after %d plies", id, n), err
	}
	fen := strings.TrimSpace(get("fen"))
	pos := ewr.Position{StartFEN: fen}
	f, err := fenOf(pos)
	return pos, f, "", err
}

// fenOf replays a position and returns its FEN.
func fenOf(pos ewr.Position) (string, error) {
	start := pos.StartFEN
	if start == "" {
		start = svgboard.StartFEN
	}
	if _, err := svgboard.ParsePlacement(start); err != nil {
		return "", err
	}
	fens, err := svgboard.PositionFENs(start, pos.Moves)
	if err != nil {
		return "", err
	}
	if len(fens) == 0 {
		// Validate the whole FEN, not only its placement.
		if _, err := svgboard.PositionFENs(start, nil); err != nil {
			return "", err
		}
		return start, nil
	}
	return fens[len(fens)-1], nil
}

func (s *Server) explorer(w http.ResponseWriter, r *http.Request) {
	d := explorerData{Available: s.opt.Calculator != nil, Thresholds: ewr.Thresholds, Depths: ewr.Depths, Defaults: ewr.DefaultParams()}
	for r := ewr.MinRating; r <= ewr.MaxRating; r += 100 {
		d.Ratings = append(d.Ratings, r)
	}
	pos, fen, src, err := s.position(r.Context(), r.URL.Query())
	status := http.StatusOK
	if err != nil {
		d.Error = err.Error()
		status = http.StatusBadRequest
		pos, fen = ewr.Position{}, svgboard.StartFEN
	}
	d.FEN, d.StartFEN, d.Moves, d.Source = fen, pos.StartFEN, strings.Join(pos.Moves, " "), src
	opt := svgboard.Options{Label: "Analysis position", Flip: strings.Contains(fen, " b ")}
	if n := len(pos.Moves); n > 0 {
		if f, t, ok := svgboard.MoveSquares(pos.Moves[n-1]); ok {
			opt.Highlight = []string{f, t}
		}
	}
	svg, err := svgboard.SVG(fen, opt)
	if err != nil {
		d.Error = err.Error()
	}
	d.Board = template.HTML(svg)
	s.render(w, status, "explorer", page{Title: "Expected winrate", Nav: "explorer", Scripts: []string{"explorer.js"}, Data: d})
}

// ewrRequest is the body of POST /api/ewr.
type ewrRequest struct {
	StartFEN string     `json:"start_fen"`
	Moves    []string   `json:"moves"`
	Params   ewr.Params `json:"params"`
	// Mode is the calculation's mode (ewr.Modes): by default the settle
	// mode, unless Params already name a tree depth (a variant).
	Mode string `json:"mode,omitempty"`
}

// withMode applies the request's mode to its parameters; false for an
// unknown mode.
func (req ewrRequest) withMode() (ewr.Params, bool) {
	if req.Mode == "" && req.Params.TreeDepth != 0 {
		return req.Params, true
	}
	return req.Params.WithMode(req.Mode)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// startEWR validates a calculation request and registers it; the client
// then opens /api/ewr/{id}/events, which runs it.
func (s *Server) startEWR(w http.ResponseWriter, r *http.Request) {
	if s.opt.Calculator == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "expected winrate is not available: this console has no Maia/Stockfish calculator"})
		return
	}
	var req ewrRequest
	dec := json.NewDecoder(r.Body) // bounded by MaxRequestBody
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err == nil {
		// One JSON value is the request: anything after it (a second
		// value, garbage) is refused rather than silently dropped.
		var extra json.RawMessage
		var mb *http.MaxBytesError
		switch e := dec.Decode(&extra); {
		case e == io.EOF:
		case errors.As(e, &mb):
			err = e // 413, as for any body past the limit
		default:
			err = errors.New("data after the request's JSON object")
		}
	}
	if err != nil {
		status, msg := bodyError(err)
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	if req.Params.MaxNodes == 0 {
		req.Params.MaxNodes = ewr.DefaultMaxNodes
	}
	p, ok := req.withMode()
	if !ok {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": fmt.Sprintf("mode %q: use %s", req.Mode, strings.Join(ewr.Modes, ", "))})
		return
	}
	req.Params = p
	if err := req.Params.Validate(); err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": err.Error()})
		return
	}
	if len(req.Moves) > 1000 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "too many moves"})
		return
	}
	pos := ewr.Position{StartFEN: strings.TrimSpace(req.StartFEN), Moves: req.Moves}
	if _, err := fenOf(pos); err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": err.Error()})
		return
	}
	idb := make([]byte, 16)
	if _, err := rand.Read(idb); err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	id := hex.EncodeToString(idb)
	s.mu.Lock()
	now := time.Now()
	for k, j := range s.jobs {
		if now.Sub(j.created) > jobTTL {
			delete(s.jobs, k)
		}
	}
	if len(s.jobs) >= maxJobs {
		s.mu.Unlock()
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "too many calculations waiting; try again"})
		return
	}
	s.jobs[id] = &job{pos: pos, params: req.Params, created: now}
	s.mu.Unlock()
	writeJSON(w, http.StatusAccepted, map[string]string{"id": id, "events": "/api/ewr/" + id + "/events"})
}

// progressEvent is the JSON of a "progress" event. Trees, when set, are
// the candidates' probability trees (sent when the Maia trees are built;
// winrates not evaluated yet are null); Evals are the Stockfish
// evaluations since the previous event, for the page to fill in the
// trees' winrates as they arrive.
type progressEvent struct {
	Phase   string               `json:"phase"`
	Message string               `json:"message,omitempty"`
	Done    int                  `json:"done"`
	Total   int                  `json:"total"`
	Ranking []ewr.MoveResult     `json:"ranking,omitempty"`
	Trees   map[string]*ewr.Node `json:"trees,omitempty"`
	Evals   []Evaluation         `json:"evals,omitempty"`
}

// resultEvent is the JSON of the final "result" event.
type resultEvent struct {
	*ewr.Result
	Nodes       int `json:"nodes"`
	EngineEvals int `json:"engine_evals"`
	MaiaCalls   int `json:"maia_calls"`
}

// ewrEvents runs a registered calculation, streaming "progress" events,
// then "result" or "failure". Leaving the page cancels it.
func (s *Server) ewrEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	j, ok := s.jobs[id]
	delete(s.jobs, id)
	s.mu.Unlock()
	if !ok {
		http.Error(w, "outpost serve: no such calculation (it ran already or expired)", http.StatusNotFound)
		return
	}
	es, ok := newSSE(w)
	if !ok {
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	progress := func(e Progress) {
		pe := progressEvent{Phase: e.Phase.String(), Message: e.Message, Done: e.Done, Total: e.Total, Ranking: e.Ranking,
			Trees: e.Trees, Evals: e.Evaluated}
		if e.Phase == ewr.PhaseDone {
			// The result event carries the final trees.
			pe.Trees = nil
		}
		if err := es.send("progress", pe); err != nil {
			cancel()
		}
	}
	res, err := s.opt.Calculator.Calculate(ctx, j.pos, j.params, progress)
	if err != nil {
		if r.Context().Err() == nil {
			_ = es.send("failure", map[string]string{"error": err.Error()})
		}
		return
	}
	_ = es.send("result", resultEvent{Result: res, Nodes: res.Stats.Nodes, EngineEvals: res.Stats.EngineEvals, MaiaCalls: res.Stats.MaiaCalls})
}

// boardSVG renders a position: ?fen=FEN[&last=UCI][&flip=1].
func (s *Server) boardSVG(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	opt := svgboard.Options{Flip: q.Get("flip") == "1", Label: q.Get("label")}
	if f, t, ok := svgboard.MoveSquares(q.Get("last")); ok {
		opt.Highlight = []string{f, t}
	}
	svg, err := svgboard.SVG(q.Get("fen"), opt)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	_, _ = io.WriteString(w, svg)
}
