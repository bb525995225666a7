package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/rs/zerolog"
)

// ServerOptions configure an embedded NATS server.
type ServerOptions struct {
	// Addr is HOST:PORT to listen on; port 0 picks a free one.
	Addr string
	// StoreDir is where JetStream keeps its streams; it survives restarts.
	StoreDir string
	// Name is the server's name (default "outpost"); the nodes of a
	// cluster need different names.
	Name string
	// ReadyTimeout bounds the wait for the server to accept connections
	// (default 10 s).
	ReadyTimeout time.Duration

	// Auth, when set, is enforced: only its identities connect, each with
	// its role's permissions, and the server creates the streams itself
	// (clients and workers may not). Nil: anyone may connect and do
	// anything (a loopback test server).
	Auth *Authorization
	// TLSCert and TLSKey are the server's certificate and key (PEM): with
	// them every client connection is TLS.
	TLSCert, TLSKey string
	// TLSCA verifies the other nodes of a cluster: with it (and TLSCert)
	// the routes between nodes are TLS with certificates both ways.
	TLSCA string
	// Insecure allows a non-loopback address without TLS.
	Insecure bool

	// ClusterAddr is HOST:PORT for the routes to the other nodes of a
	// NATS cluster ("" : a single server; port 0 picks a free one).
	ClusterAddr string
	// Routes are the other nodes' cluster URLs (nats://HOST:PORT).
	Routes []string
	// Replicas is how many nodes keep each stream when the server creates
	// them (with Auth; default 1, or 3 with a ClusterAddr).
	Replicas int
	// AckWait is the workers' consumer's ack wait when the server creates
	// it (with Auth; default DefaultAckWait).
	AckWait time.Duration
	// ResultsMaxAge is how long results are kept when the server creates
	// the streams (with Auth; default ResultsMaxAge).
	ResultsMaxAge time.Duration
	// ResultsMaxBytes bounds the results stream when the server creates
	// it (with Auth; default DefaultResultsMaxBytes).
	ResultsMaxBytes int64
	// Logger receives each step of the cluster forming and of creating
	// the streams (the zero Logger: none).
	Logger zerolog.Logger
}

// clusterName is the NATS cluster's name: every node must agree on it.
const clusterName = "outpost"

// tlsTimeout is the seconds a TLS handshake may take (NATS's default is
// 2 s): on a loaded machine with a hundred workers connecting at once the
// handshakes queue for CPU.
const tlsTimeout = 10

// setupRetry is how long the server waits between two looks at the
// cluster forming (its other nodes starting) and between attempts to
// create the streams.
const setupRetry = 250 * time.Millisecond

// setupTimeout bounds one attempt to create (or check) the streams, the
// consumer and the buckets: about a dozen JetStream API requests, each a
// meta-group proposal on a cluster.
const setupTimeout = 10 * time.Second

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns *server.Server

	stop  context.CancelFunc
	wg    sync.WaitGroup
	ready chan struct{} // closed when the streams exist (without Auth: when formed)
	// answering is closed once the server answers formation requests
	answering chan struct{}
	mu        sync.Mutex
	setupErr  error  // the last failed attempt to create the streams
	step      string // what setup does now (Formation.Step)
}

// Serve starts an embedded NATS server with JetStream persisted in
// opt.StoreDir and waits until it accepts connections. With opt.Auth it
// then creates the streams in the background (Ready waits for them).
func Serve(opt ServerOptions) (*Server, error) {
	sopts, err := serverOptions(&opt)
	if err != nil {
		return nil, err
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("cluster: serve %s: %w", opt.Addr, err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(opt.ReadyTimeout) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: serve %s: not ready within %s", opt.Addr, opt.ReadyTimeout)
	}
	s := &Server{ns: ns, ready: make(chan struct{}), answering: make(chan struct{}), step: "starting"}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.setup(ctx, opt)
	}()
	// a server that accepts connections also says how far its cluster
	// has formed: a worker connecting at once must not miss it
	select {
	case <-s.answering:
	case <-time.After(opt.ReadyTimeout):
		s.Shutdown()
		return nil, fmt.Errorf("cluster: serve %s: does not answer formation requests within %s (last step: %s)", opt.Addr, opt.ReadyTimeout, s.formation(1).Step)
	}
	return s, nil
}

