package sfbuild

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestNativeIdentity: the native builds of this machine (made by `make
// setup`: `outpost engines install sf15`, `sf16`, `sf17.1`, `sf18`) are the
// versions they claim: Stockfish 15.1's `bench 16 1 13` searches 3,467,381
// nodes (as Debian's build does); the default bench of 16 2,593,605, of
// 17.1 2,030,154, of 18 2,050,811 (the figures of their release commits).
// Skipped for a build that is not there.
func TestNativeIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs Stockfish's bench")
	}
	for _, r := range Recipes() {
		t.Run(r.Engine, func(t *testing.T) {
			testkit.AwaitEngine(t, r.Engine)
			bin, err := enginepath.Locator{}.Native(r.Engine)
			if err != nil {
				t.Fatal(err)
			}
			if bin == "" {
				t.Skipf("no native %s build (outpost engines install %s builds it)", r.Engine, r.Engine)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := CheckIdentity(ctx, bin, r)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s bench %v: %d nodes, %d nodes/s", bin, r.BenchArgs, res.Nodes, res.NPS)
		})
	}
}
