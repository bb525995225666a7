package match

import (
	"context"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uciengine"
)

func uciengineStart(ctx context.Context, path string, args, env []string, client uci.Config) (engine.Engine, error) {
	return uciengine.New(ctx, uciengine.Config{Path: path, Args: args, Env: env, Client: client})
}
