package runner

import (
	"context"
	"time"

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
	Takeback(ctx context.Context, gameID string, accept bool) error
	ClaimVictory(ctx context.Context, gameID string) error
	ClaimDraw(ctx context.Context, gameID string) error
}

// Journal persists what must survive a restart: the move reserved at each
// ply, the moves so far, and one-time flags such as "greeted". The daemon's
// store (internal/store) implements it.
type Journal interface {
	// ReserveMove records m before it is sent. It reports false, and the
	// move reserved earlier, when a move was already reserved at m.Ply.
	ReserveMove(ctx context.Context, m SentMove) (bool, SentMove, error)
	// ReleaseMove forgets the reservation at ply.
	ReleaseMove(ctx context.Context, gameID string, ply int) error
	// SentMoveAt returns the move reserved at ply, or an error when there
	// is none.
	SentMoveAt(ctx context.Context, gameID string, ply int) (SentMove, error)
	UpdateMoves(ctx context.Context, id, moves string) error
	CacheGet(ctx context.Context, kind, key string) ([]byte, bool, error)
	CachePut(ctx context.Context, kind, key string, value []byte) error
}

// SentMove is a move the runner sent (or was about to send) in a game: what
// the Journal keeps per ply so that a restarted runner never moves twice.
type SentMove struct {
	GameID string
	Ply    int    // number of moves already played before this one
	UCI    string // the move
	WTime  time.Duration
	BTime  time.Duration
	SentAt time.Time
}
