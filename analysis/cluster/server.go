package cluster

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded NATS server.
type ServerOptions struct {
	// Addr is HOST:PORT to listen on; port 0 picks a free one.
	Addr string
	// StoreDir is where JetStream keeps its streams; it survives restarts.
	StoreDir string
	// Name is the server's name (default "outpost").
	Name string
	// ReadyTimeout bounds the wait for the server to accept connections
	// (default 10 s).
	ReadyTimeout time.Duration
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns *server.Server
}

// Serve starts an embedded NATS server with JetStream persisted in
// opt.StoreDir and waits until it accepts connections.
func Serve(opt ServerOptions) (*Server, error) {
	if opt.StoreDir == "" {
		return nil, fmt.Errorf("cluster: serve: a store directory is required")
	}
	host, portStr, err := net.SplitHostPort(opt.Addr)
	if err != nil {
		return nil, fmt.Errorf("cluster: serve: address %q: want HOST:PORT: %w", opt.Addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("cluster: serve: address %q: bad port %q", opt.Addr, portStr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if opt.Name == "" {
		opt.Name = "outpost"
	}
	if opt.ReadyTimeout <= 0 {
		opt.ReadyTimeout = 10 * time.Second
	}
	ns, err := server.NewServer(&server.Options{
		ServerName: opt.Name,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   opt.StoreDir,
		NoSigs:     true,
		NoLog:      true,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: serve %s: %w", opt.Addr, err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(opt.ReadyTimeout) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: serve %s: not ready within %s", opt.Addr, opt.ReadyTimeout)
	}
	return &Server{ns: ns}, nil
}

// URL is the client URL of the server (nats://HOST:PORT).
func (s *Server) URL() string { return s.ns.ClientURL() }

// Shutdown stops the server and waits until it is down; the streams stay
// in the store directory.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
