package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// authKind is what a route requires of the caller.
type authKind int

const (
	authNone     authKind = iota // public
	authOptional                 // public, but a token is used when sent
	authUser                     // any account
	authBot                      // a BOT account (the BOT API)
	authBoard                    // a non-BOT account (the Board API)
)

// handlerFunc is a route handler; acc is the caller (nil on public routes
// without a token).
type handlerFunc func(w http.ResponseWriter, r *http.Request, acc *account)

// route is one served operation.
type route struct {
	method, pattern string
	auth            authKind
	h               handlerFunc
}

// routeTable lists every operation the sandbox serves, with Lichess's paths.
func (s *Server) routeTable() []route {
	rs := []route{
		{"POST", "/api/token/test", authNone, s.handleTokenTest},
		{"GET", "/api/account", authUser, s.handleAccount},
		{"GET", "/api/account/playing", authUser, s.handleAccountPlaying},
		{"POST", "/api/bot/account/upgrade", authUser, s.handleBotUpgrade},
		{"GET", "/api/stream/event", authUser, s.handleEventStream},
		{"GET", "/api/bot/online", authNone, s.handleBotOnline},
		{"GET", "/api/user/{username}", authOptional, s.handleUser},
		{"GET", "/api/users/status", authNone, s.handleUsersStatus},
		{"GET", "/api/challenge", authUser, s.handleChallengeList},
		{"POST", "/api/challenge/{username}", authUser, s.handleChallengeCreate},
		{"POST", "/api/challenge/{challengeId}/accept", authUser, s.handleChallengeAccept},
		{"POST", "/api/challenge/{challengeId}/decline", authUser, s.handleChallengeDecline},
		{"POST", "/api/challenge/{challengeId}/cancel", authUser, s.handleChallengeCancel},
		{"POST", "/api/bulk-pairing", authUser, s.handleBulkPairing},
		{"GET", "/game/export/{gameId}", authOptional, s.handleGameExport},
		{"GET", "/api/games/user/{username}", authOptional, s.handleUserGames},
		{"GET", "/api/cloud-eval", authOptional, s.handleCloudEval},
		// explorer.lichess.org and tablebase.lichess.org, on this host
		{"GET", "/masters", authOptional, s.handleExplorerMasters},
		{"GET", "/lichess", authOptional, s.handleExplorerLichess},
		{"GET", "/standard", authNone, s.handleTablebase},
	}
	rs = append(rs, s.extEngineRoutes()...)
	rs = append(rs, s.arenaRoutes()...)
	for _, api := range []struct {
		prefix string
		auth   authKind
	}{{"/api/bot", authBot}, {"/api/board", authBoard}} {
		rs = append(rs,
			route{"GET", api.prefix + "/game/stream/{gameId}", api.auth, s.handleGameStream},
			route{"POST", api.prefix + "/game/{gameId}/move/{move}", api.auth, s.handleMove},
			route{"POST", api.prefix + "/game/{gameId}/chat", api.auth, s.handleChatPost},
			route{"GET", api.prefix + "/game/{gameId}/chat", api.auth, s.handleChatGet},
			route{"POST", api.prefix + "/game/{gameId}/abort", api.auth, s.handleAbort},
			route{"POST", api.prefix + "/game/{gameId}/resign", api.auth, s.handleResign},
			route{"POST", api.prefix + "/game/{gameId}/draw/{accept}", api.auth, s.handleDraw},
			route{"POST", api.prefix + "/game/{gameId}/takeback/{accept}", api.auth, s.handleTakeback},
			route{"POST", api.prefix + "/game/{gameId}/claim-victory", api.auth, s.handleClaimVictory},
			route{"POST", api.prefix + "/game/{gameId}/claim-draw", api.auth, s.handleClaimDraw},
		)
	}
	return rs
}

// router dispatches requests to the route table. Lichess has paths that
// http.ServeMux patterns cannot tell apart (/api/bot/game/stream/{id} and
// /api/bot/game/{id}/chat), so the most literal matching pattern wins.
type router struct {
	routes []compiledRoute
}

// compiledRoute is a route with its pattern split into segments.
type compiledRoute struct {
	route
	segs     []string
	literals int
	handler  http.HandlerFunc
}

// routes builds the router of the route table.
func (s *Server) routes() *router {
	rt := &router{}
	for _, r := range s.routeTable() {
		segs := strings.Split(strings.Trim(r.pattern, "/"), "/")
		lit := 0
		for _, seg := range segs {
			if !strings.HasPrefix(seg, "{") {
				lit++
			}
		}
		rt.routes = append(rt.routes, compiledRoute{route: r, segs: segs, literals: lit, handler: s.authenticate(r.auth, acceptedScopes(r), r.h)})
	}
	return rt
}

