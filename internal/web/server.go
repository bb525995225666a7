package web

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess/provider"
)

// Store is the part of the store the console reads; *store.Store
// satisfies it.
type Store interface {
	RecentGames(ctx context.Context, limit int) ([]store.Game, error)
	ActiveGames(ctx context.Context) ([]store.Game, error)
	Game(ctx context.Context, id string) (store.Game, error)
	AnalysisOf(ctx context.Context, gameID string) (store.Analysis, error)
	Runs(ctx context.Context, user string, limit int) ([]store.CompareRun, error)
}

// Status reports what the bot daemon is doing; *daemon.Daemon satisfies
// it. Playing returns the ids of the games in progress.
type Status interface {
	Playing() []string
}

// Options configure a Server. Store is required; the rest is optional.
type Options struct {
	Store Store
	// Status is the daemon, when the console runs inside it.
	Status Status
	// Calculator serves the expected-winrate explorer; nil shows the
	// explorer as not available.
	Calculator Calculator
	// ConfigPath is the configuration file the knobs editor reads and
	// writes; "" makes the editor read-only (defaults).
	ConfigPath string
	// AccessToken, when set, is required on every request (a cookie set
	// from ?access_token=, or an "Authorization: Bearer" header). It is
	// required to listen on a non-loopback address.
	AccessToken string
	// Cluster reads the analysis cluster's status for the Cluster page;
	// nil: no cluster is configured.
	Cluster func(ctx context.Context) (*cluster.ClusterStatus, error)
	// Engines reads what `outpost provider` registered and served for the
	// Engines page; nil: not available.
	Engines func(ctx context.Context) (*provider.Status, error)
	// Addr is the configured listen address (host:port). Its host is
	// accepted in the Host header besides localhost, 127.0.0.1 and [::1];
	// "" accepts only those.
	Addr string
	// Against is what the games' verifications compared against (the
	// daemon's [lichess] url, verify.AgainstURL): the pages name it
	// (Lichess when zero).
	Against verify.Against
	// TLSCert and TLSKey are the files of the certificate (PEM, chain
	// first) and private key the console serves HTTPS with; both or
	// neither. Off loopback the console requires them (the access token
	// and its session cookie would cross the network in clear), unless
	// PlainHTTP says the operator terminates TLS elsewhere (a reverse
	// proxy on the same host).
	TLSCert, TLSKey string
	PlainHTTP       bool
	// LivePoll is how often live games are re-read (default 1s).
	LivePoll time.Duration
	Logger   zerolog.Logger
}

// Server is the web console.
type Server struct {
	opt  Options
	csrf string
	// session is the value of the access cookie: random per process, so
	// that the cookie is not the access token (a stolen cookie dies with
	// the process, and the token never sits in the browser).
	session string
	tls     *tls.Config // nil: plain HTTP
	cop     *http.CrossOriginProtection
	port    atomic.Pointer[string] // the port Serve listens on
	pages   map[string]*template.Template
	mux     *http.ServeMux

	// bg is the context of background work (critical moments); Close
	// ends it and waits for the work.
	bg   context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	momentsSem   chan struct{}
	reportSem    chan struct{} // game pages with a report at once (reportPages)
	momentsGrace time.Duration

	mu         sync.Mutex
	jobs       map[string]*job
	momentJobs map[string]*momentsJob
}

// New returns a server for the options.
func New(opt Options) (*Server, error) {
	if opt.Store == nil {
		return nil, errors.New("web: a store is required")
	}
	if opt.LivePoll <= 0 {
		opt.LivePoll = time.Second
	}
	if n := len(opt.AccessToken); n > 0 && n < MinAccessTokenLen {
		return nil, fmt.Errorf("web: access token of %d characters: want at least %d", n, MinAccessTokenLen)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("web: csrf token: %w", err)
	}
	session := make([]byte, 32)
	if _, err := rand.Read(session); err != nil {
		return nil, fmt.Errorf("web: session: %w", err)
	}
	tlsCfg, err := tlsConfig(opt)
	if err != nil {
		return nil, err
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt, csrf: hex.EncodeToString(secret), session: hex.EncodeToString(session), tls: tlsCfg, cop: http.NewCrossOriginProtection(), pages: pages, jobs: map[string]*job{},
		momentJobs: map[string]*momentsJob{}, momentsSem: make(chan struct{}, 1), reportSem: make(chan struct{}, reportPages), momentsGrace: defaultMomentsGrace}
	s.bg, s.stop = context.WithCancel(context.Background())
	s.mux = s.routes()
	return s, nil
}

