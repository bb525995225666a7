package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
)

// The expected winrate at a game report's critical moments is computed in
// the background: the report page's event stream starts the game's job
// (one job per game, shared by every open page), jobs run one at a time,
// and a finished job stays in memory so that the next view renders its
// numbers at once. Across restarts the ewr result cache in the store makes
// a recomputation instant. A job nobody watches any more is cancelled
// after a grace period.

// Moment states.
const (
	momentQueued  = "queued"
	momentRunning = "running"
	momentDone    = "done"
	momentFailed  = "failed"
)

// Job states.
const (
	jobRunning     = "running"
	jobDone        = "done"
	jobUnavailable = "unavailable"
	jobCancelled   = "cancelled"
)

// defaultMomentsGrace is how long a job nobody watches goes on.
const defaultMomentsGrace = 15 * time.Second

// maxMomentJobs bounds the jobs kept in memory.
const maxMomentJobs = 64

// momentsThrottle spaces a stream's updates.
const momentsThrottle = 100 * time.Millisecond

// momentView is one critical moment as the page shows it.
type momentView struct {
	Ply     int
	Label   string // "7… Nf6??"
	Why     string // "White's critical moment", "our bot's move (Mistake)"
	Link    string // the explorer at the position before the move
	State   string
	Phase   string
	Message string
	Done    int
	Total   int
	Error   string

	Rating, OpponentRating int
	Played, Best           ewr.MoveResult
	PlayedWasBest          bool
	Partial, Cached        bool
}

// Percent is the moment's progress for the progress bar (0..100).
func (m momentView) Percent() int {
	if m.Total <= 0 {
		return 0
	}
	return min(100, 100*m.Done/m.Total)
}

// Loss is how much expected winrate the played move gave away, in
// percentage points.
func (m momentView) Loss() string {
	return fmt.Sprintf("%.1f", 100*(m.Best.ExpectedWinrate-m.Played.ExpectedWinrate))
}

// momentsView is the critical moments of one game.
type momentsView struct {
	GameID    string
	Available bool
	State     string
	Error     string
	Moments   []momentView
}

// momentsJob computes one game's critical moments.
type momentsJob struct {
	view     momentsView
	changed  chan struct{} // closed and replaced at every change
	finished bool
	subs     int
	cancel   context.CancelFunc
	ended    time.Time
}

// maxBotMoments bounds the moves of our bot added to the critical
// moments.
const maxBotMoments = 3

// criticalViews lists the moments of a stored game to compute: each side's
// critical moment (ewr.CriticalPlies), then up to maxBotMoments other
// judged moves of our bot (botColor "white" or "black"), the worst
// (judgement, then loss of winning chances) in game order.
func criticalViews(a *analysis.Analysis, gameID, botColor string) []momentView {
	var out []momentView
	add := func(ply int, why string) {
		out = append(out, momentView{Ply: ply, Label: plyLabel(a.Plies[ply-1]), Why: why, State: momentQueued,
			Link: "/explorer?game=" + gameID + "&ply=" + itoa(ply-1)})
	}
	taken := map[int]bool{}
	for _, ply := range ewr.CriticalPlies(a) {
		if ply < 1 || ply > len(a.Plies) {
			continue
		}
		side := "Black"
		if a.Plies[ply-1].White() {
			side = "White"
		}
		add(ply, side+"'s critical moment")
		taken[ply] = true
	}
	for _, ply := range botPlies(a, botColor, taken) {
		add(ply, "our bot's move ("+strings.ToLower(a.Plies[ply-1].Judgement.String())+")")
	}
	return out
}

// botPlies returns up to maxBotMoments judged moves of our bot not taken:
// the worst judgements, then the largest losses, in game order.
func botPlies(a *analysis.Analysis, botColor string, taken map[int]bool) []int {
	if botColor != "white" && botColor != "black" {
		return nil
	}
	var cand []*analysis.Ply
	for i := range a.Plies {
		p := &a.Plies[i]
		if p.White() != (botColor == "white") || p.Judgement == analysis.NoJudgement || taken[p.Ply] {
			continue
		}
		cand = append(cand, p)
	}
	loss := func(p *analysis.Ply) float64 {
		if p.Delta == nil {
			return 0
		}
		return *p.Delta
	}
	sort.SliceStable(cand, func(i, j int) bool {
		if cand[i].Judgement != cand[j].Judgement {
			return cand[i].Judgement > cand[j].Judgement
		}
		return loss(cand[i]) > loss(cand[j])
	})
	var out []int
	for _, p := range cand[:min(maxBotMoments, len(cand))] {
		out = append(out, p.Ply)
	}
	sort.Ints(out)
	return out
}