// ServeHTTP implements http.Handler.
func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	var best *compiledRoute
	var bestVals map[string]string
	methodMismatch := false
	for i := range rt.routes {
		cr := &rt.routes[i]
		vals, ok := cr.match(parts)
		if !ok {
			continue
		}
		if cr.method != r.Method {
			methodMismatch = true
			continue
		}
		if best == nil || cr.literals > best.literals {
			best, bestVals = cr, vals
		}
	}
	switch {
	case best != nil:
		for k, v := range bestVals {
			r.SetPathValue(k, v)
		}
		best.handler(w, r)
	case methodMismatch:
		writeError(w, http.StatusMethodNotAllowed, "Method not allowed.")
	default:
		writeError(w, http.StatusNotFound, "Not found.")
	}
}

// match matches path segments against the pattern and returns the values
// of its {name} segments.
func (cr *compiledRoute) match(parts []string) (map[string]string, bool) {
	if len(parts) != len(cr.segs) {
		return nil, false
	}
	vals := map[string]string{}
	for i, seg := range cr.segs {
		if strings.HasPrefix(seg, "{") {
			if parts[i] == "" {
				return nil, false
			}
			vals[strings.Trim(seg, "{}")] = parts[i]
			continue
		}
		if seg != parts[i] {
			return nil, false
		}
	}
	return vals, true
}

// maxRequestRecords bounds the request log; the older half is dropped when
// it is full.
const maxRequestRecords = 20000

// statusWriter remembers the status code and user of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	user   string
}

// WriteHeader implements http.ResponseWriter.
func (sw *statusWriter) WriteHeader(code int) {
	if sw.status == 0 {
		sw.status = code
	}
	sw.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (sw *statusWriter) Write(b []byte) (int, error) {
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	return sw.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (sw *statusWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }

// Flush implements http.Flusher.
func (sw *statusWriter) Flush() {
	if f, ok := sw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// MaxRequestBody bounds every request body the sandbox reads (bytes), as
// Lichess bounds its own: forms and chat lines are far smaller.
const MaxRequestBody = 1 << 20

// ServeHTTP implements http.Handler: it records the request, applies the
// request faults and dispatches.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.now()
	sw := &statusWriter{ResponseWriter: w}
	var hw *holdWriter // the answer withheld by a hold fault, or nil
	abandoned := false
	defer func() {
		rec := RequestRecord{Time: start, Method: r.Method, Path: r.URL.Path, Status: sw.status, User: sw.user}
		if hw != nil {
			rec.Held, rec.Abandoned = true, abandoned
			if abandoned {
				rec.Status = hw.heldStatus()
			}
		}
		s.record(rec)
	}()
	if acc := s.lookupToken(r); acc != nil {
		sw.user = acc.id
	}
	rf := s.faults.forRequest(r.Method, r.URL.Path)
	if rf.delay > 0 {
		t := time.NewTimer(rf.delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if rf.hold != nil {
		hw = &holdWriter{w: sw}
		abandoned = !s.serveHeld(hw, r, rf, rf.hold)
		return
	}
	s.serve(sw, r, rf)
}

// record logs a request, keeps its record and calls Config.OnRequest.
func (s *Server) record(rec RequestRecord) {
	s.mu.Lock()
	if len(s.requests) >= maxRequestRecords {
		s.requests = append(s.requests[:0], s.requests[len(s.requests)-maxRequestRecords/2:]...)
	}
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if s.cfg.OnRequest != nil {
		s.cfg.OnRequest(rec)
	}
	ev := s.log.Debug().Str("method", rec.Method).Str("path", rec.Path).Int("status", rec.Status).Str("user", rec.User)
	if rec.Held {
		ev = ev.Bool("held", true).Bool("abandoned", rec.Abandoned)
	}
	ev.Msg("request")
}

// serve answers a request with the injected 429 or 5xx, or dispatches it.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rf requestFault) {
	if f := rf.fail; f != nil {
		s.writeFault(w, f)
		return
	}
	if r.Body != nil && !isEngineUpload(r) {
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBody)
	}
	s.mux.ServeHTTP(w, r)
}

// serveHeld handles a request caught by a hold fault: the handler runs at
// once (its effects happen), its answer goes out only when release is
// closed. A handler still running then (a stream) writes through from
// there on. It reports whether the answer went out; false means the client
// gave up (or the server closed) first, and never got it.
func (s *Server) serveHeld(hw *holdWriter, r *http.Request, rf requestFault, release <-chan struct{}) bool {
	handled := make(chan struct{})
	watched := make(chan struct{})
	go func() { // releases a handler that is still running (a stream)
		defer close(watched)
		select {
		case <-release:
			hw.release()
		case <-handled:
		}
	}()
	s.serve(hw, r, rf)
	close(handled)
	<-watched
	select {
	case <-release:
		hw.release()
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}

// holdWriter withholds an answer: while held, the status and body the
// handler writes are kept; release sends them, and writes after it go
// straight out. Its methods are safe for concurrent use.
type holdWriter struct {
	w      *statusWriter
	mu     sync.Mutex
	status int
	body   bytes.Buffer
	out    bool // released
}

// Header implements http.ResponseWriter (the header goes out with the
// status, at the release).
func (h *holdWriter) Header() http.Header { return h.w.Header() }

// WriteHeader implements http.ResponseWriter.
func (h *holdWriter) WriteHeader(code int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out {
		h.w.WriteHeader(code)
		return
	}
	if h.status == 0 {
		h.status = code
	}
}

// Write implements http.ResponseWriter.
func (h *holdWriter) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out {
		return h.w.Write(b)
	}
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// Flush implements http.Flusher; while held it does nothing (the release
// flushes).
func (h *holdWriter) Flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out {
		h.w.Flush()
	}
}

// release sends what was withheld and lets later writes through.
func (h *holdWriter) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out {
		return
	}
	h.out = true
	if h.status == 0 {
		return // nothing written yet: the handler writes through
	}
	h.w.WriteHeader(h.status)
	_, _ = h.w.Write(h.body.Bytes())
	h.w.Flush()
}

// heldStatus is the status of the answer the handler wrote.
func (h *holdWriter) heldStatus() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.status
}

