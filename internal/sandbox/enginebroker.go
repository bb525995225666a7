package sandbox

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/uci"
)

// workJSON is an analysis request's work (the API's ExternalEngineWork).
type workJSON struct {
	SessionID  string   `json:"sessionId"`
	Threads    int      `json:"threads"`
	Hash       int      `json:"hash"`
	Deep       bool     `json:"deep,omitempty"`
	MultiPV    int      `json:"multiPv"`
	Variant    string   `json:"variant"`
	InitialFEN string   `json:"initialFen"`
	Moves      []string `json:"moves"`
	MoveTime   int      `json:"movetime,omitempty"`
	Depth      int      `json:"depth,omitempty"`
	Nodes      int64    `json:"nodes,omitempty"`
}

// engineJob is one analysis request between its requester and a provider.
type engineJob struct {
	id     string
	work   workJSON
	engine extEngine
	pos    *board.Board // after the moves: whose turn, PV legality

	taken chan struct{} // closed when a provider acquires the job
	emits chan emitJSON // the provider's output, as the requester gets it
	gone  chan struct{} // closed when the requester left
	ended chan struct{} // closed when the provider's upload ended
}

// emitPV and emitJSON are the requester's ndjson lines (lila-engine's
// EmitPv and Emit): scores from White's point of view, PVs legal and in
// Chess960 UCI, at most 30 moves.
type emitPV struct {
	Moves []string `json:"moves"`
	CP    *int     `json:"cp,omitempty"`
	Mate  *int     `json:"mate,omitempty"`
	Depth int      `json:"depth"`
}

type emitJSON struct {
	Time     int64     `json:"time"`
	Depth    int       `json:"depth"`
	Nodes    int64     `json:"nodes"`
	PVs      []*emitPV `json:"pvs"`
	BestMove string    `json:"bestmove,omitempty"`
	Ponder   string    `json:"ponder,omitempty"`
}

// handleEngineAnalyse serves POST /api/external-engine/{id}/analyse: the
// request is queued for the registration's provider; when no provider
// takes it within EngineStartWait the answer is 503; then the provider's
// output streams as ndjson until bestmove, or until the requester leaves
// (its provider's upload is then closed).
func (s *Server) handleEngineAnalyse(w http.ResponseWriter, r *http.Request, _ *account) {
	var req struct {
		ClientSecret string   `json:"clientSecret"`
		Work         workJSON `json:"work"`
	}
	if !readJSONBody(w, r, &req) {
		return
	}
	s.ext.mu.Lock()
	reg := s.ext.regs[r.PathValue("id")]
	var e extEngine
	if reg != nil && constantEqual(reg.ClientSecret, req.ClientSecret) {
		e = *reg
	}
	s.ext.mu.Unlock()
	if e.ID == "" {
		writeError(w, http.StatusNotFound, "No such engine, or wrong client secret")
		return
	}
	pos, msg := sanitize(&req.Work, &e)
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	s.mu.Lock()
	id := s.newID(16)
	s.mu.Unlock()
	job := &engineJob{id: id, work: req.Work, engine: e, pos: pos, taken: make(chan struct{}),
		emits: make(chan emitJSON, 64), gone: make(chan struct{}), ended: make(chan struct{})}
	defer close(job.gone)
	if !s.queueJob(job) {
		writeError(w, http.StatusServiceUnavailable, "Too many pending requests for this engine")
		return
	}
	_, startWait := s.engineWaits()
	t := time.NewTimer(startWait)
	defer t.Stop()
	select {
	case <-job.taken:
	case <-t.C:
		if s.unqueueJob(job) {
			writeError(w, http.StatusServiceUnavailable, "No engine provider picked up the request")
			return
		}
		<-job.taken // taken just now
	case <-r.Context().Done():
		s.unqueueJob(job)
		return
	}
	s.streamEmits(w, r, job)
}

// streamEmits writes the job's emits as ndjson until the last one (with
// bestmove), the end of the upload, or the requester leaving.
func (s *Server) streamEmits(w http.ResponseWriter, r *http.Request, job *engineJob) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusOK)
	flush(w)
	enc := json.NewEncoder(w)
	for {
		select {
		case em := <-job.emits:
			if enc.Encode(em) != nil {
				return
			}
			flush(w)
			if em.BestMove != "" {
				return
			}
		case <-job.ended:
			// Drain what the upload sent before it ended.
			for {
				select {
				case em := <-job.emits:
					_ = enc.Encode(em)
				default:
					flush(w)
					return
				}
			}
		case <-r.Context().Done():
			return
		}
	}
}

