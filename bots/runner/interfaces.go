package runner

import (
	"context"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// GameAPI is the part of the Lichess API a runner uses. *lichess.PlayAPI
// (Client.Bot() for BOT accounts, Client.Board() for humans) implements it.
type GameAPI interface {
	StreamGame(ctx context.Context, gameID string) (*lichess.Stream[lichess.GameEvent], error)
	Move(ctx context.Context, gameID, uci string, offeringDraw bool) error
	Chat(ctx context.Context, gameID string, room lichess.ChatRoom, text string) error
	Abort(ctx context.Context, gameID string) error
	Resign(ctx context.Context, gameID string) error
	Draw(ctx context.Context, gameID string, accept bool) error
	ClaimVictory(ctx context.Context, gameID string) error
}

// Journal persists what must survive a restart: the move reserved at each
// ply, the moves so far, and one-time flags such as "greeted". *store.Store
// implements it.
type Journal interface {
	ReserveMove(ctx context.Context, m store.SentMove) (bool, store.SentMove, error)
	ReleaseMove(ctx context.Context, gameID string, ply int) error
	SentMoveAt(ctx context.Context, gameID string, ply int) (store.SentMove, error)
	UpdateMoves(ctx context.Context, id, moves string) error
	CacheGet(ctx context.Context, kind, key string) ([]byte, bool, error)
	CachePut(ctx context.Context, kind, key string, value []byte) error
}