// Close cancels the background calculations (critical moments) and waits
// for them to end. Serve calls it when it returns; a server used through
// Handler should be closed by its owner.
func (s *Server) Close() {
	s.mu.Lock()
	s.stop()
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.dashboard)
	m.HandleFunc("GET /events/live", s.liveEvents)
	m.HandleFunc("GET /game/{id}", s.game)
	m.HandleFunc("GET /api/game/{id}/moments/events", s.momentsEvents)
	m.HandleFunc("GET /explorer", s.explorer)
	m.HandleFunc("POST /api/ewr", s.startEWR)
	m.HandleFunc("GET /api/ewr/{id}/events", s.ewrEvents)
	m.HandleFunc("GET /board.svg", s.boardSVG)
	m.HandleFunc("GET /runs", s.runs)
	m.HandleFunc("GET /cluster", s.clusterPage)
	m.HandleFunc("GET /engines", s.enginesPage)
	m.HandleFunc("GET /api/cluster", s.clusterJSON)
	m.HandleFunc("GET /knobs", s.knobsPage)
	m.HandleFunc("POST /knobs", s.saveKnobs)
	m.HandleFunc("GET /static/{name}", s.static)
	return m
}

// Handler returns the console's handler with the security checks applied.
func (s *Server) Handler() http.Handler { return s.secure(s.mux) }

// ListenAndServe serves on addr until ctx ends. A non-loopback address
// needs an access token.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	if !IsLoopback(addr) && s.opt.AccessToken == "" {
		return fmt.Errorf("web: %s is not a loopback address: an access token is required", addr)
	}
	if err := checkTransport(addr, s.tls != nil, s.opt.PlainHTTP); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("web: listen %s: %w", addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends, then shuts down (open event streams
// end with their requests' contexts).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	defer s.Close()
	if _, port, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		s.port.Store(&port)
	}
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("web: shutdown: %w", err)
	}
	<-errc
	return nil
}

// Scheme is "https" when the console serves TLS, else "http".
func (s *Server) Scheme() string {
	if s.tls != nil {
		return "https"
	}
	return "http"
}

// tlsConfig loads Options.TLSCert and TLSKey (nil, nil without them) and
// checks the transport rule against Options.Addr.
func tlsConfig(opt Options) (*tls.Config, error) {
	if (opt.TLSCert == "") != (opt.TLSKey == "") {
		return nil, errors.New("web: give both a TLS certificate (--tls-cert, web.tls_cert_file) and its key (--tls-key, web.tls_key_file), or neither")
	}
	var cfg *tls.Config
	if opt.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(opt.TLSCert, opt.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("web: TLS certificate %s and key %s: %w", opt.TLSCert, opt.TLSKey, err)
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if opt.Addr != "" {
		if err := checkTransport(opt.Addr, cfg != nil, opt.PlainHTTP); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// checkTransport refuses plain HTTP off loopback unless plain says the
// operator chose it (TLS terminated in front of the console).
func checkTransport(addr string, hasTLS, plain bool) error {
	if IsLoopback(addr) || hasTLS || plain {
		return nil
	}
	return fmt.Errorf("web: %s is not a loopback address: serve it over TLS (--tls-cert and --tls-key, or web.tls_cert_file and web.tls_key_file), or say --plain-http (web.plain_http = true) when TLS ends in front of the console; plain HTTP would carry the access token in clear", addr)
}

// IsLoopback reports whether a listen address ("127.0.0.1:8090",
// "[::1]:0", "localhost:8090") is on loopback only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
