package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// Role is what an identity may do on the cluster.
type Role string

// The roles. Each identity is one NATS nkey user with the role's
// permissions (NATS's own per-user publish/subscribe permissions); see
// rolePermissions for the subjects.
const (
	// RoleAdmin may do everything, purge and delete streams included.
	RoleAdmin Role = "admin"
	// RoleWorker takes chunks from the workers' consumer, publishes
	// results and writes its own heartbeat in the workers bucket.
	RoleWorker Role = "worker"
	// RoleClient submits chunks, reads results and writes job entries.
	RoleClient Role = "client"
	// roleServer is the server's own identity: it creates the streams.
	roleServer Role = "server"
)

// Files of an authorization directory (outpost cluster init --dir).
const (
	authFile   = "authorization.json" // public keys and roles: the server reads it
	serverSeed = "server.nk"          // the server's own identity (stays with the server)
)

// Identity is one nkey user of the authorization.
type Identity struct {
	Role Role `json:"role"`
	// Name is the credentials file's base name ("worker", "worker-2").
	Name string `json:"name"`
	// Nkey is the public user nkey (U…).
	Nkey string `json:"nkey"`
}

// Authorization is the server's side of `outpost cluster init`: who may
// connect and as what. It holds no secret except the routes' password.
type Authorization struct {
	Identities []Identity `json:"identities"`
	// RoutePassword authenticates the nodes of a NATS cluster to each
	// other (the cluster port refuses anyone else).
	RoutePassword string `json:"route_password"`
	// serverSeed is the server's own nkey seed (read from server.nk).
	serverSeed []byte
}

// InitAuth writes a new authorization into dir: authorization.json and
// server.nk for the server, and admin.creds, client.creds, worker.creds
// (and worker-2.creds … worker-N.creds when workers > 1) for the clients,
// all mode 600. It refuses a directory that already has an authorization:
// keys are never overwritten.
func InitAuth(dir string, workers int) ([]string, error) {
	if workers < 1 || workers > 100_000 {
		return nil, fmt.Errorf("cluster: init: %d workers: want 1..100000", workers)
	}
	if _, err := os.Stat(filepath.Join(dir, authFile)); err == nil {
		return nil, fmt.Errorf("cluster: init: %s already has an authorization (%s): keys are not overwritten", dir, authFile)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cluster: init: %w", err)
	}
	names := []struct {
		role Role
		name string
	}{{RoleAdmin, "admin"}, {RoleClient, "client"}, {RoleWorker, "worker"}}
	for i := 2; i <= workers; i++ {
		names = append(names, struct {
			role Role
			name string
		}{RoleWorker, "worker-" + strconv.Itoa(i)})
	}
	a := &Authorization{}
	var written []string
	for _, n := range names {
		path := filepath.Join(dir, n.name+".creds")
		pub, err := writeSeed(path, fmt.Sprintf("role %s (%s)", n.role, n.name))
		if err != nil {
			return written, err
		}
		written = append(written, path)
		a.Identities = append(a.Identities, Identity{Role: n.role, Name: n.name, Nkey: pub})
	}
	pub, err := writeSeed(filepath.Join(dir, serverSeed), "the server's own identity")
	if err != nil {
		return written, err
	}
	a.Identities = append(a.Identities, Identity{Role: roleServer, Name: "server", Nkey: pub})
	var pw [24]byte
	if _, err := rand.Read(pw[:]); err != nil {
		return written, fmt.Errorf("cluster: init: %w", err)
	}
	a.RoutePassword = hex.EncodeToString(pw[:])
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return written, err
	}
	if err := os.WriteFile(filepath.Join(dir, authFile), append(b, '\n'), 0o600); err != nil {
		return written, fmt.Errorf("cluster: init: %w", err)
	}
	return written, nil
}

// writeSeed creates a user nkey and writes its seed to path (mode 600,
// never over an existing file); it returns the public key.
func writeSeed(path, what string) (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", fmt.Errorf("cluster: init: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return "", fmt.Errorf("cluster: init: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", fmt.Errorf("cluster: init: %w", err)
	}
	text := "# Outpost analysis cluster credentials: " + what + ".\n" +
		"# Secret: this is the identity's private NATS nkey seed.\n" +
		"-----BEGIN USER NKEY SEED-----\n" + string(seed) + "\n------END USER NKEY SEED------\n"
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("cluster: init: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("cluster: init: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("cluster: init: %s: %w", path, err)
	}
	return pub, nil
}

// LoadAuth reads the authorization that InitAuth wrote into dir.
func LoadAuth(dir string) (*Authorization, error) {
	b, err := os.ReadFile(filepath.Join(dir, authFile))
	if err != nil {
		return nil, fmt.Errorf("cluster: --auth %s: %w (create it with: outpost cluster init --dir %s)", dir, err, dir)
	}
	a := &Authorization{}
	if err := json.Unmarshal(b, a); err != nil {
		return nil, fmt.Errorf("cluster: --auth %s: %s: %w", dir, authFile, err)
	}
	if len(a.Identities) == 0 || a.RoutePassword == "" {
		return nil, fmt.Errorf("cluster: --auth %s: %s has no identities or no route password", dir, authFile)
	}
	for _, id := range a.Identities {
		if !nkeys.IsValidPublicUserKey(id.Nkey) {
			return nil, fmt.Errorf("cluster: --auth %s: identity %q: %q is not a public user nkey", dir, id.Name, id.Nkey)
		}
		switch id.Role {
		case RoleAdmin, RoleWorker, RoleClient, roleServer:
		default:
			return nil, fmt.Errorf("cluster: --auth %s: identity %q: unknown role %q", dir, id.Name, id.Role)
		}
	}
	if a.serverSeed, err = os.ReadFile(filepath.Join(dir, serverSeed)); err != nil {
		return nil, fmt.Errorf("cluster: --auth %s: the server's identity: %w", dir, err)
	}
	return a, nil
}

