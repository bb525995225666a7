package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// PlayAPI holds the in-game actions of one flavour of the API: Client.Bot
// (/api/bot/..., for BOT accounts) or Client.Board (/api/board/..., for
// human accounts). Both have the same shape on Lichess.
type PlayAPI struct {
	c      *Client
	prefix string
}

// Bot returns the BOT API (/api/bot/...).
func (c *Client) Bot() *PlayAPI { return &PlayAPI{c: c, prefix: "/api/bot"} }

// Board returns the Board API (/api/board/...), used by human accounts.
func (c *Client) Board() *PlayAPI { return &PlayAPI{c: c, prefix: "/api/board"} }

// ChatRoom is a game chat room.
type ChatRoom string

// Chat rooms.
const (
	RoomPlayer    ChatRoom = "player"
	RoomSpectator ChatRoom = "spectator"
)

// MaxChatLength is the longest chat message Lichess keeps; Chat cuts longer
// ones.
const MaxChatLength = 140

// ChatMessage is one message of a game's chat history.
type ChatMessage struct {
	User string `json:"user"`
	Text string `json:"text"`
}

func (p *PlayAPI) gamePath(gameID string, rest ...string) (string, error) {
	if err := checkID("game id", gameID); err != nil {
		return "", err
	}
	path := p.prefix + "/game/" + url.PathEscape(gameID)
	for _, r := range rest {
		path += "/" + url.PathEscape(r)
	}
	return path, nil
}

// StreamGame opens the game's stream (GET {api}/game/stream/{id}). The first
// event of every connection is a *GameFull. The stream reconnects after a
// drop or stall (delivering *Reconnected then a new *GameFull) and ends with
// a nil Err once a gameFull or gameState shows the game over. A 404 ends it
// with an error matching ErrNotFound.
func (p *PlayAPI) StreamGame(ctx context.Context, gameID string) (*Stream[GameEvent], error) {
	if err := checkID("game id", gameID); err != nil {
		return nil, err
	}
	spec := streamSpec[GameEvent]{
		name:        "game " + gameID,
		req:         request{method: "GET", path: p.prefix + "/game/stream/" + url.PathEscape(gameID), accept: "application/x-ndjson"},
		decode:      DecodeGameEvent,
		reconnected: func(n int, cause error) GameEvent { return &Reconnected{Attempt: n, Cause: cause} },
		final:       gameOver,
	}
	return startStream(ctx, p.c, spec)
}

// gameOver reports a game event showing a finished game.
func gameOver(ev GameEvent) bool {
	switch e := ev.(type) {
	case *GameFull:
		return !e.State.Status.Ongoing()
	case *GameState:
		return !e.Status.Ongoing()
	}
	return false
}

// Move plays a move in UCI notation (POST {api}/game/{id}/move/{uci}),
// offering or accepting a draw when offeringDraw is set.
//
// A move is never resent blindly: if the request may have reached the
// server but its answer was lost (network error or 5xx), Move returns an
// error matching ErrUnknownOutcome. The move may or may not have been
// played; read the game state (the game stream's next gameState, or
// reconnect it) before deciding to send it again. Errors matching
// ErrBadRequest mean Lichess refused the move ("Not your turn, or game
// already over", "Invalid UCI").
func (p *PlayAPI) Move(ctx context.Context, gameID, uci string, offeringDraw bool) error {
	if uci == "" || len(uci) > 10 || strings.ContainsAny(uci, " /?#") {
		return fmt.Errorf("lichess: move %q: not a UCI move", uci)
	}
	path, err := p.gamePath(gameID, "move", uci)
	if err != nil {
		return err
	}
	r := &request{method: "POST", path: path, safety: actsOnce}
	if offeringDraw {
		r.query = url.Values{"offeringDraw": {"true"}}
	}
	return p.c.call(ctx, r, nil)
}