// writeFault answers a request with an injected 429 or 5xx.
func (s *Server) writeFault(w http.ResponseWriter, f *Fault) {
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
	}
	if f.Kind == FaultServerError {
		status := f.Status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		writeError(w, status, http.StatusText(status))
		return
	}
	if !f.RateLimitBody {
		writeError(w, http.StatusTooManyRequests, "Too many requests. Try again later.")
		return
	}
	key := f.RateLimitKey
	if key == "" {
		key = "api.sandbox"
	}
	secs := f.RateLimitSeconds
	if secs == 0 {
		secs = 60
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"error":     "Too many requests. Try again later.",
		"ratelimit": map[string]any{"key": key, "seconds": secs},
	})
}

// lookupToken returns the account of the request's bearer token, if any.
func (s *Server) lookupToken(r *http.Request) *account {
	tok, ok := bearer(r)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[tok]
}

// bearer extracts the bearer token of a request.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// authenticate wraps a handler with the auth rule of its route and lila's
// scope check (see scopes.go): an unknown token is 401 "No such token", a
// missing one on a route that needs it 401 "Missing authorization header"
// (OAuthServer.MissingAuthorizationHeader), a token without an accepted
// scope 403 "Missing scope: …"; then the account kind of the BOT and Board
// APIs.
func (s *Server) authenticate(kind authKind, accepted []string, h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, hasToken := bearer(r)
		acc := s.lookupToken(r)
		if kind != authNone && (hasToken || kind != authOptional) {
			scopeHeaders(w, acc, accepted)
		}
		switch {
		case kind == authNone:
			acc = nil
		case hasToken && acc == nil:
			writeError(w, http.StatusUnauthorized, "No such token")
			return
		case kind == authOptional:
		case acc == nil:
			writeError(w, http.StatusUnauthorized, "Missing authorization header")
			return
		case missingScope(w, acc, accepted):
			return
		case kind == authBot && !acc.Bot:
			writeError(w, http.StatusBadRequest, "This endpoint can only be used with a Bot account.")
			return
		case kind == authBoard && acc.Bot:
			writeError(w, http.StatusBadRequest, "This endpoint cannot be used with a Bot account.")
			return
		}
		if acc != nil {
			s.mu.Lock()
			acc.seenAt = s.now()
			s.mu.Unlock()
		}
		h(w, r, acc)
	}
}

// writeJSON writes v as a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	writeJSONType(w, status, "application/json", v)
}

// writeJSONType writes v as a JSON body with the given content type.
func writeJSONType(w http.ResponseWriter, status int, contentType string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding failed"}`)
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeOK writes {"ok":true}.
func writeOK(w http.ResponseWriter) { writeJSON(w, http.StatusOK, okJSON{OK: true}) }

// writeError writes {"error":msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{Error: msg})
}

// apiError is a handler error: an HTTP status and a Lichess error text.
type apiError struct {
	status int
	msg    string
	limit  *rateLimitJSON // lila's "ratelimit" object, for a limited answer
}

// Error implements error.
func (e *apiError) Error() string { return e.msg }

// badRequest is a 400 apiError.
func badRequest(msg string) *apiError { return &apiError{status: http.StatusBadRequest, msg: msg} }

// notFound is a 404 apiError.
func notFound(msg string) *apiError { return &apiError{status: http.StatusNotFound, msg: msg} }

// writeResult writes {"ok":true} when err is nil, else the error.
func writeResult(w http.ResponseWriter, err *apiError) {
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeOK(w)
}

// writeAPIError writes err as lila does: {"error":msg}, with the
// "ratelimit" object of a limited answer.
func writeAPIError(w http.ResponseWriter, err *apiError) {
	if err.limit != nil {
		writeJSON(w, err.status, limitedJSON{Error: err.msg, RateLimit: *err.limit})
		return
	}
	writeError(w, err.status, err.msg)
}

// boolParam reads a boolean query parameter with a default.
func boolParam(r *http.Request, name string, def bool) bool {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def
	}
	return b
}

// formProblem describes a form that could not be read, naming the limit
// when the body was past MaxRequestBody.
func formProblem(err error) string {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return fmt.Sprintf("Invalid form: request body larger than the limit of %d MiB", MaxRequestBody>>20)
	}
	return "Invalid form: " + err.Error()
}
