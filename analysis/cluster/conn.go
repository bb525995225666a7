package cluster

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// OnViolation, when set, is called with each permissions violation
	// the server reports (a publish or subscription it refused).
	OnViolation func(error)
}

// Conn is a connection to the cluster with its JetStream context.
type Conn struct {
	NC *nats.Conn
	JS jetstream.JetStream
	// Identity is the public nkey of the connection's credentials (""
	// without credentials). A worker's heartbeat key starts with it, and
	// its results' subjects end with it.
	Identity string
	// managed: the connection has credentials, so the server (or an
	// admin) creates the streams and Ensure only checks they exist.
	managed bool

	violation atomic.Pointer[error] // the last permissions violation the server reported
	// gaveUpDenied: the server refused this connection's subscription to
	// gaveUpSubject (credentials from before it was a client's, or a
	// user JWT without it); submitters then find chunks JetStream gave up
	// on only when the workers' consumer is idle (checkDeadlines)
	gaveUpDenied atomic.Bool
	// credsFile and credsRole are the credentials file and the role it
	// says it has ("" unknown), for a DeniedError
	credsFile string
	credsRole Role

	mu      sync.Mutex
	watches map[*violationWatch]struct{} // operations to end at a violation (guard)
}

// connectWait bounds the wait for a server that is not up yet (started a
// moment ago, or restarting).
const connectWait = 10 * time.Second

// connectRetry is the pause between two attempts while no server answers.
const connectRetry = 100 * time.Millisecond

// Connect connects to the cluster. It retries the first connection for a
// few seconds (a server started a moment ago) and reconnects for ever
// after a drop. A server that refuses the credentials (or their absence)
// or whose certificate is not trusted is an error at once that says so.
func Connect(ctx context.Context, opt ConnOptions) (*Conn, error) {
	if opt.URL == "" {
		return nil, errors.New("cluster: connect: no URL")
	}
	c := &Conn{managed: opt.CredsFile != ""}
	opts, err := c.options(opt)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(connectWait)
	for {
		nc, err := nats.Connect(opt.URL, opts...)
		if err == nil {
			c.NC = nc
			break
		}
		if hint := refusal(err, opt); hint != "" {
			return nil, fmt.Errorf("cluster: connect %s: %s: %w", opt.URL, hint, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cluster: connect %s: no server answered within %s: %w", opt.URL, connectWait, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(connectRetry):
		}
	}
	js, err := jetstream.New(c.NC)
	if err != nil {
		c.NC.Close()
		return nil, fmt.Errorf("cluster: jetstream: %w", err)
	}
	c.JS = js
	return c, nil
}

// options are the NATS options of opt; they set c.Identity.
func (c *Conn) options(opt ConnOptions) ([]nats.Option, error) {
	opts := []nats.Option{
		nats.Name(opt.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				if gaveUpRefused(err) {
					// not the role's lack: a submitter does without it
					c.gaveUpDenied.Store(true)
				} else {
					c.violation.Store(&err)
					c.notify(err)
				}
				if opt.OnViolation != nil {
					opt.OnViolation(err)
				}
			}
		}),
	}
	if opt.CredsFile != "" {
		id, role, isJWT, err := credsIdentity(opt.CredsFile)
		if err != nil {
			return nil, err
		}
		c.Identity, c.credsFile, c.credsRole = id, opt.CredsFile, role
		if isJWT {
			opts = append(opts, nats.UserCredentials(opt.CredsFile))
		} else {
			o, err := nats.NkeyOptionFromSeed(opt.CredsFile)
			if err != nil {
				return nil, fmt.Errorf("cluster: credentials %s: %w", opt.CredsFile, err)
			}
			opts = append(opts, o)
		}
		opts = append(opts, nats.CustomInboxPrefix(InboxPrefix(id)))
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
	return opts, nil
}

// gaveUpRefused reports a permissions violation that refused the
// subscription to JetStream's max-deliveries advisories (gaveUpSubject).
func gaveUpRefused(err error) bool {
	return strings.Contains(err.Error(), "Subscription to "+strconv.Quote(gaveUpSubject))
}

