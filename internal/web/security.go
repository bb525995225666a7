package web

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

const (
	accessCookie = "outpost_access"
	csrfHeader   = "X-CSRF-Token"
	csrfField    = "csrf"
)

// MinAccessTokenLen is the shortest access token the console accepts: a
// token guards the console off loopback, so it must not be guessable.
const MinAccessTokenLen = 16

// secure wraps h with the console's rules: security headers; the access
// token when one is configured; without one, a Host header naming this
// console on loopback or its configured address (against DNS rebinding);
// and for state-changing requests net/http's cross-origin protection and
// the CSRF token.
func (s *Server) secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		// same-origin, not no-referrer: with no-referrer browsers send
		// "Origin: null" on form posts, which the cross-origin check refuses.
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		if s.opt.AccessToken != "" {
			if !s.authorized(w, r) {
				return
			}
		} else if !s.allowedHost(r.Host) {
			http.Error(w, "outpost serve: this console answers only to localhost, 127.0.0.1 or [::1] with its port, or its configured address (configure an access token to serve other hosts)", http.StatusMisdirectedRequest)
			return
		}
		// the body is bounded before anything reads it: the CSRF check
		// may parse a form
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBody)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if r.Header.Get(csrfHeader) == "" && r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
				if err := r.ParseForm(); err != nil {
					status, msg := bodyError(err)
					http.Error(w, "outpost serve: "+msg, status)
					return
				}
			}
			if why := s.crossSite(r); why != "" {
				http.Error(w, "outpost serve: refused: "+why, http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// MaxRequestBody bounds every request body the console reads (bytes): its
// largest request, an expected-winrate calculation of 1000 moves, is about
// 10 KiB.
const MaxRequestBody = 64 << 10

// bodyError names the limit when err comes from a body past MaxRequestBody.
func bodyError(err error) (int, string) {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than the limit of %d KiB", MaxRequestBody>>10)
	}
	return http.StatusBadRequest, "bad request body: " + err.Error()
}

// authorized checks the access token: a bearer header, the session cookie,
// or (on GET) an access_token query parameter, which sets the session
// cookie and redirects to the same URL without it so that the token leaves
// the address bar. The cookie holds the process's session value, not the
// token: a console restart asks for the token again.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(s.opt.AccessToken)
	eq := func(got string) bool { return got != "" && subtle.ConstantTimeCompare([]byte(got), want) == 1 }
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") && eq(strings.TrimPrefix(a, "Bearer ")) {
		return true
	}
	if c, err := r.Cookie(accessCookie); err == nil && c.Value != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.session)) == 1 {
		return true
	}
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		if eq(q.Get("access_token")) {
			// the cookie is the session value, never the token; Secure
			// whenever the request came over TLS
			http.SetCookie(w, &http.Cookie{Name: accessCookie, Value: s.session, Path: "/", HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
			q.Del("access_token")
			u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return false
		}
	}
	http.Error(w, "outpost serve: access token required (open the console with ?access_token=TOKEN)", http.StatusUnauthorized)
	return false
}

// crossSite returns why a state-changing request is refused, "" when it
// comes from one of the console's own pages: net/http's
// CrossOriginProtection (Sec-Fetch-Site, else Origin against Host), any
// Origin header against Host, then the CSRF token.
func (s *Server) crossSite(r *http.Request) string {
	if err := s.cop.Check(r); err != nil {
		return "request from another origin (" + err.Error() + ")"
	}
	// CrossOriginProtection trusts "Sec-Fetch-Site: same-origin" alone;
	// an Origin naming another host is refused as well.
	if o := r.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || u.Host != r.Host {
			return "request from another origin (Origin " + o + ")"
		}
	}
	tok := r.Header.Get(csrfHeader)
	if tok == "" {
		tok = r.PostFormValue(csrfField)
	}
	if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.csrf)) != 1 {
		return "missing or wrong CSRF token (reload the page)"
	}
	return ""
}

// allowedHost reports whether a Host header names this console: localhost,
// 127.0.0.1 or [::1] with the port it listens on (any port when it was not
// started by Serve, as behind httptest), or exactly the configured address
// (Options.Addr). A name that merely resolves to loopback, as a DNS
// rebinding attack's does, is refused.
func (s *Server) allowedHost(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil {
		h, p = host, "80" // no port: the default HTTP port
	}
	h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if ch, cp, err := net.SplitHostPort(s.opt.Addr); err == nil && ch != "" && strings.EqualFold(h, ch) && p == cp {
		return true
	}
	switch h {
	case "localhost", "127.0.0.1", "::1":
	default:
		return false
	}
	want := s.listenPort()
	return want == "" || p == want
}

// listenPort is the port Serve listens on, "" before Serve.
func (s *Server) listenPort() string {
	if p := s.port.Load(); p != nil {
		return *p
	}
	return ""
}