// Chat posts a message to the player or spectator room (POST
// {api}/game/{id}/chat). Text longer than MaxChatLength characters is cut.
// Like Move, a message whose answer was lost is not resent
// (ErrUnknownOutcome).
func (p *PlayAPI) Chat(ctx context.Context, gameID string, room ChatRoom, text string) error {
	if room != RoomPlayer && room != RoomSpectator {
		return fmt.Errorf("lichess: chat room %q: want player or spectator", room)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return fmt.Errorf("lichess: chat: empty message")
	}
	if utf8.RuneCountInString(text) > MaxChatLength {
		text = string([]rune(text)[:MaxChatLength])
	}
	path, err := p.gamePath(gameID, "chat")
	if err != nil {
		return err
	}
	form := url.Values{"room": {string(room)}, "text": {text}}
	return p.c.call(ctx, &request{method: "POST", path: path, form: form, safety: actsOnce}, nil)
}

// ChatHistory returns the game's chat (GET {api}/game/{id}/chat). Lichess
// answers one JSON array (the spec says ndjson); both are accepted.
func (p *PlayAPI) ChatHistory(ctx context.Context, gameID string) ([]ChatMessage, error) {
	path, err := p.gamePath(gameID, "chat")
	if err != nil {
		return nil, err
	}
	var raw []byte
	if err := p.c.call(ctx, &request{method: "GET", path: path}, &raw); err != nil {
		return nil, err
	}
	msgs, err := decodeChat(raw)
	if err != nil {
		return nil, fmt.Errorf("lichess: chat of %s: %w", gameID, err)
	}
	return msgs, nil
}

// decodeChat accepts a JSON array or ndjson of messages.
func decodeChat(raw []byte) ([]ChatMessage, error) {
	var msgs []ChatMessage
	trimmed := strings.TrimSpace(string(raw))
	if strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal([]byte(trimmed), &msgs); err != nil {
			return nil, err
		}
		return msgs, nil
	}
	for _, line := range strings.Split(trimmed, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var m ChatMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// Abort aborts the game (possible before both sides have moved).
func (p *PlayAPI) Abort(ctx context.Context, gameID string) error {
	return p.action(ctx, gameID, "abort")
}

// Resign resigns the game.
func (p *PlayAPI) Resign(ctx context.Context, gameID string) error {
	return p.action(ctx, gameID, "resign")
}

// Draw offers or accepts a draw (accept=true, /draw/yes) or declines the
// opponent's offer (accept=false, /draw/no).
func (p *PlayAPI) Draw(ctx context.Context, gameID string, accept bool) error {
	if accept {
		return p.action(ctx, gameID, "draw", "yes")
	}
	return p.action(ctx, gameID, "draw", "no")
}

// Takeback proposes or accepts a takeback (accept=true, /takeback/yes) or
// declines the opponent's proposal (accept=false, /takeback/no). The game
// state's WTakeback/BTakeback say who proposes one.
func (p *PlayAPI) Takeback(ctx context.Context, gameID string, accept bool) error {
	if accept {
		return p.action(ctx, gameID, "takeback", "yes")
	}
	return p.action(ctx, gameID, "takeback", "no")
}

// ClaimVictory claims the win when the opponent has left the game (see
// OpponentGone.ClaimWinInSeconds).
func (p *PlayAPI) ClaimVictory(ctx context.Context, gameID string) error {
	return p.action(ctx, gameID, "claim-victory")
}

// ClaimDraw claims a draw when the opponent has left the game.
func (p *PlayAPI) ClaimDraw(ctx context.Context, gameID string) error {
	return p.action(ctx, gameID, "claim-draw")
}

// action POSTs an idempotent game action (retried on network errors and
// 5xx: doing it twice has the same effect as once).
func (p *PlayAPI) action(ctx context.Context, gameID string, rest ...string) error {
	path, err := p.gamePath(gameID, rest...)
	if err != nil {
		return err
	}
	return p.c.call(ctx, &request{method: "POST", path: path}, nil)
}

// checkID rejects ids that cannot be put in a path.
func checkID(what, id string) error {
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "/?#% \t\r\n") {
		return fmt.Errorf("lichess: %s %q is not valid", what, id)
	}
	return nil
}