// serverOptions checks opt, fills its defaults and returns the NATS
// server's options.
func serverOptions(opt *ServerOptions) (*server.Options, error) {
	if opt.StoreDir == "" {
		return nil, fmt.Errorf("cluster: serve: a store directory is required")
	}
	host, port, err := splitAddr("address", opt.Addr)
	if err != nil {
		return nil, err
	}
	if opt.Name == "" {
		opt.Name = "outpost"
	}
	if opt.ReadyTimeout <= 0 {
		opt.ReadyTimeout = 10 * time.Second
	}
	tlsOn := opt.TLSCert != "" || opt.TLSKey != ""
	if !tlsOn && !opt.Insecure && !isLoopback(host) {
		return nil, fmt.Errorf("cluster: serve: address %s is not loopback and TLS is off: anyone on the network would read and write the cluster's traffic; give a certificate (--tls-cert/--tls-key) or, on a network you trust, --insecure", opt.Addr)
	}
	o := &server.Options{
		ServerName: opt.Name,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   opt.StoreDir,
		NoSigs:     true,
		NoLog:      true,
	}
	if tlsOn {
		if o.TLSConfig, err = serverTLS(opt.TLSCert, opt.TLSKey, ""); err != nil {
			return nil, err
		}
		o.TLSTimeout = tlsTimeout
	}
	if opt.Auth != nil {
		o.Nkeys = opt.Auth.users()
	}
	if err := clusterOptions(opt, o); err != nil {
		return nil, err
	}
	return o, nil
}

// clusterOptions sets the routes of a node of a NATS cluster.
func clusterOptions(opt *ServerOptions, o *server.Options) error {
	if opt.ClusterAddr == "" {
		if len(opt.Routes) > 0 {
			return errors.New("cluster: serve: routes need a cluster address (--cluster-addr)")
		}
		return nil
	}
	host, port, err := splitAddr("cluster address", opt.ClusterAddr)
	if err != nil {
		return err
	}
	routeTLS := opt.TLSCA != "" && opt.TLSCert != ""
	if !routeTLS && !opt.Insecure && !isLoopback(host) {
		return fmt.Errorf("cluster: serve: cluster address %s is not loopback and the routes are not TLS: give --tls-cert, --tls-key and --tls-ca (the CA of the other nodes' certificates) or, on a network you trust, --insecure", opt.ClusterAddr)
	}
	o.Cluster = server.ClusterOpts{Name: clusterName, Host: host, Port: port}
	if routeTLS {
		if o.Cluster.TLSConfig, err = serverTLS(opt.TLSCert, opt.TLSKey, opt.TLSCA); err != nil {
			return err
		}
		o.Cluster.TLSTimeout = tlsTimeout
	}
	var user *url.Userinfo
	if opt.Auth != nil {
		o.Cluster.Username, o.Cluster.Password = "route", opt.Auth.RoutePassword
		user = url.UserPassword("route", opt.Auth.RoutePassword)
	}
	for _, r := range opt.Routes {
		u, err := url.Parse(strings.TrimSpace(r))
		if err != nil || u.Host == "" {
			return fmt.Errorf("cluster: serve: route %q: want nats://HOST:PORT", r)
		}
		if user != nil {
			u.User = user
		}
		o.Routes = append(o.Routes, u)
	}
	if opt.Replicas <= 0 {
		opt.Replicas = 3
	}
	return nil
}