// users are the server's nkey users with their roles' permissions.
func (a *Authorization) users() []*server.NkeyUser {
	out := make([]*server.NkeyUser, 0, len(a.Identities))
	for _, id := range a.Identities {
		out = append(out, &server.NkeyUser{Nkey: id.Nkey, Permissions: rolePermissions(id.Role, id.Nkey)})
	}
	return out
}

// InboxPrefix is the reply-subject prefix of the identity with public key
// pub: each identity receives replies only under its own prefix, so no
// one can read another's replies (pulled chunks, results, stream info).
func InboxPrefix(pub string) string { return "_INBOX_" + pub }

// rolePermissions are the subjects an identity of role may publish and
// subscribe to (nil: everything, for admin and the server). These are the
// JetStream API subjects the Worker, the Dispatcher and Status use and
// nothing more: workers cannot publish work or touch job entries, clients
// cannot take work or publish results, neither can purge, delete or
// change a stream, and a worker writes only its own heartbeat key and
// publishes only results under its own public key. Besides its replies, a
// client subscribes only to JetStream's max-deliveries advisories of the
// workers' consumer (gaveUpSubject).
func rolePermissions(role Role, pub string) *server.Permissions {
	if role == RoleAdmin || role == roleServer {
		return nil
	}
	info := []string{
		"$JS.API.STREAM.INFO." + WorkStream, "$JS.API.STREAM.INFO." + ResultsStream,
		"$JS.API.STREAM.INFO.KV_" + WorkersBucket, "$JS.API.STREAM.INFO.KV_" + JobsBucket,
		"$JS.API.CONSUMER.INFO." + WorkStream + "." + WorkConsumer,
		formationSubject, // ask how far the cluster has formed (only servers answer)
	}
	sub := &server.SubjectPermission{Allow: []string{InboxPrefix(pub) + ".>"}}
	if role == RoleWorker {
		return &server.Permissions{Subscribe: sub, Publish: &server.SubjectPermission{Allow: append(info,
			"$JS.API.CONSUMER.MSG.NEXT."+WorkStream+"."+WorkConsumer,
			"$JS.ACK."+WorkStream+"."+WorkConsumer+".>",
			// its own results only: the subject's last token is its
			// public key, so a result says who published it
			resultsPrefix+"*.*."+pub,
			"$KV."+WorkersBucket+"."+pub+".>",
		)}}
	}
	// a client hears when JetStream gives up delivering a chunk (a
	// submitter publishes it again: checkDeadlines)
	sub = &server.SubjectPermission{Allow: append(sub.Allow, gaveUpSubject)}
	return &server.Permissions{Subscribe: sub, Publish: &server.SubjectPermission{Allow: append(info,
		workPrefix+">",
		"$KV."+JobsBucket+".>",
		// read results and the buckets with ephemeral consumers (created,
		// and deleted when done: consumers only, never a message)
		"$JS.API.CONSUMER.CREATE."+ResultsStream+".>",
		"$JS.API.CONSUMER.DELETE."+ResultsStream+".*",
		"$JS.API.CONSUMER.DELETE.KV_"+WorkersBucket+".*",
		"$JS.API.CONSUMER.DELETE.KV_"+JobsBucket+".*",
		"$JS.API.CONSUMER.MSG.NEXT."+ResultsStream+".*",
		"$JS.API.CONSUMER.CREATE.KV_"+WorkersBucket+".>",
		"$JS.API.CONSUMER.CREATE.KV_"+JobsBucket+".>",
		"$JS.API.DIRECT.GET.KV_"+WorkersBucket+".>",
		"$JS.API.DIRECT.GET.KV_"+JobsBucket+".>",
		"$JS.FC.KV_"+WorkersBucket+".>",
		"$JS.FC.KV_"+JobsBucket+".>",
	)}}
}

// CheckCredsMode refuses a credentials file that group or others may
// read (on systems with Unix permissions), as the daemon refuses such a
// token file (lichess.ReadTokenFile): its seed is the identity. Connect
// refuses such a file with this error, and `outpost config check`
// reports it for [cluster] creds_file; a file that cannot be read is an
// error wrapping the os error (fs.ErrNotExist when it is missing).
func CheckCredsMode(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("cluster: credentials file %s has mode %04o: it must not be readable by group or others, "+
			"because anyone who can read it can act as its identity on the cluster; fix it with: chmod 600 %s", path, perm, path)
	}
	return nil
}

// errNoSeed is a credentials file without an nkey seed.
var errNoSeed = errors.New("no nkey seed")

// credsIdentity returns the public key of a credentials file's nkey seed
// (an nkey file of outpost cluster init, or a NATS JWT .creds file, which
// carries its user's seed too), the role its comment names ("" when none)
// and whether the file holds a user JWT (an operator's setup, whose JWT
// carries its own permissions).
func credsIdentity(path string) (pub string, role Role, isJWT bool, err error) {
	if err := CheckCredsMode(path); err != nil {
		return "", "", false, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", false, fmt.Errorf("cluster: credentials: %w", err)
	}
	isJWT = strings.Contains(string(b), "BEGIN NATS USER JWT")
	if m := credsRole.FindSubmatch(b); m != nil {
		role = Role(m[1])
	}
	kp, err := nkeys.ParseDecoratedNKey(b)
	if err != nil {
		return "", "", isJWT, fmt.Errorf("cluster: credentials %s: %w: %w", path, errNoSeed, err)
	}
	defer kp.Wipe()
	pub, err = kp.PublicKey()
	return pub, role, isJWT, err
}
