package sandbox

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/outpostchess/outpost/bots/board"
)

// External engines, as lichess.org registers them (lila's external engine
// API: /api/external-engine, scopes engine:read and engine:write) and as
// its broker lila-engine serves them (src/main.rs: acquire, analyse and
// submit; src/api.rs Work::sanitize; src/emit.rs Emit; src/hub.rs). Both run
// on this host: a provider's broker URL is the sandbox's own. See
// docs/sandbox.md "External engines".

// extEngineRoutes are the external-engine operations.
func (s *Server) extEngineRoutes() []route {
	return []route{
		{"GET", "/api/external-engine", authUser, s.handleEngineList},
		{"POST", "/api/external-engine", authUser, s.handleEngineCreate},
		{"GET", "/api/external-engine/{id}", authUser, s.handleEngineGet},
		{"PUT", "/api/external-engine/{id}", authUser, s.handleEngineUpdate},
		{"DELETE", "/api/external-engine/{id}", authUser, s.handleEngineDelete},
		// the broker (engine.lichess.ovh), on this host
		{"POST", "/api/external-engine/work", authNone, s.handleEngineAcquire},
		{"POST", "/api/external-engine/work/{id}", authNone, s.handleEngineSubmit},
		{"POST", "/api/external-engine/{id}/analyse", authNone, s.handleEngineAnalyse},
	}
}

// isEngineUpload reports whether r is a provider's upload, which streams
// for as long as the search: it is bounded by its lines, not by
// MaxRequestBody.
func isEngineUpload(r *http.Request) bool {
	return r.Method == "POST" && strings.HasPrefix(r.URL.Path, "/api/external-engine/work/")
}

// Bounds of the sandbox's registrations (lila's form and the API's
// ExternalEngineRegistration), and its own bound on registrations per user.
const (
	maxEnginesPerUser  = 64
	maxProviderDataLen = 8192
	// maxQueuedJobs is lila-engine's hub bound (MAX_ITEMS) per provider.
	maxQueuedJobs = 1024
)

// extEngines is the registrations and the broker's state.
type extEngines struct {
	mu      sync.Mutex
	regs    map[string]*extEngine    // by id
	queues  map[string][]*engineJob  // pending jobs by provider secret
	wake    map[string]chan struct{} // closed when a job is queued for a secret
	ongoing map[string]*engineJob    // acquired jobs by job id
}

// extEngine is one registration.
type extEngine struct {
	ID             string   `json:"id"`
	Name           string   `json:"name"`
	ClientSecret   string   `json:"clientSecret"`
	UserID         string   `json:"userId"`
	MaxThreads     int      `json:"maxThreads"`
	MaxHash        int      `json:"maxHash"`
	Variants       []string `json:"variants"`
	ProviderData   *string  `json:"providerData"`
	providerSecret string
}

// registrationJSON is the body of a create or update.
type registrationJSON struct {
	Name           string   `json:"name"`
	MaxThreads     int      `json:"maxThreads"`
	MaxHash        int      `json:"maxHash"`
	Variants       []string `json:"variants"`
	ProviderSecret string   `json:"providerSecret"`
	ProviderData   *string  `json:"providerData"`
}

// engineVariants are the API's UciVariant names.
var engineVariants = []string{"chess", "crazyhouse", "antichess", "atomic", "horde", "kingofthehill", "racingkings", "3check"}

// check validates a registration as lila's form does, naming the field.
func (reg *registrationJSON) check() string {
	switch n := utf8.RuneCountInString(strings.TrimSpace(reg.Name)); {
	case n < 3 || n > 200:
		return "name: must be 3 to 200 characters"
	case reg.MaxThreads < 1 || reg.MaxThreads > 65536:
		return "maxThreads: must be between 1 and 65536"
	case reg.MaxHash < 1 || reg.MaxHash > 1048576:
		return "maxHash: must be between 1 and 1048576"
	case len(reg.ProviderSecret) < 16 || len(reg.ProviderSecret) > 1024:
		return "providerSecret: must be 16 to 1024 characters"
	case reg.ProviderData != nil && len(*reg.ProviderData) > maxProviderDataLen:
		return fmt.Sprintf("providerData: at most %d characters", maxProviderDataLen)
	}
	for _, v := range reg.Variants {
		if !slices.Contains(engineVariants, v) {
			return fmt.Sprintf("variants: unknown variant %q", v)
		}
	}
	return ""
}

func (s *Server) handleEngineList(w http.ResponseWriter, r *http.Request, acc *account) {
	s.ext.mu.Lock()
	out := []extEngine{}
	for _, e := range s.ext.regs {
		if e.UserID == acc.id {
			out = append(out, *e)
		}
	}
	s.ext.mu.Unlock()
	slices.SortFunc(out, func(a, b extEngine) int { return strings.Compare(a.ID, b.ID) })
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleEngineGet(w http.ResponseWriter, r *http.Request, acc *account) {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	if e := s.ownEngine(w, r, acc); e != nil {
		writeJSON(w, http.StatusOK, *e)
	}
}

// readRegistration decodes and checks a create or update body.
func readRegistration(w http.ResponseWriter, r *http.Request) (*registrationJSON, bool) {
	var reg registrationJSON
	if err := json.NewDecoder(r.Body).Decode(&reg); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid JSON: "+err.Error())
		return nil, false
	}
	if msg := reg.check(); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return nil, false
	}
	if len(reg.Variants) == 0 {
		reg.Variants = []string{"chess"}
	}
	return &reg, true
}

