package cluster_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/outpostchess/outpost/analysis/cluster"
)

// Every worker and submitter runs Setup when it starts (without
// credentials). Setup writes only what is missing or differs: an unchanged
// cluster gets no stream, consumer or bucket update (each is a proposal to
// the meta group of a NATS cluster, and concurrent updates of one stream
// race inside nats-server). The server's own advisories show each write;
// a marker stream created after each Setup says when its advisories are
// all in (the server sends them in order).
func TestSetupWritesOnlyWhatChanged(t *testing.T) {
	noLeaks(t)
	srv := startServer(t, "127.0.0.1:0", t.TempDir())
	defer srv.Shutdown()
	conn := connect(t, srv.URL())
	ctx := context.Background()
	adv := make(chan string, 256)
	sub, err := conn.NC.Subscribe("$JS.EVENT.ADVISORY.>", func(m *nats.Msg) { adv <- m.Subject })
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := conn.NC.Flush(); err != nil {
		t.Fatal(err)
	}
	marker := 0
	writes := func(s cluster.Settings) []string {
		t.Helper()
		if err := conn.Setup(ctx, s); err != nil {
			t.Fatal(err)
		}
		marker++
		name := "MARKER" + string(rune('A'+marker))
		if _, err := conn.JS.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{"marker." + name}}); err != nil {
			t.Fatal(err)
		}
		var got []string
		for subj := range adv {
			if strings.HasSuffix(subj, "STREAM.CREATED."+name) {
				return got
			}
			if strings.Contains(subj, ".CREATED.") || strings.Contains(subj, ".UPDATED.") || strings.Contains(subj, ".DELETED.") {
				got = append(got, strings.TrimPrefix(subj, "$JS.EVENT.ADVISORY."))
			}
		}
		return got
	}
	first := writes(cluster.Settings{})
	for _, want := range []string{"STREAM.CREATED." + cluster.WorkStream, "STREAM.CREATED." + cluster.ResultsStream, "CONSUMER.CREATED." + cluster.WorkStream + "." + cluster.WorkConsumer} {
		if !slices.Contains(first, want) {
			t.Errorf("first Setup: no %s among %v", want, first)
		}
	}
	if again := writes(cluster.Settings{}); len(again) != 0 {
		t.Errorf("Setup of an unchanged cluster wrote %v", again)
	}
	if again := writes(cluster.Settings{AckWait: cluster.DefaultAckWait, MaxDeliver: 10, Replicas: 1, ResultsMaxAge: cluster.ResultsMaxAge}); len(again) != 0 {
		t.Errorf("Setup with the defaults spelled out wrote %v", again)
	}
	changed := writes(cluster.Settings{ResultsMaxAge: cluster.ResultsMaxAge + time.Hour})
	for _, want := range []string{"STREAM.UPDATED." + cluster.ResultsStream, "STREAM.UPDATED.KV_" + cluster.JobsBucket} {
		if !slices.Contains(changed, want) {
			t.Errorf("Setup with a new results age: no %s among %v", want, changed)
		}
	}
	if slices.Contains(changed, "STREAM.UPDATED."+cluster.WorkStream) {
		t.Errorf("Setup with a new results age updated the work stream: %v", changed)
	}
}