// readJSONBody reads the whole body (so that the server learns when the
// client goes away: net/http watches the connection only once the body is
// consumed) and decodes it, answering 400 when it is not valid JSON.
func readJSONBody(w http.ResponseWriter, r *http.Request, v any) bool {
	data, err := io.ReadAll(r.Body) // bounded by MaxRequestBody
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid JSON: "+err.Error())
		return false
	}
	return true
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// queueJob queues a job for its provider and wakes a waiting acquire.
func (s *Server) queueJob(job *engineJob) bool {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	key := job.engine.providerSecret
	if len(s.ext.queues[key]) >= maxQueuedJobs {
		return false
	}
	if s.ext.queues == nil {
		s.ext.queues, s.ext.wake, s.ext.ongoing = map[string][]*engineJob{}, map[string]chan struct{}{}, map[string]*engineJob{}
	}
	s.ext.queues[key] = append(s.ext.queues[key], job)
	if ch, ok := s.ext.wake[key]; ok {
		close(ch)
		delete(s.ext.wake, key)
	}
	return true
}

// unqueueJob removes a job nobody took; false when a provider took it.
func (s *Server) unqueueJob(job *engineJob) bool {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	q := s.ext.queues[job.engine.providerSecret]
	for i, j := range q {
		if j == job {
			s.ext.queues[job.engine.providerSecret] = append(q[:i:i], q[i+1:]...)
			return true
		}
	}
	return false
}

// takeJob pops the oldest job of secret whose requester is still there,
// or returns the channel that is closed when one is queued.
func (s *Server) takeJob(secret string) (*engineJob, <-chan struct{}) {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	for q := s.ext.queues[secret]; len(q) > 0; q = s.ext.queues[secret] {
		job := q[0]
		s.ext.queues[secret] = q[1:]
		select {
		case <-job.gone:
			continue
		default:
		}
		s.ext.ongoing[job.id] = job
		close(job.taken)
		return job, nil
	}
	if s.ext.wake == nil {
		s.ext.queues, s.ext.wake, s.ext.ongoing = map[string][]*engineJob{}, map[string]chan struct{}{}, map[string]*engineJob{}
	}
	ch, ok := s.ext.wake[secret]
	if !ok {
		ch = make(chan struct{})
		s.ext.wake[secret] = ch
	}
	return nil, ch
}

// handleEngineAcquire serves POST /api/external-engine/work: a long poll
// (EngineAcquireWait) for a job of any engine registered with the
// providerSecret; 204 when none came.
func (s *Server) handleEngineAcquire(w http.ResponseWriter, r *http.Request, _ *account) {
	var req struct {
		ProviderSecret string `json:"providerSecret"`
	}
	if !readJSONBody(w, r, &req) {
		return
	}
	if req.ProviderSecret == "" {
		writeError(w, http.StatusBadRequest, "Invalid request: providerSecret required")
		return
	}
	acquireWait, _ := s.engineWaits()
	t := time.NewTimer(acquireWait)
	defer t.Stop()
	for {
		job, wake := s.takeJob(req.ProviderSecret)
		if job != nil {
			e := job.engine
			writeJSON(w, http.StatusOK, map[string]any{"id": job.id, "work": job.work, "engine": e})
			return
		}
		select {
		case <-wake:
		case <-t.C:
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.WriteHeader(http.StatusNoContent)
			return
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// maxUploadLine bounds one line of a provider's upload (a PV of 30 moves
// is under 200 bytes; Stockfish's longest info lines are a few KiB).
const maxUploadLine = 64 << 10

// handleEngineSubmit serves POST /api/external-engine/work/{id}: the
// provider's UCI output for an acquired job, read line by line. A line
// that is not valid UCI output ends the job with 400; so does an upload
// that ends before bestmove. When the requester has left, the upload is
// closed (the body is abandoned, so the provider's writes fail) and
// answered 200.
func (s *Server) handleEngineSubmit(w http.ResponseWriter, r *http.Request, _ *account) {
	s.ext.mu.Lock()
	job := s.ext.ongoing[r.PathValue("id")]
	delete(s.ext.ongoing, r.PathValue("id"))
	s.ext.mu.Unlock()
	if job == nil {
		writeError(w, http.StatusNotFound, "No such job")
		return
	}
	defer close(job.ended)
	// Full duplex: the answer may go out while the upload still streams
	// (net/http would otherwise first read on, looking for its end).
	_ = http.NewResponseController(w).EnableFullDuplex()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r.Body)
		sc.Buffer(make([]byte, 4096), maxUploadLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-job.gone:
				return
			}
		}
		readErr <- sc.Err()
	}()
	st := &emitState{pos: job.pos}
	for {
		select {
		case <-job.gone:
			closeUpload(w, http.StatusOK, "")
			return
		case err := <-readErr:
			msg := "expected bestmove before end of stream"
			if err != nil {
				msg = "reading upload: " + err.Error()
			}
			writeError(w, http.StatusBadRequest, msg)
			return
		case line := <-lines:
			em, done, msg := st.update(strings.TrimSpace(line))
			if msg != "" {
				closeUpload(w, http.StatusBadRequest, msg)
				return
			}
			if em != nil {
				select {
				case job.emits <- *em:
				case <-job.gone:
				}
			}
			if done {
				writeOK(w)
				return
			}
		}
	}
}

