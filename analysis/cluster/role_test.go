package cluster_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
)

// TestWrongRoleFailsAtOnce: a worker run with a client's credentials, and
// a job submitted with a worker's, fail on the server's first permissions
// violation with an error naming it and the role the credentials lack,
// instead of retrying until a deadline (the deadline here only ends a
// hung test: a violation comes within milliseconds); the worker fails
// before it says it started (OnStarted).
func TestWrongRoleFailsAtOnce(t *testing.T) {
	noLeaks(t)
	e := newSecureEnv(t)
	srv := e.startSecure(t)
	for _, tc := range []struct {
		name, creds string
		run         func(ctx context.Context, c *cluster.Conn) error
		want        []string
	}{
		{"worker with a client's credentials", "client", func(ctx context.Context, c *cluster.Conn) error {
			started := false
			err := (&cluster.Worker{Conn: c, ID: "w", Start: fakeStart, Logger: zerolog.Nop(), OnStarted: func() { started = true }}).Run(ctx)
			if started {
				t.Error("the worker said it started before it failed")
			}
			return err
		}, []string{"permissions violation", "worker role", "role client", "worker.creds"}},
		{"client with a worker's credentials", "worker", func(ctx context.Context, c *cluster.Conn) error {
			d := &cluster.Dispatcher{Conn: c, Logger: zerolog.Nop()}
			_, err := d.RunChunks(ctx, analysis.EngineSpec{Command: []string{"sf15"}}, testChunks(1, 60), nil)
			return err
		}, []string{"permissions violation", "client role", "role worker", "client.creds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), answerWait)
			defer cancel()
			err := tc.run(ctx, e.connectAs(t, srv.URL(), tc.creds, nil))
			if err == nil {
				t.Fatal("ran; want refused")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if ctx.Err() != nil {
				t.Errorf("failed only at the deadline (%v)", time.Duration(answerWait))
			}
		})
	}
}
