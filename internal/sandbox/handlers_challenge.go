package sandbox

import (
	"net/http"
	"strings"
)

// requestBaseURL is the base URL a client used to reach the server.
func requestBaseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// handleChallengeCreate serves POST /api/challenge/{username}.
func (s *Server) handleChallengeCreate(w http.ResponseWriter, r *http.Request, acc *account) {
	form, fieldErrs, ferr := parseChallengeForm(r)
	if ferr != nil {
		writeError(w, ferr.status, ferr.msg)
		return
	}
	if fieldErrs != nil {
		fieldErrs.write(w)
		return
	}
	if s.rateLimited(w, rateLimitedMsg, remoteIP(r), 1, limitChallengeIP) {
		return
	}
	s.mu.Lock()
	dest := s.accounts[strings.ToLower(r.PathValue("username"))]
	if dest == nil {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, "No such user: "+r.PathValue("username"))
		return
	}
	if s.rateLimited(w, rateLimitedMsg, acc.id, challengeCost(dest), limitChallengeUserFast, limitChallengeUserSlow) {
		s.mu.Unlock()
		return
	}
	c, err := s.createChallenge(acc, dest, form, requestBaseURL(r))
	if err != nil {
		s.mu.Unlock()
		writeAPIError(w, err)
		return
	}
	body := s.challengeJSONFor(c, acc)
	if !form.keepAlive {
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, body)
		return
	}
	sub := newSubscriber()
	sub.send(body)
	c.keepAliveSub = sub
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if c.keepAliveSub == sub && c.status == "created" {
			// The challenger went away: the challenge is withdrawn.
			c.keepAliveSub = nil
			s.endChallenge(c, "canceled")
		}
	}()
	s.serveStream(w, r, sub)
}

// handleChallengeList serves GET /api/challenge.
func (s *Server) handleChallengeList(w http.ResponseWriter, r *http.Request, acc *account) {
	s.mu.Lock()
	in, out := []*challengeJSON{}, []*challengeJSON{}
	for _, c := range s.sortedChallenges() {
		switch acc {
		case c.dest:
			in = append(in, s.challengeJSONFor(c, acc))
		case c.challenger:
			out = append(out, s.challengeJSONFor(c, acc))
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"in": in, "out": out})
}

// handleChallengeAccept serves POST /api/challenge/{challengeId}/accept.
func (s *Server) handleChallengeAccept(w http.ResponseWriter, r *http.Request, acc *account) {
	color := r.URL.Query().Get("color")
	s.withChallenge(w, r, func(c *challenge) *apiError { return s.accept(c, acc, color) })
}

// withChallenge runs fn on the challenge of the path's {challengeId} with
// mu held and writes its result; an unknown challenge is a 404.
func (s *Server) withChallenge(w http.ResponseWriter, r *http.Request, fn func(*challenge) *apiError) {
	s.mu.Lock()
	var err *apiError
	if c := s.challenges[r.PathValue("challengeId")]; c != nil {
		err = fn(c)
	} else {
		err = notFound("Challenge not found")
	}
	s.mu.Unlock()
	writeResult(w, err)
}

// handleChallengeDecline serves POST /api/challenge/{challengeId}/decline.
func (s *Server) handleChallengeDecline(w http.ResponseWriter, r *http.Request, acc *account) {
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, formProblem(err))
		return
	}
	reason := r.Form.Get("reason")
	s.withChallenge(w, r, func(c *challenge) *apiError { return s.decline(c, acc, reason) })
}

// handleChallengeCancel serves POST /api/challenge/{challengeId}/cancel: the
// challenger withdraws a challenge, or a player aborts a game that can still
// be aborted.
func (s *Server) handleChallengeCancel(w http.ResponseWriter, r *http.Request, acc *account) {
	id := r.PathValue("challengeId")
	s.mu.Lock()
	var err *apiError
	if c := s.challenges[id]; c != nil && c.challenger == acc {
		s.endChallenge(c, "canceled")
	} else if g := s.games[id]; g != nil && g.colorOf(acc) >= 0 && g.abortableByUser() {
		s.finish(g, "aborted", noWinner)
	} else {
		err = notFound("Challenge not found")
	}
	s.mu.Unlock()
	writeResult(w, err)
}
