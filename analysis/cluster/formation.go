package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
)

// formationSubject is where an outpost server answers how far its cluster
// has formed (a core NATS request; the server's own identity subscribes,
// clients and workers may only ask).
const formationSubject = "outpost.cluster.formation"

// Formation is one server's view of its cluster forming: the peers it
// has routes to (itself included), the replicas the streams want, the
// JetStream meta leader, and whether the streams exist (Ready).
type Formation struct {
	Server string `json:"server"`
	Peers  int    `json:"peers"`
	Want   int    `json:"want"`
	Leader string `json:"leader,omitempty"`
	Ready  bool   `json:"ready"`
	// Step is what the server does now, when not ready ("waiting for
	// peers", "creating the streams: …").
	Step string `json:"step,omitempty"`
}

// String is "ready (3 of 3 peers, meta leader n2)" or
// "forming (2 of 3 peers, meta leader n1): waiting for peers".
func (f Formation) String() string {
	state := "forming"
	if f.Ready {
		state = "ready"
	}
	leader := "no JetStream meta leader yet"
	if f.Leader != "" {
		leader = "meta leader " + printable(clip(f.Leader))
	}
	s := fmt.Sprintf("%s (%d of %d peers, %s)", state, f.Peers, f.Want, leader)
	if !f.Ready && f.Step != "" {
		s += ": " + printable(clip(f.Step))
	}
	return s
}

// formation is ns's view: its distinct route peers and the meta leader.
func formation(ns *server.Server, want int) Formation {
	f := Formation{Server: ns.Name(), Peers: 1, Want: want}
	if rz, err := ns.Routez(nil); err == nil {
		seen := map[string]bool{}
		for _, r := range rz.Routes {
			if r.RemoteName != "" && !seen[r.RemoteName] { // a route pool has several connections per peer
				seen[r.RemoteName] = true
				f.Peers++
			}
		}
	}
	if !ns.JetStreamIsClustered() {
		f.Leader = ns.Name() // a single server leads itself
	} else if js, err := ns.Jsz(&server.JSzOptions{}); err == nil && js.Meta != nil {
		f.Leader = js.Meta.Leader
	}
	return f
}

// formWait bounds how long a worker or a client waits for a cluster that
// is forming (its servers say so): long enough for an operator to start
// the other nodes on their machines; the wait logs what it waits for.
const formWait = 5 * time.Minute

// formPoll is the pause between two looks at a forming cluster.
const formPoll = time.Second

// ensureAttempt bounds one look for the streams while the cluster may be
// forming: a JetStream request that no meta leader answers would
// otherwise wait for the caller's whole deadline.
const ensureAttempt = 10 * time.Second

// formationAsk bounds one formation request.
const formationAsk = 2 * time.Second

// errNoFormation: no outpost server answers formation requests (another
// NATS cluster, or an older server).
var errNoFormation = errors.New("no outpost server answers formation requests")

// Formation asks the servers how far the cluster has formed (the first
// answer); errNoFormation when none answers.
func (c *Conn) Formation(ctx context.Context) (*Formation, error) {
	ctx, cancel := context.WithTimeout(ctx, formationAsk)
	defer cancel()
	msg, err := c.NC.RequestWithContext(ctx, formationSubject, nil)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) {
			return nil, errNoFormation
		}
		return nil, fmt.Errorf("cluster: formation: %w", err)
	}
	var f Formation
	if err := json.Unmarshal(msg.Data, &f); err != nil {
		return nil, fmt.Errorf("cluster: formation: %w", err)
	}
	return &f, nil
}

// Ensure makes sure the streams, the workers' consumer and the buckets
// exist. Without credentials it creates them (Setup), so the order
// submitters and workers start in does not matter; with credentials the
// server created them (workers and clients may not) and Ensure only checks
// that they are there. While the servers say the cluster is forming it
// waits, up to formWait, logging what it waits for each time that
// changes; on a formed cluster (or one whose servers do not say) a
// missing stream is an error at once, and transient errors of a cluster
// between leaders are retried as before.
func (c *Conn) Ensure(ctx context.Context, s Settings, log zerolog.Logger) error {
	deadline := time.Now().Add(formWait)
	said := ""
	var transient time.Time // the first transient error in a row
	for {
		if f, err := c.Formation(ctx); err == nil && !f.Ready {
			if time.Now().After(deadline) {
				return fmt.Errorf("cluster: still %s after %s (server %s): the streams do not exist yet", f, formWait, printable(clip(f.Server)))
			}
			if msg := f.String(); msg != said {
				log.Warn().Str("server", printable(clip(f.Server))).Msgf("cluster: waiting for the cluster to form: %s (waiting at most %s)", msg, formWait)
				said = msg
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(formPoll):
			}
			continue
		}
		// formed, or its servers do not say (another NATS cluster)
		actx, cancel := context.WithTimeout(ctx, ensureAttempt)
		err := c.ensure(actx, s)
		cancel()
		if err != nil && isTransient(err) && ctx.Err() == nil {
			// a cluster between leaders: look again (the servers may say
			// it is forming), for up to transientFor
			if transient.IsZero() {
				transient = time.Now()
			}
			if time.Since(transient) < transientFor {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(transientPause):
				}
				continue
			}
		}
		if err == nil && said != "" {
			log.Info().Msg("cluster: formed; the streams are ready")
		}
		return err
	}
}