// splitAddr parses HOST:PORT (port 0: a free port).
func splitAddr(what, addr string) (string, int, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("cluster: serve: %s %q: want HOST:PORT: %w", what, addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("cluster: serve: %s %q: bad port %q", what, addr, portStr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// isLoopback reports whether host only listens on this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// setup answers formation requests and, once the cluster has formed (a
// JetStream meta leader and as many peers as replicas), creates the
// streams as the server's own identity (with Auth), retrying until it
// succeeds or the server stops; it logs each step. Without Auth the
// clients create the streams, and the server is ready once formed.
func (s *Server) setup(ctx context.Context, opt ServerOptions) {
	log := opt.Logger.With().Str("server", s.ns.Name()).Logger()
	want, clustered := max(opt.Replicas, 1), opt.ClusterAddr != ""
	var seed []byte
	if opt.Auth != nil {
		seed = opt.Auth.serverSeed
	}
	conn := s.connectSelf(ctx, seed, opt.TLSCert, log)
	if conn == nil {
		s.setStep("stopped before its own connection")
		return
	}
	defer conn.Close()
	sub, err := conn.NC.Subscribe(formationSubject, func(m *nats.Msg) {
		if b, err := json.Marshal(s.formation(want)); err == nil {
			_ = m.Respond(b)
		}
	})
	if err == nil {
		err = conn.NC.Flush() // the subscription is on the server
	}
	if err != nil {
		log.Error().Err(err).Msg("cluster: cannot answer formation requests")
	} else {
		defer func() { _ = sub.Unsubscribe() }()
	}
	close(s.answering)
	said := ""
	// say sets the step (without counts: a formation answer adds the
	// peers and the leader it sees then) and logs it with detail
	say := func(step, detail string, ev *zerolog.Event) {
		s.setStep(step)
		if line := step + detail; line != said {
			ev.Msg("cluster: " + line)
			said = line
		}
	}
	for !s.isReady() {
		f := formation(s.ns, want)
		switch {
		case clustered && f.Leader == "":
			say("waiting for a JetStream meta leader", fmt.Sprintf(" (%d of %d peers connected)", f.Peers, want), log.Info())
		case f.Peers < want:
			say(fmt.Sprintf("waiting for peers for %d replicas", want), fmt.Sprintf(" (%d of %d, meta leader %s)", f.Peers, want, f.Leader), log.Info())
		case opt.Auth == nil:
			log.Info().Msgf("cluster: formed (%d of %d peers, meta leader %s); without credentials the clients create the streams", f.Peers, want, f.Leader)
			close(s.ready)
		default:
			say(fmt.Sprintf("creating or checking the streams, the workers' consumer and the buckets (%d replicas)", want), "", log.Info())
			err := s.setupOnce(ctx, conn, opt)
			if err == nil {
				log.Info().Msgf("cluster: ready: streams %s and %s, consumer %s, buckets %s and %s (%d replicas)", WorkStream, ResultsStream, WorkConsumer, WorkersBucket, JobsBucket, want)
				close(s.ready)
				continue
			}
			s.mu.Lock()
			s.setupErr = err
			s.mu.Unlock()
			say("creating the streams failed, retrying: "+err.Error(), "", log.Warn())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(setupRetry):
		}
	}
	<-ctx.Done() // formation requests are answered until the server stops
}

func (s *Server) setupOnce(ctx context.Context, conn *Conn, opt ServerOptions) error {
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	return conn.Setup(ctx, Settings{Replicas: max(opt.Replicas, 1), AckWait: opt.AckWait, ResultsMaxAge: opt.ResultsMaxAge, ResultsMaxBytes: opt.ResultsMaxBytes})
}

func (s *Server) setStep(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step = step
}

func (s *Server) isReady() bool {
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// formation is this server's answer to a formation request.
func (s *Server) formation(want int) Formation {
	f := formation(s.ns, want)
	f.Ready = s.isReady()
	if !f.Ready {
		s.mu.Lock()
		f.Step = s.step
		s.mu.Unlock()
	}
	return f
}

// connectSelf connects to the server as its own identity, retrying until
// it connects or ctx ends (nil then).
func (s *Server) connectSelf(ctx context.Context, seed []byte, certFile string, log zerolog.Logger) *Conn {
	for {
		conn, err := connectSelf(s.ns, seed, certFile)
		if err == nil {
			return conn
		}
		log.Warn().Err(err).Msg("cluster: the server's own connection")
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(setupRetry):
		}
	}
}

// selfURL is the URL of ns's own client port from this machine
// (loopback when it listens on every interface).
func selfURL(ns *server.Server) string {
	a, ok := ns.Addr().(*net.TCPAddr)
	if !ok {
		return ns.ClientURL()
	}
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "tls://" + net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// Ready waits until the server has created the streams (without Auth:
// until the cluster has formed) or ctx ends.
func (s *Server) Ready(ctx context.Context) error {
	select {
	case <-s.ready:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		return fmt.Errorf("cluster: server %s: streams not created: %w (last attempt: %v)", s.ns.Name(), ctx.Err(), s.setupErr)
	}
}

// URL is the client URL of the server (nats://HOST:PORT, tls:// with TLS).
func (s *Server) URL() string { return s.ns.ClientURL() }

// ClusterURL is the node's route URL for the other nodes ("" without a
// cluster address).
func (s *Server) ClusterURL() string {
	a := s.ns.ClusterAddr()
	if a == nil {
		return ""
	}
	return "nats://" + a.String()
}

// Name is the server's name.
func (s *Server) Name() string { return s.ns.Name() }

// Shutdown stops the server and waits until it is down; the streams stay
// in the store directory.
func (s *Server) Shutdown() {
	if s.stop != nil {
		s.stop()
	}
	s.wg.Wait()
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// connectSelf connects to ns as the identity of seed (the server's own,
// which may create the streams; nil: no credentials, a server without
// Auth): in-process without TLS; with TLS
// (certFile) over its own client port (NATS's in-process connections do
// not do TLS), accepting exactly the server's own certificate.
func connectSelf(ns *server.Server, seed []byte, certFile string) (*Conn, error) {
	opts := []nats.Option{nats.Name("outpost-server")}
	var pub string
	if seed != nil {
		kp, err := nkeys.ParseDecoratedNKey(seed)
		if err != nil {
			return nil, fmt.Errorf("cluster: server identity: %w", err)
		}
		if pub, err = kp.PublicKey(); err != nil {
			return nil, fmt.Errorf("cluster: server identity: %w", err)
		}
		opts = append(opts, nats.Nkey(pub, kp.Sign))
	}
	url := ns.ClientURL()
	if certFile == "" {
		opts = append(opts, nats.InProcessServer(ns))
	} else {
		pinned, err := pinnedTLS(certFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Secure(pinned))
		url = selfURL(ns)
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: server %s: connect in-process: %w", ns.Name(), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: server %s: jetstream: %w", ns.Name(), err)
	}
	return &Conn{NC: nc, JS: js, Identity: pub}, nil
}
