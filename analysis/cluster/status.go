package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ClusterStatus is what `outpost cluster status` shows.
type ClusterStatus struct {
	// Workers are the workers whose heartbeat is current.
	Workers []WorkerState `json:"workers"`
	// Queued is the number of chunks waiting for a worker; InFlight the
	// number delivered and not yet acknowledged.
	Queued   uint64 `json:"queued"`
	InFlight int    `json:"in_flight"`
	// PositionsPerSecond is the workers' combined throughput over the last
	// minute.
	PositionsPerSecond float64 `json:"positions_per_second"`
	// Jobs are the jobs in the jobs bucket, newest first.
	Jobs []JobStatus `json:"jobs"`
	// Nodes are the servers that keep the work stream, its leader first
	// (one node on a single server).
	Nodes []NodeState `json:"nodes"`
	// Forming, when set, is a server's view of a cluster still forming:
	// no stream exists yet, and nothing else is filled in.
	Forming *Formation `json:"forming,omitempty"`
}

// NodeState is one server's part in the work stream.
type NodeState struct {
	Name string `json:"name"`
	// Leader: this node leads the work stream (takes its writes).
	Leader bool `json:"leader"`
	// Current: the node's copy is up to date; Offline: it does not answer.
	Current bool `json:"current"`
	Offline bool `json:"offline"`
	// Lag is how many operations its copy is behind the leader.
	Lag uint64 `json:"lag"`
}

// JobStatus is one job's progress.
type JobStatus struct {
	ID         string    `json:"id"`
	Engine     string    `json:"engine"`
	Created    time.Time `json:"created"`
	Chunks     int       `json:"chunks"`
	Positions  int       `json:"positions"`
	ChunksDone int       `json:"chunks_done"`
}

// Status reads the cluster's state.
// While the cluster is forming (its servers say so) it returns at once
// with only Forming set. A read the server denies (a worker's credentials:
// the status is the client's and the admin's) fails naming the
// permissions violation, not only the timeout it leads to.
func (c *Conn) Status(ctx context.Context) (*ClusterStatus, error) {
	st, err := c.status(ctx)
	if err != nil {
		return nil, c.explain(err)
	}
	return st, nil
}

func (c *Conn) status(ctx context.Context) (*ClusterStatus, error) {
	if f, err := c.Formation(ctx); err == nil && !f.Ready {
		return &ClusterStatus{Forming: f}, nil
	}
	if err := retryTransient(ctx, func() error { return c.ensure(ctx, Settings{}) }); err != nil {
		return nil, err
	}
	st := &ClusterStatus{}
	if err := c.workers(ctx, st); err != nil {
		return nil, err
	}
	cons, err := c.JS.Consumer(ctx, WorkStream, WorkConsumer)
	if err != nil {
		return nil, fmt.Errorf("cluster: status: %w", err)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: status: %w", err)
	}
	st.Queued, st.InFlight = ci.NumPending, ci.NumAckPending
	if err := c.nodes(ctx, st); err != nil {
		return nil, err
	}
	if err := c.jobs(ctx, st); err != nil {
		return nil, err
	}
	return st, nil
}