func (e *extEngine) apply(reg *registrationJSON) {
	e.Name, e.MaxThreads, e.MaxHash = strings.TrimSpace(reg.Name), reg.MaxThreads, reg.MaxHash
	e.Variants, e.ProviderData, e.providerSecret = reg.Variants, reg.ProviderData, reg.ProviderSecret
}

func (s *Server) handleEngineCreate(w http.ResponseWriter, r *http.Request, acc *account) {
	reg, ok := readRegistration(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	id, secret := "eei_"+s.newID(12), "ees_"+s.newID(16)
	s.mu.Unlock()
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	n := 0
	for _, e := range s.ext.regs {
		if e.UserID == acc.id {
			n++
		}
	}
	if n >= maxEnginesPerUser {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Too many engines: at most %d per user", maxEnginesPerUser))
		return
	}
	if s.ext.regs == nil {
		s.ext.regs = map[string]*extEngine{}
	}
	e := &extEngine{ID: id, ClientSecret: secret, UserID: acc.id}
	e.apply(reg)
	s.ext.regs[id] = e
	writeJSON(w, http.StatusOK, *e)
}

func (s *Server) handleEngineUpdate(w http.ResponseWriter, r *http.Request, acc *account) {
	reg, ok := readRegistration(w, r)
	if !ok {
		return
	}
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	if e := s.ownEngine(w, r, acc); e != nil {
		e.apply(reg)
		writeJSON(w, http.StatusOK, *e)
	}
}

func (s *Server) handleEngineDelete(w http.ResponseWriter, r *http.Request, acc *account) {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	if e := s.ownEngine(w, r, acc); e != nil {
		delete(s.ext.regs, e.ID)
		writeOK(w)
	}
}

// ownEngine returns the request's {id} registration when it is acc's, or
// answers 404 (another user's engine is not told apart from none) and
// returns nil. Called with s.ext.mu held.
func (s *Server) ownEngine(w http.ResponseWriter, r *http.Request, acc *account) *extEngine {
	e := s.ext.regs[r.PathValue("id")]
	if e == nil || e.UserID != acc.id {
		writeError(w, http.StatusNotFound, "No such engine")
		return nil
	}
	return e
}

// ExternalEngines returns the registrations (for tests and inspection),
// without their provider secrets.
func (s *Server) ExternalEngines() []string {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	var out []string
	for _, e := range s.ext.regs {
		out = append(out, e.UserID+": "+e.Name)
	}
	slices.Sort(out)
	return out
}

// sanitize checks an analysis request's work against the registration as
// lila-engine's Work::sanitize does: a supported variant, a legal initial
// position and legal moves (castling king takes rook), at most 600 moves,
// multiPv 1..5, exactly one limit; threads and hash are capped by the
// registration. It returns the board after the moves.
func sanitize(wk *workJSON, e *extEngine) (*board.Board, string) {
	switch {
	case !slices.Contains(e.Variants, wk.Variant):
		return nil, "unsupported variant"
	case wk.MultiPV < 1 || wk.MultiPV > 5:
		return nil, "invalid multipv: supported range is 1 to 5"
	case wk.Threads < 1 || wk.Hash < 1:
		return nil, "threads and hash must be positive"
	case len(wk.Moves) > 600:
		return nil, "too many moves"
	case wk.Variant != "chess":
		return nil, "unsupported variant" // the sandbox plays chess only
	}
	limits := 0
	for _, n := range []int64{int64(wk.MoveTime), int64(wk.Depth), wk.Nodes} {
		if n < 0 {
			return nil, "negative limit"
		}
		if n > 0 {
			limits++
		}
	}
	if limits != 1 {
		return nil, "exactly one of movetime, depth and nodes is required"
	}
	b, err := board.FromFENVariant(wk.InitialFEN, true)
	if err != nil {
		return nil, "illegal initial position: " + err.Error()
	}
	wk.InitialFEN = b.FEN()
	moves := make([]string, 0, len(wk.Moves))
	for _, m := range wk.Moves {
		mv, err := b.ParseUCI(m)
		if err != nil {
			return nil, fmt.Sprintf("illegal uci: %q", clipText(m))
		}
		moves = append(moves, mv.String())
		b.Make(mv)
	}
	wk.Moves = moves
	wk.Threads, wk.Hash = min(wk.Threads, e.MaxThreads), min(wk.Hash, e.MaxHash)
	return b, ""
}

// clipText shortens a value quoted in an answer.
func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// engineWait returns the configured broker waits.
func (s *Server) engineWaits() (acquire, start time.Duration) {
	acquire, start = s.cfg.EngineAcquireWait, s.cfg.EngineStartWait
	if acquire <= 0 {
		acquire = 10 * time.Second
	}
	if start <= 0 {
		start = 15 * time.Second
	}
	return acquire, start
}

// constantEqual compares secrets in constant time.
func constantEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