// plyLabel is a move's number, SAN and judgement sign: "7… Nf6??".
func plyLabel(p analysis.Ply) string {
	label := itoa(p.MoveNumber) + "… " + p.SAN
	if p.White() {
		label = itoa(p.MoveNumber) + ". " + p.SAN
	}
	return label + p.Judgement.NAG()
}

// gameForEWR is the game of an analysis with both players' ratings; a
// rating missing from the analysis is the stored opponent's when known.
func gameForEWR(a *analysis.Analysis, g store.Game) ewr.Game {
	eg := ewr.FromAnalysis(a)
	if g.OpponentRating > 0 {
		if g.Color == "white" && eg.BlackRating == 0 {
			eg.BlackRating = g.OpponentRating
		}
		if g.Color == "black" && eg.WhiteRating == 0 {
			eg.WhiteRating = g.OpponentRating
		}
	}
	return eg
}

// momentsSnapshot returns the game's job view when a job exists for these
// moments.
func (s *Server) momentsSnapshot(id string, views []momentView) (momentsView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.momentJobs[id]
	if !ok || !samePlies(j.view.Moments, views) {
		return momentsView{}, false
	}
	return cloneView(j.view), true
}

// samePlies reports whether two lists of moments are of the same plies.
func samePlies(a, b []momentView) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Ply != b[i].Ply {
			return false
		}
	}
	return true
}

func cloneView(v momentsView) momentsView {
	v.Moments = append([]momentView(nil), v.Moments...)
	return v
}

// momentsJobFor returns the game's job, starting it when there is none,
// and subscribes to it.
func (s *Server) momentsJobFor(id string, a *analysis.Analysis, g store.Game) *momentsJob {
	views := criticalViews(a, id, g.Color)
	s.mu.Lock()
	defer s.mu.Unlock()
	if j, ok := s.momentJobs[id]; ok && (!j.finished || samePlies(j.view.Moments, views)) {
		j.subs++
		return j
	}
	ctx, cancel := context.WithCancel(s.bg)
	j := &momentsJob{
		view:    momentsView{GameID: id, Available: true, State: jobRunning, Moments: views},
		changed: make(chan struct{}),
		subs:    1,
		cancel:  cancel,
	}
	if s.bg.Err() != nil {
		// The server is closing (Close holds s.mu while it cancels s.bg).
		cancel()
		j.view.State, j.finished = jobCancelled, true
		return j
	}
	// No job, or a finished one of an earlier analysis of the game.
	delete(s.momentJobs, id)
	s.evictMomentJobs()
	s.momentJobs[id] = j
	s.wg.Add(1)
	go s.runMoments(ctx, id, j, gameForEWR(a, g))
	return j
}

// evictMomentJobs drops the finished jobs ended longest ago beyond the
// bound (s.mu held).
func (s *Server) evictMomentJobs() {
	for len(s.momentJobs) >= maxMomentJobs {
		oldest := ""
		for k, j := range s.momentJobs {
			if j.finished && (oldest == "" || j.ended.Before(s.momentJobs[oldest].ended)) {
				oldest = k
			}
		}
		if oldest == "" {
			return
		}
		delete(s.momentJobs, oldest)
	}
}

// unsubscribe leaves a job; a running job nobody watches is cancelled
// after the grace period.
func (s *Server) unsubscribe(id string, j *momentsJob) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j.subs--
	if j.subs > 0 || j.finished {
		return
	}
	time.AfterFunc(s.momentsGrace, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if j.subs == 0 && !j.finished {
			j.cancel()
			if s.momentJobs[id] == j {
				delete(s.momentJobs, id)
			}
		}
	})
}

// update changes a job's view and wakes its streams (f runs with s.mu
// held).
func (s *Server) update(j *momentsJob, f func(v *momentsView)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&j.view)
	close(j.changed)
	j.changed = make(chan struct{})
}

