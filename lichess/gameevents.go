package lichess

import (
	"strings"
	"time"
)

// GameEvent is one line of a game stream (GET /api/bot/game/stream/{id} or
// /api/board/game/stream/{id}): *GameFull, *GameState, *ChatLine,
// *OpponentGone, *UnknownEvent, or the stream's own *Reconnected marker.
type GameEvent interface {
	// EventType returns the line's "type" field.
	EventType() string
}

// GameFull is the first line of every game-stream connection: the
// immutable game data and the current State.
type GameFull struct {
	ID         string       `json:"id"`
	Variant    Variant      `json:"variant"`
	Clock      *StreamClock `json:"clock,omitempty"`
	Speed      string       `json:"speed,omitempty"`
	Perf       Perf         `json:"perf"`
	Rated      bool         `json:"rated"`
	CreatedAt  int64        `json:"createdAt,omitempty"`
	White      GamePlayer   `json:"white"`
	Black      GamePlayer   `json:"black"`
	InitialFEN string       `json:"initialFen,omitempty"`
	State      GameState    `json:"state"`
	// DaysPerTurn is set for correspondence games.
	DaysPerTurn  int    `json:"daysPerTurn,omitempty"`
	TournamentID string `json:"tournamentId,omitempty"`
}

// StartFEN returns the initial position's FEN, or "" for the standard start
// ("startpos").
func (g *GameFull) StartFEN() string {
	if g.InitialFEN == "startpos" {
		return ""
	}
	return g.InitialFEN
}

// ColorOf returns the side the user id plays, and false if neither side.
func (g *GameFull) ColorOf(userID string) (Color, bool) {
	switch {
	case userID == "":
		return "", false
	case strings.EqualFold(g.White.ID, userID):
		return White, true
	case strings.EqualFold(g.Black.ID, userID):
		return Black, true
	}
	return "", false
}

// StreamClock is a real-time game's clock in gameFull, in milliseconds.
type StreamClock struct {
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}

// GamePlayer is a side in gameFull. A Lichess AI has AILevel set and no ID
// or name.
type GamePlayer struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	AILevel     int    `json:"aiLevel,omitempty"`
}

// GameState is the mutable part of a game: every move so far in UCI,
// clocks in milliseconds, the status and pending offers.
type GameState struct {
	Moves      string      `json:"moves"`
	WTime      int64       `json:"wtime"`
	BTime      int64       `json:"btime"`
	WInc       int64       `json:"winc"`
	BInc       int64       `json:"binc"`
	Status     Status      `json:"status"`
	Winner     Color       `json:"winner,omitempty"`
	WDraw      bool        `json:"wdraw,omitempty"`
	BDraw      bool        `json:"bdraw,omitempty"`
	WTakeback  bool        `json:"wtakeback,omitempty"`
	BTakeback  bool        `json:"btakeback,omitempty"`
	Expiration *Expiration `json:"expiration,omitempty"`
}

// MoveList returns Moves split into UCI moves.
func (s *GameState) MoveList() []string { return strings.Fields(s.Moves) }

// Ply returns how many half-moves have been played.
func (s *GameState) Ply() int { return len(strings.Fields(s.Moves)) }

// Turn returns the side to move, assuming White moved first (true for every
// game from the standard start; from a FEN, pass the FEN's side to move).
func (s *GameState) Turn(first Color) Color {
	if first == "" {
		first = White
	}
	if s.Ply()%2 == 0 {
		return first
	}
	if first == White {
		return Black
	}
	return White
}

// TimeLeft returns the clock of a side.
func (s *GameState) TimeLeft(c Color) time.Duration {
	if c == Black {
		return time.Duration(s.BTime) * time.Millisecond
	}
	return time.Duration(s.WTime) * time.Millisecond
}

// Increment returns the increment of a side.
func (s *GameState) Increment(c Color) time.Duration {
	if c == Black {
		return time.Duration(s.BInc) * time.Millisecond
	}
	return time.Duration(s.WInc) * time.Millisecond
}

// DrawOffered reports whether side c is offering a draw.
func (s *GameState) DrawOffered(c Color) bool {
	if c == Black {
		return s.BDraw
	}
	return s.WDraw
}

// TakebackProposed reports whether side c is proposing a takeback.
func (s *GameState) TakebackProposed(c Color) bool {
	if c == Black {
		return s.BTakeback
	}
	return s.WTakeback
}

// Expiration is the time left to make the first move before the game is
// aborted.
type Expiration struct {
	IdleMillis   int64 `json:"idleMillis"`
	MillisToMove int64 `json:"millisToMove"`
}

// ChatLine is a chat message in the player or spectator room.
type ChatLine struct {
	Room     string `json:"room"`
	Username string `json:"username"`
	Text     string `json:"text"`
}

// OpponentGone says whether the opponent left and, when they did, in how
// many seconds a win (or draw) can be claimed.
type OpponentGone struct {
	Gone              bool `json:"gone"`
	ClaimWinInSeconds *int `json:"claimWinInSeconds,omitempty"`
}

// EventType returns "gameFull".
func (*GameFull) EventType() string { return "gameFull" }

// EventType returns "gameState".
func (*GameState) EventType() string { return "gameState" }

// EventType returns "chatLine".
func (*ChatLine) EventType() string { return "chatLine" }

// EventType returns "opponentGone".
func (*OpponentGone) EventType() string { return "opponentGone" }

// gameEventKinds makes the value each known game-stream type decodes into.
var gameEventKinds = map[string]func() GameEvent{
	"gameFull":     func() GameEvent { return &GameFull{} },
	"gameState":    func() GameEvent { return &GameState{} },
	"chatLine":     func() GameEvent { return &ChatLine{} },
	"opponentGone": func() GameEvent { return &OpponentGone{} },
}

// DecodeGameEvent decodes one game-stream line, with the same leniency and
// error conventions as DecodeEvent.
func DecodeGameEvent(line []byte) (GameEvent, error) { return decodeLine(line, gameEventKinds) }