// closeUpload answers an upload that is still streaming and closes its
// connection, so that the provider's next write fails: the handler's
// return would otherwise read up to 256 KiB more of the body (looking for
// its end), and a provider writing a line now and then would never hear
// of it.
func closeUpload(w http.ResponseWriter, status int, msg string) {
	if msg != "" {
		writeError(w, status, msg)
	} else {
		writeOK(w)
	}
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if conn, _, err := rc.Hijack(); err == nil {
		_ = conn.Close()
	}
}

// emitState folds a provider's lines into the requester's emits as
// lila-engine's Emit::update does: a line of multipv 1 sets time, depth
// and nodes and starts a new set of PVs; an emit goes out once every PV
// of the set is known, and at bestmove.
type emitState struct {
	pos *board.Board
	cur emitJSON
}

// update takes one line: the emit to send (or nil), whether the job ended,
// or why the line is refused.
func (st *emitState) update(line string) (*emitJSON, bool, string) {
	switch {
	case line == "":
		return nil, false, ""
	case line == "bestmove" || strings.HasPrefix(line, "bestmove "):
		f := strings.Fields(line)
		if len(f) < 2 || (f[1] != "(none)" && !uci.IsMove(f[1])) {
			return nil, false, "invalid bestmove: " + clipText(line)
		}
		em := st.cur
		em.PVs = nil
		for _, pv := range st.cur.PVs {
			if pv != nil {
				em.PVs = append(em.PVs, pv)
			}
		}
		em.BestMove = f[1]
		if len(f) >= 4 && f[2] == "ponder" {
			em.Ponder = f[3]
		}
		return &em, true, ""
	case !strings.HasPrefix(line, "info "):
		return nil, false, "" // other engine output is ignored
	}
	in, err := uci.ParseInfo(line)
	if err != nil {
		return nil, false, "invalid uci: " + err.Error()
	}
	if in.MultiPV < 1 || in.MultiPV > 5 {
		return nil, false, "invalid multipv: supported range is 1 to 5"
	}
	if in.MultiPV == 1 {
		st.cur.Time, st.cur.Depth, st.cur.Nodes = in.Time.Milliseconds(), in.Depth, in.Nodes
		for i := range st.cur.PVs {
			st.cur.PVs[i] = nil
		}
	} else {
		st.cur.Depth = min(st.cur.Depth, in.Depth)
	}
	for len(st.cur.PVs) < in.MultiPV {
		st.cur.PVs = append(st.cur.PVs, nil)
	}
	if (in.HasScore || in.Mated) && len(in.PV) > 0 && (in.MultiPV > 1 || (!in.LowerBound && !in.UpperBound)) {
		st.cur.PVs[in.MultiPV-1] = st.pv(in)
	}
	for _, pv := range st.cur.PVs {
		if pv == nil {
			return nil, false, ""
		}
	}
	em := st.cur
	em.PVs = append([]*emitPV(nil), st.cur.PVs...)
	return &em, false, ""
}

// pv is an info line's PV as the requester sees it.
func (st *emitState) pv(in uci.Info) *emitPV {
	b := st.pos.Clone()
	out := &emitPV{Depth: in.Depth, Moves: []string{}}
	for _, m := range in.PV[:min(len(in.PV), 30)] {
		mv, err := b.ParseUCI(m)
		if err != nil {
			break
		}
		out.Moves = append(out.Moves, mv.String())
		b.Make(mv)
	}
	sign := 1
	if st.pos.SideToMove() != board.White {
		sign = -1
	}
	switch {
	case in.Mated:
		v := 0
		out.Mate = &v
	case in.Score.IsMate():
		v := sign * in.Score.Mate
		out.Mate = &v
	default:
		v := sign * in.Score.CP
		out.CP = &v
	}
	return out
}