// runMoments computes the job's moments one after the other (the
// calculation of ewr.AnalyseCritical with per-moment progress: a moment
// shows as soon as it is ready, and one that fails leaves the others).
func (s *Server) runMoments(ctx context.Context, id string, j *momentsJob, g ewr.Game) {
	defer s.wg.Done()
	defer j.cancel()
	finish := func(state, msg string, keep bool) {
		s.update(j, func(v *momentsView) {
			v.State, v.Error = state, msg
			j.finished, j.ended = true, time.Now()
			if !keep && s.momentJobs[id] == j {
				delete(s.momentJobs, id)
			}
		})
	}
	// One job at a time: the engines are shared.
	select {
	case s.momentsSem <- struct{}{}:
		defer func() { <-s.momentsSem }()
	case <-ctx.Done():
		finish(jobCancelled, "cancelled", false)
		return
	}
	failed := false
	for i := range j.view.Moments {
		ply := j.view.Moments[i].Ply
		s.update(j, func(v *momentsView) { v.Moments[i].State, v.Moments[i].Message = momentRunning, "Starting…" })
		m, err := s.opt.Calculator.Moment(ctx, g, ply, func(p Progress) {
			s.update(j, func(v *momentsView) {
				mv := &v.Moments[i]
				mv.Phase = p.Phase.String()
				if p.Message != "" {
					mv.Message = p.Message
				}
				mv.Done, mv.Total = p.Done, p.Total
			})
		})
		switch {
		case errors.Is(err, ErrUnavailable):
			// Every moment would fail alike: say it once.
			finish(jobUnavailable, err.Error(), true)
			return
		case ctx.Err() != nil:
			finish(jobCancelled, "cancelled", false)
			return
		case err != nil:
			failed = true
			s.opt.Logger.Warn().Err(err).Str("game", id).Int("ply", ply).Msg("web: critical moment")
			s.update(j, func(v *momentsView) { v.Moments[i].State, v.Moments[i].Error = momentFailed, err.Error() })
			continue
		}
		s.update(j, func(v *momentsView) {
			mv := &v.Moments[i]
			mv.State, mv.Message = momentDone, ""
			mv.Rating, mv.OpponentRating = m.Rating, m.OpponentRating
			mv.Played, mv.Best, mv.PlayedWasBest = m.Played, m.Best, m.PlayedWasBest()
			if m.Result != nil {
				mv.Partial, mv.Cached = m.Result.Partial, m.Result.Cached
			}
		})
	}
	// A failed moment is retried on the next view (the others come from
	// the result cache then).
	finish(jobDone, "", !failed)
}

// momentsEvent is the JSON of a "moments" event: the section rendered.
type momentsEvent struct {
	State string `json:"state"`
	HTML  string `json:"html"`
}

// renderMoments renders the moments section's body.
func (s *Server) renderMoments(v momentsView) (string, error) {
	var b bytes.Buffer
	if err := s.pages["game"].ExecuteTemplate(&b, "moments", v); err != nil {
		return "", fmt.Errorf("web: render moments: %w", err)
	}
	return b.String(), nil
}

// momentsEvents streams a game's critical moments as they are computed,
// starting the computation if needed; the stream ends when it is done.
func (s *Server) momentsEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	// The stream starts engine work: only the console's own pages may.
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		http.Error(w, "outpost serve: refused: cross-site request", http.StatusForbidden)
		return
	}
	if s.opt.Calculator == nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "expected winrate is not available: this console has no Maia/Stockfish calculator"})
		return
	}
	g, err := s.opt.Store.Game(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, "outpost serve: no game "+id, http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "outpost serve: "+err.Error(), http.StatusInternalServerError)
		return
	}
	a, err := s.storedAnalysis(r.Context(), id)
	if err != nil {
		http.Error(w, "outpost serve: game "+id+": "+err.Error(), http.StatusConflict)
		return
	}
	es, ok := newSSE(w)
	if !ok {
		return
	}
	j := s.momentsJobFor(id, a, g)
	defer s.unsubscribe(id, j)
	for {
		s.mu.Lock()
		v, changed, finished := cloneView(j.view), j.changed, j.finished
		s.mu.Unlock()
		html, err := s.renderMoments(v)
		if err != nil {
			_ = es.send("failure", map[string]string{"error": err.Error()})
			return
		}
		if es.send("moments", momentsEvent{State: v.State, HTML: html}) != nil || finished {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-s.bg.Done():
			return
		}
		select {
		case <-time.After(momentsThrottle):
		case <-r.Context().Done():
			return
		case <-s.bg.Done():
			return
		}
	}
}

// storedAnalysis reads a game's finished analysis from the store.
func (s *Server) storedAnalysis(ctx context.Context, id string) (*analysis.Analysis, error) {
	sa, err := s.opt.Store.AnalysisOf(ctx, id)
	if err != nil {
		return nil, err
	}
	if sa.Result == "" {
		return nil, errors.New("not analysed yet")
	}
	var a analysis.Analysis
	if err := json.Unmarshal([]byte(sa.Result), &a); err != nil {
		return nil, fmt.Errorf("the stored analysis cannot be read: %w", err)
	}
	return &a, nil
}
