package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis/cluster"
)

func TestClusterPage(t *testing.T) {
	now := time.Date(2026, 11, 26, 1, 2, 3, 0, time.UTC)
	st := &cluster.ClusterStatus{
		Workers:            []cluster.WorkerState{{ID: "w1<b>", Host: "box", Engines: 2, Busy: 1, Chunks: 7, Failed: 2, Positions: 33, Nodes: 1234, Started: now, Updated: now}},
		Queued:             4,
		InFlight:           1,
		PositionsPerSecond: 3.25,
		Jobs:               []cluster.JobStatus{{ID: "abc123", Engine: "sf15", Created: now, Chunks: 9, Positions: 44, ChunksDone: 5}},
	}
	e := newTestEnv(t, func(o *Options) {
		o.Cluster = func(context.Context) (*cluster.ClusterStatus, error) { return st, nil }
	})
	body := e.page(t, "/cluster")
	mustContain(t, body, "<strong>1</strong> workers", "<strong>4</strong> chunks queued", "<strong>3.2</strong> positions/s",
		"w1&lt;b&gt;", "<td>7</td><td>2</td><td>33</td>", ">Failed</th>", "01:02:03", "<code>abc123</code>", "5 / 9", `href="/cluster" aria-current="page"`)
	code, body := e.get(t, "/api/cluster")
	var got cluster.ClusterStatus
	if code != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil || got.Queued != 4 || got.Jobs[0].ChunksDone != 5 {
		t.Fatalf("api: %d %s", code, body)
	}

	none := newTestEnv(t, nil)
	_, body = none.get(t, "/cluster")
	mustContain(t, body, "No cluster is configured")
	if code, _ := none.get(t, "/api/cluster"); code != http.StatusNotFound {
		t.Errorf("api without a cluster: %d, want 404", code)
	}

	down := newTestEnv(t, func(o *Options) {
		o.Cluster = func(context.Context) (*cluster.ClusterStatus, error) {
			return nil, errors.New("cluster: connect nats://x:4222: no server answered")
		}
	})
	_, body = down.get(t, "/cluster")
	mustContain(t, body, `role="alert">cluster: connect nats://x:4222: no server answered`)
	if code, _ := down.get(t, "/api/cluster"); code != http.StatusBadGateway {
		t.Errorf("api with the cluster down: %d, want 502", code)
	}
}