// refusal explains an error that retrying does not cure ("" for others).
func refusal(err error, opt ConnOptions) string {
	var uae x509.UnknownAuthorityError
	var hn x509.HostnameError
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(err, nats.ErrAuthorization) || strings.Contains(msg, "authorization violation"):
		if opt.CredsFile == "" {
			return "refused: the server requires credentials and none were given (--creds FILE, or [cluster] creds_file: a .creds file of outpost cluster init)"
		}
		return fmt.Sprintf("refused: the server does not accept the credentials in %s", opt.CredsFile)
	case errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked):
		return fmt.Sprintf("refused: the credentials in %s are expired or revoked", opt.CredsFile)
	case errors.As(err, &uae) || strings.Contains(msg, "certificate signed by unknown authority"):
		return "TLS: the server's certificate is not signed by a trusted CA (give the CA with --tls-ca, or [cluster] tls_ca)"
	case errors.As(err, &hn):
		return "TLS: the server's certificate is not valid for this host name"
	case errors.Is(err, nats.ErrSecureConnRequired):
		return "TLS: the server requires TLS (use tls:// and --tls-ca)"
	case errors.Is(err, nats.ErrSecureConnWanted):
		return "TLS: the client wants TLS (--tls-ca or a tls:// URL) but the server has no TLS"
	}
	return ""
}

// PermissionViolation is the last permissions violation the server
// reported on this connection (nil: none). A publish or request the
// server denies is dropped, so the request itself only times out: this
// says why.
func (c *Conn) PermissionViolation() error {
	if p := c.violation.Load(); p != nil {
		return *p
	}
	return nil
}

// resultIdentity is the last token of the subjects this connection
// publishes results on: its public nkey, or openIdentity without one.
func (c *Conn) resultIdentity() string {
	if c.Identity == "" {
		return openIdentity
	}
	return c.Identity
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
	// ResultsMaxAge is how long results, job entries and waiting chunks
	// are kept (default ResultsMaxAge): a large cluster keeps them shorter
	// (docs/cluster.md).
	ResultsMaxAge time.Duration
	// ResultsMaxBytes bounds the results stream (default
	// DefaultResultsMaxBytes); when full, its oldest results go.
	ResultsMaxBytes int64
}

// Size bounds of the streams and buckets (JetStream's own limits, so no
// identity can fill the servers' disks; docs/cluster.md, "Bounds").
const (
	// maxChunkMsg bounds a chunk message: NATS's default max payload
	// (1 MiB), which the server enforces anyway; a chunk of 5 positions
	// of a 300-ply game is about 12 KB.
	maxChunkMsg = 1 << 20
	// workMaxBytes bounds the work stream: a 1,000-game compare run is
	// 16,000 chunks of 1–3 KB (about 50 MB); 1 GiB is 20 such runs
	// waiting at once. When full a new chunk is refused (DiscardNew):
	// waiting chunks are never dropped.
	workMaxBytes = 1 << 30
	// maxResultMsg bounds a result message: 64 positions (MaxChunkPositions)
	// with a line of 246 plies (maxPly) of up to 8 bytes each is about
	// 126 KB, a refusal's reason at most maxReasonLen; an honest result is
	// 1–2 KB.
	maxResultMsg = 256 << 10
	// DefaultResultsMaxBytes bounds the results stream: a 2-engine worker
	// stores about 1 GB of results a month, and a submitter reads its
	// job's results as they come, so the oldest (of finished jobs) may go
	// when the stream is full (DiscardOld); a lost one is published again
	// (chunkDeadline).
	DefaultResultsMaxBytes = 4 << 30
	// maxResultsPerSubject bounds the results one identity keeps for one
	// chunk (outpost.results.JOB.INDEX.IDENTITY): one per publication of
	// the chunk, which is published at most 1 + refusedMax + lostMax times.
	maxResultsPerSubject = 1 + refusedMax + lostMax
	// maxStatusValue bounds a heartbeat or job entry (about 300 bytes).
	maxStatusValue = 4 << 10
	// workersMaxBytes bounds the workers bucket: 1,000 workers' heartbeats
	// are about 300 KB; a worker writing many keys under its own nkey
	// fills it for at most their TTL (workerTTL), then they expire.
	workersMaxBytes = 64 << 20
	// jobsMaxBytes bounds the jobs bucket: a 1,000-game compare run makes
	// about 2,000 entries of 200 bytes; 256 MiB is 1,000 such runs.
	jobsMaxBytes = 256 << 20
)

