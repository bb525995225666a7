package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ConnOptions say how to reach the cluster.
type ConnOptions struct {
	// URL is the NATS server URL, or several separated by commas
	// (nats://host:4222,nats://other:4222).
	URL string
	// CredsFile is a NATS credentials file (JWT and NKey), optional.
	CredsFile string
	// TLSCA, TLSCert and TLSKey are PEM files for TLS, optional: CA alone
	// verifies the server, cert and key add a client certificate.
	TLSCA, TLSCert, TLSKey string
	// Name identifies this connection in the server's monitoring.
	Name string
}

// Conn is a connection to the cluster with its JetStream context.
type Conn struct {
	NC *nats.Conn
	JS jetstream.JetStream
}

// Connect connects to the cluster. It retries the first connection for a
// few seconds (a server started a moment ago) and reconnects for ever
// after a drop.
func Connect(ctx context.Context, opt ConnOptions) (*Conn, error) {
	if opt.URL == "" {
		return nil, errors.New("cluster: connect: no URL")
	}
	opts := []nats.Option{
		nats.Name(opt.Name),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
	}
	if opt.CredsFile != "" {
		opts = append(opts, nats.UserCredentials(opt.CredsFile))
	}
	if opt.TLSCA != "" {
		opts = append(opts, nats.RootCAs(opt.TLSCA))
	}
	if opt.TLSCert != "" || opt.TLSKey != "" {
		if opt.TLSCert == "" || opt.TLSKey == "" {
			return nil, errors.New("cluster: connect: TLS needs both a certificate and a key file")
		}
		opts = append(opts, nats.ClientCert(opt.TLSCert, opt.TLSKey))
	}
	nc, err := nats.Connect(opt.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect %s: %w", opt.URL, err)
	}
	// RetryOnFailedConnect returns at once: wait for the first connection
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for !nc.IsConnected() {
		select {
		case <-ctx.Done():
			nc.Close()
			return nil, ctx.Err()
		case <-deadline.C:
			nc.Close()
			return nil, fmt.Errorf("cluster: connect %s: no server answered within 10s", opt.URL)
		case <-time.After(20 * time.Millisecond):
		}
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: jetstream: %w", err)
	}
	return &Conn{NC: nc, JS: js}, nil
}

// Close drains nothing and closes the connection.
func (c *Conn) Close() { c.NC.Close() }

// Settings tune the streams and the workers' consumer.
type Settings struct {
	// AckWait is how long a chunk may go without an ack or an InProgress
	// heartbeat before JetStream gives it to another worker (default 60 s;
	// workers send a heartbeat every AckWait/3 while they search).
	AckWait time.Duration
	// MaxDeliver bounds how often one chunk is delivered (default 10): a
	// chunk that kills every worker does not circulate for ever.
	MaxDeliver int
	// Replicas is how many servers of a NATS cluster keep each stream and
	// bucket (default 1; 3 on a three-node cluster survives the loss of
	// one node).
	Replicas int
}

// DefaultAckWait is the default ack wait of the workers' consumer.
const DefaultAckWait = 60 * time.Second

// Ensure creates the streams, the workers' consumer and the buckets if
// they do not exist, and updates their settings otherwise. Every
// submitter and worker calls it, so the order they start in does not
// matter.
func (c *Conn) Ensure(ctx context.Context, s Settings) error {
	if s.AckWait <= 0 {
		s.AckWait = DefaultAckWait
	}
	if s.MaxDeliver <= 0 {
		s.MaxDeliver = 10
	}
	if s.Replicas <= 0 {
		s.Replicas = 1
	}
	if _, err := c.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       WorkStream,
		Subjects:   []string{workPrefix + ">"},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Replicas:   s.Replicas,
		Duplicates: dedupWindow,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", WorkStream, err)
	}
	if _, err := c.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       ResultsStream,
		Subjects:   []string{resultsPrefix + ">"},
		Retention:  jetstream.LimitsPolicy,
		Storage:    jetstream.FileStorage,
		MaxAge:     ResultsMaxAge,
		Replicas:   s.Replicas,
		Duplicates: dedupWindow,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", ResultsStream, err)
	}
	if _, err := c.JS.CreateOrUpdateConsumer(ctx, WorkStream, jetstream.ConsumerConfig{
		Durable:       WorkConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       s.AckWait,
		MaxDeliver:    s.MaxDeliver,
		FilterSubject: workPrefix + ">",
	}); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkConsumer, err)
	}
	if _, err := c.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: WorkersBucket, TTL: workerTTL, Storage: jetstream.FileStorage, Replicas: s.Replicas,
	}); err != nil {
		return fmt.Errorf("cluster: bucket %s: %w", WorkersBucket, err)
	}
	if _, err := c.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: JobsBucket, TTL: ResultsMaxAge, Storage: jetstream.FileStorage, Replicas: s.Replicas,
	}); err != nil {
		return fmt.Errorf("cluster: bucket %s: %w", JobsBucket, err)
	}
	return nil
}
