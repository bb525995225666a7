package main

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/internal/ucifront"
	"github.com/outpostchess/outpost/models/maiaengine"
)

// runUCI speaks UCI on stdin/stdout for one of our engines.
func runUCI(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "uci", "[--engine SPEC] [--move-overhead D] [--no-fallback]")
	spec := fs.String("engine", "hard", engineSpecUsage("engine"))
	overhead := fs.Duration("move-overhead", 0, "time reserved per move for GUI/network latency, e.g. 50ms")
	noFallback := fs.Bool("no-fallback", false, "do not replace failed, illegal or late moves with a fallback engine's move")
	hash := fs.Int("hash", 0, "hash table size in MB for engines that have one (0 = engine default)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkMin(fs, 0, "hash"); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "outpost uci: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	log := env.logger()
	opts := []bots.Option{bots.WithLogger(log), maiaengine.Register(nil)}
	if !*noFallback {
		opts = append(opts, bots.WithFallback())
	}
	if *hash > 0 {
		opts = append(opts, bots.WithHashMB(*hash))
	}
	e, err := bots.New(ctx, *spec, opts...)
	if err != nil {
		return err
	}
	defer e.Close()
	return ucifront.Serve(ctx, env.Stdin, env.Stdout, e, ucifront.Config{
		Options:      bots.UCIOptions(e),
		MoveOverhead: *overhead,
		Logger:       log,
	})
}