// maxPulls is the workers' consumer's bound on waiting pull requests
// (JetStream's max_waiting): each engine of each worker keeps one pull
// open, so it bounds the engines of the whole cluster. NATS's default, 512,
// is too few for 1,000 workers of 2 engines; 8,192 is 1,000 workers of 8.
// NATS cannot change it on an existing consumer: a store made before keeps
// its value until the admin deletes the consumer (Setup recreates it).
const maxPulls = 8192

// DefaultAckWait is the default ack wait of the workers' consumer.
const DefaultAckWait = 60 * time.Second

func (c *Conn) ensure(ctx context.Context, s Settings) error {
	if !c.managed {
		return c.Setup(ctx, s)
	}
	for _, name := range []string{WorkStream, ResultsStream, "KV_" + WorkersBucket, "KV_" + JobsBucket} {
		if _, err := c.JS.Stream(ctx, name); err != nil {
			return fmt.Errorf("cluster: stream %s: %w (with credentials the server creates the streams: outpost cluster serve --auth)", name, c.explain(err))
		}
	}
	if _, err := c.JS.Consumer(ctx, WorkStream, WorkConsumer); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkConsumer, c.explain(err))
	}
	return nil
}

// explain adds the server's permissions violation, if any, to err.
func (c *Conn) explain(err error) error {
	if v := c.PermissionViolation(); v != nil {
		return fmt.Errorf("%w (%v)", err, v)
	}
	return err
}

// Setup creates the streams, the workers' consumer and the buckets if
// they do not exist, and updates their settings where they differ (it
// needs the admin's rights when the server enforces credentials). What is
// already as asked is not written: every worker and submitter without
// credentials runs Setup when it starts, each write is a proposal to the
// meta group of a NATS cluster (a thousand workers starting would make a
// thousand updates of each stream), and concurrent updates of one stream
// race inside nats-server.
func (c *Conn) Setup(ctx context.Context, s Settings) error {
	s = s.withDefaults()
	for _, cfg := range streamConfigs(s) {
		if err := c.ensureStream(ctx, cfg); err != nil {
			return fmt.Errorf("cluster: stream %s: %w", cfg.Name, err)
		}
	}
	if err := c.ensureConsumer(ctx, s); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkConsumer, err)
	}
	for _, kv := range []jetstream.KeyValueConfig{
		{Bucket: WorkersBucket, TTL: workerTTL, Storage: jetstream.FileStorage, Replicas: s.Replicas, MaxBytes: workersMaxBytes, MaxValueSize: maxStatusValue},
		{Bucket: JobsBucket, TTL: s.ResultsMaxAge, Storage: jetstream.FileStorage, Replicas: s.Replicas, MaxBytes: jobsMaxBytes, MaxValueSize: maxStatusValue},
	} {
		if err := c.ensureBucket(ctx, kv); err != nil {
			return fmt.Errorf("cluster: bucket %s: %w", kv.Bucket, err)
		}
	}
	return nil
}

// streamConfigs are the work and results streams with s's settings.
func streamConfigs(s Settings) []jetstream.StreamConfig {
	return []jetstream.StreamConfig{{
		Name:       WorkStream,
		Subjects:   []string{workPrefix + ">"},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Replicas:   s.Replicas,
		Duplicates: dedupWindow,
		MaxAge:     s.ResultsMaxAge, // a chunk older than its results could be is nobody's
		MaxBytes:   workMaxBytes,
		MaxMsgSize: maxChunkMsg,
		Discard:    jetstream.DiscardNew,
	}, {
		Name:              ResultsStream,
		Subjects:          []string{resultsPrefix + ">"},
		Retention:         jetstream.LimitsPolicy,
		Storage:           jetstream.FileStorage,
		MaxAge:            s.ResultsMaxAge,
		Replicas:          s.Replicas,
		Duplicates:        dedupWindow,
		MaxBytes:          s.ResultsMaxBytes,
		MaxMsgSize:        maxResultMsg,
		MaxMsgsPerSubject: maxResultsPerSubject,
		Discard:           jetstream.DiscardOld,
	}}
}

