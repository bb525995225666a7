package cluster_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/bots/uci"
)

// testPKI is a throwaway CA and a certificate it signed for 127.0.0.1 and
// localhost (the servers' and the routes'), as PEM files.
type testPKI struct {
	CA, Cert, Key string
}

func newPKI(t testing.TB) testPKI {
	t.Helper()
	dir := t.TempDir()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "outpost test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "outpost node"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	p := testPKI{CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "node.pem"), Key: filepath.Join(dir, "node-key.pem")}
	for path, block := range map[string]*pem.Block{p.CA: {Type: "CERTIFICATE", Bytes: caDER},
		p.Cert: {Type: "CERTIFICATE", Bytes: der}, p.Key: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// secureEnv is an authorization (admin, client and two workers) and a PKI.
type secureEnv struct {
	authDir string
	auth    *cluster.Authorization
	pki     testPKI
}

func newSecureEnv(t testing.TB) secureEnv {
	t.Helper()
	dir := t.TempDir()
	if _, err := cluster.InitAuth(dir, 2); err != nil {
		t.Fatal(err)
	}
	a, err := cluster.LoadAuth(dir)
	if err != nil {
		t.Fatal(err)
	}
	return secureEnv{authDir: dir, auth: a, pki: newPKI(t)}
}

// serverOptions are a loopback server's options with the env's
// authorization and TLS.
func (e secureEnv) serverOptions(t testing.TB, name string) cluster.ServerOptions {
	return cluster.ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Name: name, Auth: e.auth,
		TLSCert: e.pki.Cert, TLSKey: e.pki.Key, TLSCA: e.pki.CA, AckWait: testAckWait, ResultsMaxAge: 2 * time.Hour}
}

// startSecure starts a server with auth and TLS and waits until it has
// created the streams.
func (e secureEnv) startSecure(t testing.TB) *cluster.Server {
	t.Helper()
	srv, err := cluster.Serve(e.serverOptions(t, "secure"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	waitReady(t, srv)
	return srv
}

// waitReady waits until every server has created the streams (an event
// of the server: its setup succeeded); the bound only ends a hung test.
func waitReady(t testing.TB, srvs ...*cluster.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, s := range srvs {
		if err := s.Ready(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// connectAs connects with a role's credentials file (admin, client,
// worker, worker-2) and the CA; violations, when set, receives the
// permissions violations the server reports.
func (e secureEnv) connectAs(t testing.TB, url, creds string, violations chan<- error) *cluster.Conn {
	t.Helper()
	c, err := cluster.Connect(context.Background(), cluster.ConnOptions{URL: url, Name: creds,
		CredsFile: filepath.Join(e.authDir, creds+".creds"), TLSCA: e.pki.CA, OnViolation: func(err error) {
			if violations != nil {
				select {
				case violations <- err:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestInitWritesCredentials: init writes one credentials file per role,
// mode 600, and refuses to overwrite them.
func TestInitWritesCredentials(t *testing.T) {
	dir := t.TempDir()
	files, err := cluster.InitAuth(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"admin.creds", "client.creds", "worker.creds", "worker-2.creds", "worker-3.creds"}
	if len(files) != len(want) {
		t.Fatalf("wrote %v, want %v", files, want)
	}
	for i, f := range files {
		if filepath.Base(f) != want[i] {
			t.Errorf("file %d: %s, want %s", i, f, want[i])
		}
		st, err := os.Stat(f)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v mode %v, want 600", f, err, st.Mode().Perm())
		}
	}
	for _, f := range []string{"authorization.json", "server.nk"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, want mode 600", f, err)
		}
	}
	if _, err := cluster.InitAuth(dir, 1); err == nil || !strings.Contains(err.Error(), "not overwritten") {
		t.Errorf("second init in the same directory: %v, want a refusal", err)
	}
	if _, err := cluster.LoadAuth(t.TempDir()); err == nil || !strings.Contains(err.Error(), "outpost cluster init") {
		t.Errorf("LoadAuth of an empty directory: %v, want the command that creates it", err)
	}
}

// TestClusterRefusesWithoutCredentials: a server with an authorization
// and TLS refuses a client without credentials, with credentials of
// another authorization, or without the CA, each with an error that says
// which; the client's own credentials and CA connect.
func TestClusterRefusesWithoutCredentials(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	otherDir := t.TempDir()
	if _, err := cluster.InitAuth(otherDir, 1); err != nil {
		t.Fatal(err)
	}
	client, err := os.ReadFile(filepath.Join(e.authDir, "client.creds"))
	if err != nil {
		t.Fatal(err)
	}
	readable, groupReadable := filepath.Join(otherDir, "readable.creds"), filepath.Join(otherDir, "group.creds")
	for path, mode := range map[string]os.FileMode{readable: 0o644, groupReadable: 0o640} {
		if err := os.WriteFile(path, client, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		opt  cluster.ConnOptions
		want string // "" : connects
	}{
		{"no credentials", cluster.ConnOptions{TLSCA: e.pki.CA}, "requires credentials and none were given (--creds FILE"},
		{"another cluster's credentials", cluster.ConnOptions{TLSCA: e.pki.CA, CredsFile: filepath.Join(otherDir, "client.creds")}, "does not accept the credentials"},
		{"no CA", cluster.ConnOptions{CredsFile: filepath.Join(e.authDir, "client.creds")}, "--tls-ca"},
		{"credentials file missing", cluster.ConnOptions{TLSCA: e.pki.CA, CredsFile: filepath.Join(otherDir, "nope.creds")}, "no such file"},
		{"credentials readable by others", cluster.ConnOptions{TLSCA: e.pki.CA, CredsFile: readable}, "has mode 0644: it must not be readable by group or others"},
		{"credentials readable by the group", cluster.ConnOptions{TLSCA: e.pki.CA, CredsFile: groupReadable}, "chmod 600 " + groupReadable},
		{"client", cluster.ConnOptions{TLSCA: e.pki.CA, CredsFile: filepath.Join(e.authDir, "client.creds")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.URL = srv.URL()
			c, err := cluster.Connect(context.Background(), tc.opt)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if _, err := c.Status(context.Background()); err != nil {
					t.Errorf("status as client: %v", err)
				}
				return
			}
			if err == nil {
				c.Close()
				t.Fatalf("connected, want refused (%s)", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestServeRefusesOpenNetworkAddress: a non-loopback address without TLS
// is refused with a message naming TLS; --insecure overrides; loopback
// needs nothing.
func TestServeRefusesOpenNetworkAddress(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  cluster.ServerOptions
		want string
	}{
		{"all interfaces", cluster.ServerOptions{Addr: "0.0.0.0:0"}, "TLS is off"},
		{"empty host", cluster.ServerOptions{Addr: ":0"}, "TLS is off"},
		{"routes on the network", cluster.ServerOptions{Addr: "127.0.0.1:0", ClusterAddr: "0.0.0.0:0"}, "routes are not TLS"},
		{"insecure", cluster.ServerOptions{Addr: "0.0.0.0:0", Insecure: true}, ""},
		{"loopback", cluster.ServerOptions{Addr: "127.0.0.1:0"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.StoreDir = t.TempDir()
			s, err := cluster.Serve(tc.opt)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				s.Shutdown()
				return
			}
			if err == nil {
				s.Shutdown()
				t.Fatalf("served, want refused (%s)", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--tls-cert") {
				t.Errorf("error %q, want %q and the TLS flags", err, tc.want)
			}
		})
	}
}

// fakeStart starts countingEngines (no Stockfish needed).
func fakeStart(ctx context.Context, spec analysis.EngineSpec, log zerolog.Logger) (analysis.Searcher, error) {
	return &countingEngine{}, nil
}

// localOutcomes runs the chunks as the local pool does (analysis.RunChunk
// on a fresh countingEngine each).
func localOutcomes(t testing.TB, chunks []analysis.Chunk) [][]analysis.Outcome {
	t.Helper()
	out := make([][]analysis.Outcome, len(chunks))
	for i, c := range chunks {
		o, err := analysis.RunChunk(context.Background(), &countingEngine{}, c, 1, zerolog.Nop(), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = o
	}
	return out
}

// isDenied runs an operation and waits for the server's permissions
// violation naming subject (the server drops a denied publish or
// subscription and says so asynchronously; the operation itself then
// fails or times out).
func isDenied(t *testing.T, what string, violations chan error, subject string, op func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done, exited := make(chan error, 1), make(chan struct{})
	go func() { defer close(exited); done <- op(ctx) }()
	defer func() { cancel(); <-exited }()
	for {
		select {
		case v := <-violations:
			if strings.Contains(v.Error(), subject) {
				return
			}
		case err := <-done:
			done = nil
			if err == nil {
				t.Errorf("%s: allowed, want refused", what)
				return
			}
		case <-ctx.Done():
			t.Errorf("%s: the server reported no permissions violation for %s", what, subject)
			return
		}
	}
}

// streamMsgs is how many messages a stream holds (read as admin).
func streamMsgs(t *testing.T, admin *cluster.Conn, stream string) uint64 {
	t.Helper()
	s, err := admin.JS.Stream(context.Background(), stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// keepsUnchanged is the admin's view of the streams before and after a
// denied operation.
func keepsUnchanged(t *testing.T, admin *cluster.Conn) func(what string) {
	t.Helper()
	streams := []string{cluster.WorkStream, cluster.ResultsStream, "KV_" + cluster.WorkersBucket, "KV_" + cluster.JobsBucket}
	before := map[string]uint64{}
	for _, s := range streams {
		before[s] = streamMsgs(t, admin, s)
	}
	return func(what string) {
		t.Helper()
		for _, s := range streams {
			if got := streamMsgs(t, admin, s); got != before[s] {
				t.Errorf("%s: stream %s went from %d to %d messages", what, s, before[s], got)
			}
		}
	}
}

// testChunks are n chunks of 3 positions (fake searches: any node counts).
func testChunks(n, salt int) []analysis.Chunk {
	chunks := make([]analysis.Chunk, n)
	for i := range chunks {
		jobs := make([]analysis.Job, 3)
		for j := range jobs {
			jobs[j] = analysis.Job{WhiteToMove: true, Limits: uci.Limits{Nodes: int64(1000*salt + 10*i + j + 1)}}
		}
		chunks[i] = analysis.Chunk{Jobs: jobs}
	}
	return chunks
}

// TestClusterRolesLeastPrivilege: over auth and TLS a client's job runs
// on a worker and equals the local result; then, with chunks waiting,
// every operation outside a role is refused by the server and changes
// nothing: only admin purges or deletes, workers do not publish work or
// write job entries, clients do not take work or publish results, no one
// writes another worker's heartbeat or reads another's replies.
func TestClusterRolesLeastPrivilege(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	vc, vw, vw2 := make(chan error, 16), make(chan error, 16), make(chan error, 16)
	admin := e.connectAs(t, srv.URL(), "admin", nil)
	client := e.connectAs(t, srv.URL(), "client", vc)
	w1 := e.connectAs(t, srv.URL(), "worker", vw)
	w2 := e.connectAs(t, srv.URL(), "worker-2", vw2)
	ctx := context.Background()
	spec := analysis.EngineSpec{Command: []string{"sf15"}} // the worker's engine is a fake
	if cons, err := admin.JS.Consumer(ctx, cluster.WorkStream, cluster.WorkConsumer); err != nil || cons.CachedInfo().Config.MaxWaiting != 8192 {
		t.Errorf("the workers' consumer: %v; want room for 8,192 waiting pulls (one per engine)", err)
	}
	if rs, err := admin.JS.Stream(ctx, cluster.ResultsStream); err != nil || rs.CachedInfo().Config.MaxAge != 2*time.Hour {
		t.Errorf("the results stream: %v; want the server's results max age, 2h", err)
	}

	stop := runWorker(&cluster.Worker{Conn: w1, ID: "w1", Engines: 1, Start: fakeStart, Logger: zerolog.Nop()})
	stop2 := runWorker(&cluster.Worker{Conn: w2, ID: "w2", Engines: 1, Start: fakeStart, Logger: zerolog.Nop()})
	chunks := testChunks(4, 1)
	d := &cluster.Dispatcher{Conn: client, Logger: zerolog.Nop()}
	got, err := d.RunChunks(ctx, spec, chunks, nil)
	if err != nil {
		t.Fatalf("a client's job over auth and TLS: %v", err)
	}
	if want := localOutcomes(t, chunks); !reflect.DeepEqual(got, want) {
		t.Errorf("cluster outcomes %+v, local %+v", got, want)
	}
	// both workers are listed: the one that took the work wrote its
	// heartbeat before taking any (Worker.Run); the other may have started
	// after the job was done on a busy machine, so its first heartbeat is
	// waited for
	var st *cluster.ClusterStatus
	ok := assert.Eventually(t, func() bool {
		st, err = client.Status(ctx)
		return err == nil && len(st.Workers) == 2
	}, 30*time.Second, 10*time.Millisecond)
	if err := errors.Join(stop(), stop2()); err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("status as client: %v, %v; want both workers", err, st)
	}
	// a job waits in the work stream, no worker running
	jctx, cancelJob := context.WithCancel(ctx)
	jobDone := make(chan struct{})
	defer func() { cancelJob(); <-jobDone }()
	go func() { defer close(jobDone); _, _ = d.RunChunks(jctx, spec, testChunks(3, 2), nil) }()
	require.Eventually(t, func() bool { return streamMsgs(t, admin, cluster.WorkStream) == 3 }, 30*time.Second, 10*time.Millisecond)
	// w2 writes its own heartbeat (allowed), so w1 has a key to attack
	kv2, err := w2.JS.KeyValue(ctx, cluster.WorkersBucket)
	if err != nil {
		t.Fatal(err)
	}
	w2Key := w2.Identity + ".w2"
	if _, err := kv2.Put(ctx, w2Key, []byte(`{"id":"w2"}`)); err != nil {
		t.Fatalf("a worker writing its own heartbeat: %v", err)
	}
	unchanged := keepsUnchanged(t, admin)
	for _, tc := range deniedCases(client, w1, vc, vw, w2Key) {
		isDenied(t, tc.what, tc.violations, tc.subject, tc.op)
	}
	unchanged("after the denied operations")
	// a worker's credentials may not read the status: the error says why,
	// not only that the read timed out (a session-11 trial saw only
	// "context deadline exceeded")
	sctx, cancelStatus := context.WithTimeout(ctx, 5*time.Second) // the denied read waits for this; the violation comes within milliseconds
	_, err = w1.Status(sctx)
	cancelStatus()
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
		t.Errorf("status as a worker: %v; want an error naming the permissions violation", err)
	}
	// the admin may purge (the check above can fail)
	s, err := admin.JS.Stream(ctx, cluster.WorkStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Purge(ctx); err != nil || streamMsgs(t, admin, cluster.WorkStream) != 0 {
		t.Errorf("admin purge: %v", err)
	}
}

// deniedCase is an operation outside the role of its connection.
type deniedCase struct {
	what       string
	violations chan error
	subject    string // the subject the server names in its refusal
	op         func(ctx context.Context) error
}

func deniedCases(client, worker *cluster.Conn, vc, vw chan error, otherKey string) []deniedCase {
	purge := func(c *cluster.Conn, stream string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			s, err := c.JS.Stream(ctx, stream)
			if err != nil {
				return err
			}
			return s.Purge(ctx)
		}
	}
	del := func(c *cluster.Conn, stream string) func(ctx context.Context) error {
		return func(ctx context.Context) error { return c.JS.DeleteStream(ctx, stream) }
	}
	publish := func(c *cluster.Conn, subject string) func(ctx context.Context) error {
		return func(ctx context.Context) error { _, err := c.JS.Publish(ctx, subject, []byte("{}")); return err }
	}
	put := func(c *cluster.Conn, bucket, key string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			kv, err := c.JS.KeyValue(ctx, bucket)
			if err != nil {
				return err
			}
			_, err = kv.Put(ctx, key, []byte("{}"))
			return err
		}
	}
	return []deniedCase{
		{"client purges the work stream", vc, "$JS.API.STREAM.PURGE.OUTPOST_WORK", purge(client, cluster.WorkStream)},
		{"worker purges the results", vw, "$JS.API.STREAM.PURGE.OUTPOST_RESULTS", purge(worker, cluster.ResultsStream)},
		{"client deletes the work stream", vc, "$JS.API.STREAM.DELETE.OUTPOST_WORK", del(client, cluster.WorkStream)},
		{"worker deletes the jobs bucket", vw, "$JS.API.STREAM.DELETE.KV_outpost_jobs", del(worker, "KV_"+cluster.JobsBucket)},
		{"client changes the streams", vc, "$JS.API.STREAM.UPDATE.OUTPOST_WORK", func(ctx context.Context) error {
			return client.Setup(ctx, cluster.Settings{ResultsMaxAge: time.Hour})
		}},
		{"client changes the workers' consumer", vc, "$JS.API.CONSUMER.CREATE.OUTPOST_WORK.workers", func(ctx context.Context) error {
			return client.Setup(ctx, cluster.Settings{ResultsMaxAge: 2 * time.Hour, AckWait: time.Hour})
		}},
		{"worker publishes work", vw, "outpost.work.forged.0", publish(worker, "outpost.work.forged.0")},
		{"client publishes a result", vc, "outpost.results.forged.0", publish(client, "outpost.results.forged.0")},
		{"worker publishes a result as another worker", vw, "outpost.results.forged.0." + strings.Split(otherKey, ".")[0],
			publish(worker, "outpost.results.forged.0."+strings.Split(otherKey, ".")[0])},
		{"worker publishes a result without its identity", vw, "outpost.results.forged.0", publish(worker, "outpost.results.forged.0")},
		{"client takes work", vc, "$JS.API.CONSUMER.MSG.NEXT.OUTPOST_WORK.workers", func(ctx context.Context) error {
			cons, err := client.JS.Consumer(ctx, cluster.WorkStream, cluster.WorkConsumer)
			if err != nil {
				return err
			}
			_, err = cons.Next(jetstream.FetchContext(ctx))
			return err
		}},
		{"worker writes a job entry", vw, "$KV.outpost_jobs.forged", put(worker, cluster.JobsBucket, "forged")},
		{"worker writes another worker's heartbeat", vw, "$KV.outpost_workers." + otherKey, put(worker, cluster.WorkersBucket, otherKey)},
		{"worker writes a heartbeat outside its identity", vw, "$KV.outpost_workers.forged", put(worker, cluster.WorkersBucket, "forged")},
		{"client writes a heartbeat", vc, "$KV.outpost_workers.forged", put(client, cluster.WorkersBucket, "forged")},
		{"worker reads the client's replies", vw, cluster.InboxPrefix(client.Identity), func(ctx context.Context) error {
			sub, err := worker.NC.SubscribeSync(cluster.InboxPrefix(client.Identity) + ".>")
			if err != nil {
				return err
			}
			defer sub.Unsubscribe()
			if err := worker.NC.FlushWithContext(ctx); err != nil {
				return err
			}
			<-ctx.Done() // the refusal comes asynchronously
			return ctx.Err()
		}},
	}
}
