package cluster_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// Every worker and submitter runs Setup when it starts (without
// credentials). Setup writes only what is missing or differs: an unchanged
// cluster gets no stream, consumer or bucket create or update request
// (each is a proposal to the meta group of a NATS cluster, and concurrent
// updates of one stream race inside nats-server). A second connection
// sees every JetStream API request Setup sends ($JS.API.>) and then a
// marker the same connection publishes after Setup: one publisher's
// messages reach one subscription in order, so everything before the
// marker is that Setup's.
func TestSetupWritesOnlyWhatChanged(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	conn, watcher := connect(t, srv.URL()), connect(t, srv.URL())
	ctx := context.Background()
	const marker = "outpost.test.marker"
	seen := make(chan string, 1024)
	sub, err := watcher.NC.Subscribe(">", func(m *nats.Msg) {
		if m.Subject == marker || strings.HasPrefix(m.Subject, "$JS.API.") {
			seen <- m.Subject
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := watcher.NC.Flush(); err != nil {
		t.Fatal(err)
	}
	writes := func(s cluster.Settings) []string {
		t.Helper()
		if err := conn.Setup(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := conn.NC.Publish(marker, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		for subj := range seen {
			if subj == marker {
				return got
			}
			if api := strings.TrimPrefix(subj, "$JS.API."); strings.Contains(api, "CREATE.") || strings.Contains(api, "UPDATE.") || strings.Contains(api, "DELETE.") {
				got = append(got, api)
			}
		}
		return got
	}
	touches := func(ws []string, name string) bool {
		return slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, "."+name) })
	}
	first := writes(cluster.Settings{})
	for _, name := range []string{cluster.WorkStream, cluster.ResultsStream, "KV_" + cluster.WorkersBucket, "KV_" + cluster.JobsBucket, cluster.WorkStream + "." + cluster.WorkConsumer} {
		if !touches(first, name) {
			t.Errorf("first Setup: nothing created for %s among %v", name, first)
		}
	}
	if again := writes(cluster.Settings{}); len(again) != 0 {
		t.Errorf("Setup of an unchanged cluster wrote %v", again)
	}
	if again := writes(cluster.Settings{AckWait: cluster.DefaultAckWait, MaxDeliver: 10, Replicas: 1, ResultsMaxAge: cluster.ResultsMaxAge}); len(again) != 0 {
		t.Errorf("Setup with the defaults spelled out wrote %v", again)
	}
	changed := writes(cluster.Settings{ResultsMaxAge: cluster.ResultsMaxAge + time.Hour})
	// waiting chunks are kept as long as results (the work stream's MaxAge)
	for _, name := range []string{cluster.WorkStream, cluster.ResultsStream, "KV_" + cluster.JobsBucket} {
		if !touches(changed, name) {
			t.Errorf("Setup with a new results age: no write for %s among %v", name, changed)
		}
	}
	if touches(changed, "KV_"+cluster.WorkersBucket) {
		t.Errorf("Setup with a new results age wrote more than the streams and the jobs bucket: %v", changed)
	}
}