// nodes reads the work stream's leader and replicas.
func (c *Conn) nodes(ctx context.Context, st *ClusterStatus) error {
	s, err := c.JS.Stream(ctx, WorkStream)
	if err != nil {
		return fmt.Errorf("cluster: status: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("cluster: status: %w", err)
	}
	if info.Cluster == nil {
		return nil
	}
	if info.Cluster.Leader != "" {
		st.Nodes = append(st.Nodes, NodeState{Name: info.Cluster.Leader, Leader: true, Current: true})
	}
	for _, p := range info.Cluster.Replicas {
		st.Nodes = append(st.Nodes, NodeState{Name: p.Name, Current: p.Current, Offline: p.Offline, Lag: p.Lag})
	}
	sort.SliceStable(st.Nodes[min(1, len(st.Nodes)):], func(i, j int) bool {
		rest := st.Nodes[min(1, len(st.Nodes)):]
		return rest[i].Name < rest[j].Name
	})
	return nil
}

func (c *Conn) workers(ctx context.Context, st *ClusterStatus) error {
	workers, err := readBucket[WorkerState](ctx, c.JS, WorkersBucket, "workers")
	if err != nil {
		return err
	}
	for _, ws := range workers {
		st.Workers = append(st.Workers, ws)
		st.PositionsPerSecond += ws.Rate
	}
	sort.Slice(st.Workers, func(i, j int) bool { return st.Workers[i].ID < st.Workers[j].ID })
	return nil
}

func (c *Conn) jobs(ctx context.Context, st *ClusterStatus) error {
	jobs, err := readBucket[jobInfo](ctx, c.JS, JobsBucket, "jobs")
	if err != nil {
		return err
	}
	done, err := chunkCounts(ctx, c.JS)
	if err != nil {
		return err
	}
	for _, ji := range jobs {
		n := 0
		for index := range done[ji.ID] {
			if index < ji.Chunks { // a worker may publish for any index
				n++
			}
		}
		st.Jobs = append(st.Jobs, JobStatus{ID: ji.ID, Engine: ji.Engine, Created: ji.Created, Chunks: ji.Chunks, Positions: ji.Positions, ChunksDone: n})
	}
	sort.Slice(st.Jobs, func(i, j int) bool { return st.Jobs[i].Created.After(st.Jobs[j].Created) })
	return nil
}

// readBucket reads every entry of a key-value bucket as a T (what names the
// entries in errors); an entry gone since the listing or unreadable as a T
// is left out.
func readBucket[T any](ctx context.Context, js jetstream.JetStream, bucket, what string) ([]T, error) {
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("cluster: status: %w", err)
	}
	keys, err := kv.Keys(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, fmt.Errorf("cluster: status: %s: %w", what, err)
	}
	var out []T
	for _, k := range keys {
		e, err := kv.Get(ctx, k)
		if err != nil {
			continue // gone since the listing
		}
		var v T
		if json.Unmarshal(e.Value(), &v) != nil {
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// chunkCounts returns the chunk indexes with a stored result, per job
// (not checked: a worker may publish on any index of any job; the caller
// counts only the job's own chunks).
func chunkCounts(ctx context.Context, js jetstream.JetStream) (map[string]map[int]bool, error) {
	s, err := js.Stream(ctx, ResultsStream)
	if err != nil {
		return nil, fmt.Errorf("cluster: status: %w", err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(resultsPrefix+">"))
	if err != nil {
		return nil, fmt.Errorf("cluster: status: %w", err)
	}
	chunks := map[string]map[int]bool{} // a chunk may have several results (identities)
	for subj := range info.State.Subjects {
		if job, index, _, err := parseResultSubject(subj); err == nil {
			if chunks[job] == nil {
				chunks[job] = map[int]bool{}
			}
			chunks[job][index] = true
		}
	}
	return chunks, nil
}

// String renders the status for a terminal.
func (st *ClusterStatus) String() string {
	var b strings.Builder
	if st.Forming != nil {
		fmt.Fprintf(&b, "cluster: %s (server %s)\n", st.Forming, printable(clip(st.Forming.Server)))
		return b.String()
	}
	fmt.Fprintf(&b, "workers: %d   queued chunks: %d   in flight: %d   throughput: %.1f positions/s\n",
		len(st.Workers), st.Queued, st.InFlight, st.PositionsPerSecond)
	if len(st.Nodes) > 0 {
		b.WriteString("nodes:")
		for _, n := range st.Nodes {
			b.WriteString(" " + printable(n.String()))
		}
		b.WriteString("\n")
	}
	for _, w := range st.Workers {
		fmt.Fprintf(&b, "  %-24s engines %d  busy %d  chunks %d  failed %d  positions %d (%.1f/s)  nodes %d  seen %s ago\n",
			printable(w.ID), w.Engines, w.Busy, w.Chunks, w.Failed, w.Positions, w.Rate, w.Nodes, time.Since(w.Updated).Round(time.Second))
	}
	if len(st.Jobs) > 0 {
		b.WriteString("jobs:\n")
	}
	for _, j := range st.Jobs {
		pct := 0.0
		if j.Chunks > 0 {
			pct = 100 * float64(j.ChunksDone) / float64(j.Chunks)
		}
		fmt.Fprintf(&b, "  %s  %3.0f%%  %d/%d chunks  %d positions  %s  %s\n",
			printable(j.ID), pct, j.ChunksDone, j.Chunks, j.Positions, j.Created.Format(time.RFC3339), printable(j.Engine))
	}
	return b.String()
}

// String is the node's name and state: "n1 (leader)", "n2 (current)",
// "n3 (offline)", "n2 (behind by 12)".
func (n NodeState) String() string {
	switch {
	case n.Leader:
		return n.Name + " (leader)"
	case n.Offline:
		return n.Name + " (offline)"
	case n.Current:
		return n.Name + " (current)"
	}
	return fmt.Sprintf("%s (behind by %d)", n.Name, n.Lag)
}