// withDefaults fills the settings left zero.
func (s Settings) withDefaults() Settings {
	if s.AckWait <= 0 {
		s.AckWait = DefaultAckWait
	}
	if s.MaxDeliver <= 0 {
		s.MaxDeliver = 10
	}
	if s.Replicas <= 0 {
		s.Replicas = 1
	}
	if s.ResultsMaxAge <= 0 {
		s.ResultsMaxAge = ResultsMaxAge
	}
	if s.ResultsMaxBytes <= 0 {
		s.ResultsMaxBytes = DefaultResultsMaxBytes
	}
	return s
}

// ensureStream creates the stream, or updates it when a setting Setup
// chooses differs from the stream's.
func (c *Conn) ensureStream(ctx context.Context, cfg jetstream.StreamConfig) error {
	st, err := c.JS.Stream(ctx, cfg.Name)
	if err == nil && sameStream(st.CachedInfo().Config, cfg) {
		return nil
	}
	if err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	_, err = c.JS.CreateOrUpdateStream(ctx, cfg)
	return err
}

// sameStream reports whether the stream has every setting Setup chooses.
func sameStream(have, want jetstream.StreamConfig) bool {
	return slices.Equal(have.Subjects, want.Subjects) && have.Retention == want.Retention &&
		have.Storage == want.Storage && have.Replicas == want.Replicas &&
		have.Duplicates == want.Duplicates && have.MaxAge == want.MaxAge &&
		have.MaxBytes == want.MaxBytes && have.MaxMsgSize == want.MaxMsgSize &&
		unset(have.MaxMsgsPerSubject) == unset(want.MaxMsgsPerSubject) && have.Discard == want.Discard
}

// unset maps JetStream's two spellings of "no limit" (0 asked, -1
// stored) to 0.
func unset(n int64) int64 {
	if n < 0 {
		return 0
	}
	return n
}

// ensureConsumer creates the workers' consumer, or updates it when its ack
// wait or delivery bound differs.
func (c *Conn) ensureConsumer(ctx context.Context, s Settings) error {
	want := jetstream.ConsumerConfig{
		Durable:       WorkConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       s.AckWait,
		MaxDeliver:    s.MaxDeliver,
		FilterSubject: workPrefix + ">",
		MaxWaiting:    maxPulls,
	}
	old, err := c.JS.Consumer(ctx, WorkStream, WorkConsumer)
	switch {
	case err == nil:
		have := old.CachedInfo().Config
		if have.AckPolicy == want.AckPolicy && have.AckWait == want.AckWait &&
			have.MaxDeliver == want.MaxDeliver && have.FilterSubject == want.FilterSubject {
			return nil
		}
		want.MaxWaiting = have.MaxWaiting // NATS cannot change it
	case !errors.Is(err, jetstream.ErrConsumerNotFound):
		return err
	}
	_, err = c.JS.CreateOrUpdateConsumer(ctx, WorkStream, want)
	return err
}

// ensureBucket creates the bucket, or updates it when its TTL, storage,
// replicas or size bounds differ.
func (c *Conn) ensureBucket(ctx context.Context, cfg jetstream.KeyValueConfig) error {
	st, err := c.JS.Stream(ctx, "KV_"+cfg.Bucket)
	if err == nil {
		have := st.CachedInfo().Config
		if have.MaxAge == cfg.TTL && have.Storage == cfg.Storage && have.Replicas == cfg.Replicas &&
			have.MaxBytes == cfg.MaxBytes && have.MaxMsgSize == cfg.MaxValueSize {
			return nil
		}
	} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	_, err = c.JS.CreateOrUpdateKeyValue(ctx, cfg)
	return err
}
