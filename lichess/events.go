package lichess

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Event is one line of the event stream (GET /api/stream/event):
// *GameStartEvent, *GameFinishEvent, *ChallengeEvent,
// *ChallengeCanceledEvent, *ChallengeDeclinedEvent, *UnknownEvent, or the
// stream's own *Reconnected marker.
type Event interface {
	// EventType returns the line's "type" field.
	EventType() string
}

// GameInfo describes a game in gameStart/gameFinish events and in the
// ongoing-games list.
type GameInfo struct {
	FullID   string   `json:"fullId"`
	GameID   string   `json:"gameId"`
	ID       string   `json:"id,omitempty"`
	FEN      string   `json:"fen,omitempty"`
	Color    Color    `json:"color,omitempty"`
	LastMove string   `json:"lastMove,omitempty"`
	Source   string   `json:"source,omitempty"`
	Status   Status   `json:"status,omitempty"`
	Variant  Variant  `json:"variant"`
	Speed    string   `json:"speed,omitempty"`
	Perf     Perf     `json:"perf"`
	Rated    bool     `json:"rated"`
	HasMoved bool     `json:"hasMoved"`
	Opponent Opponent `json:"opponent"`
	IsMyTurn bool     `json:"isMyTurn"`
	// SecondsLeft is the player's remaining time; nil when unknown (e.g.
	// unlimited games).
	SecondsLeft  *int    `json:"secondsLeft,omitempty"`
	Winner       Color   `json:"winner,omitempty"`
	Rating       int     `json:"rating,omitempty"`
	RatingDiff   int     `json:"ratingDiff,omitempty"`
	Compat       *Compat `json:"compat,omitempty"`
	TournamentID string  `json:"tournamentId,omitempty"`
	SwissID      string  `json:"swissId,omitempty"`
}

// Opponent is the other side of a GameInfo. A computer opponent has an
// empty ID and AILevel 1..8.
type Opponent struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	Rating     int    `json:"rating,omitempty"`
	RatingDiff int    `json:"ratingDiff,omitempty"`
	AILevel    int    `json:"ai,omitempty"`
}

// IsComputer reports a Lichess AI (Stockfish level N) opponent.
func (o Opponent) IsComputer() bool { return o.AILevel > 0 }

// Challenge is a challenge (ChallengeJson, plus the decline fields of a
// challengeDeclined event).
type Challenge struct {
	ID          string         `json:"id"`
	URL         string         `json:"url,omitempty"`
	Status      string         `json:"status,omitempty"`
	Challenger  *ChallengeUser `json:"challenger"`
	DestUser    *ChallengeUser `json:"destUser"`
	Variant     Variant        `json:"variant"`
	Rated       bool           `json:"rated"`
	Speed       string         `json:"speed,omitempty"`
	TimeControl TimeControl    `json:"timeControl"`
	Color       Color          `json:"color,omitempty"`
	FinalColor  Color          `json:"finalColor,omitempty"`
	Perf        Perf           `json:"perf"`
	Direction   string         `json:"direction,omitempty"`
	InitialFEN  string         `json:"initialFen,omitempty"`
	RematchOf   string         `json:"rematchOf,omitempty"`
	Rules       []string       `json:"rules,omitempty"`
	// DeclineReason is the human-readable reason (challengeDeclined only).
	DeclineReason string `json:"declineReason,omitempty"`
	// DeclineReasonKey is the lower-case reason key, e.g. "toofast"
	// (challengeDeclined only).
	DeclineReasonKey string `json:"declineReasonKey,omitempty"`
}

// ChallengeUser is a player in a challenge.
type ChallengeUser struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Rating      int    `json:"rating,omitempty"`
	Title       string `json:"title,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	Online      bool   `json:"online,omitempty"`
	Lag         int    `json:"lag,omitempty"`
}

// IsBot reports a BOT account.
func (u *ChallengeUser) IsBot() bool { return u != nil && u.Title == "BOT" }

// TimeControl is a challenge's time control: type "clock" (Limit and
// Increment in seconds), "correspondence" (DaysPerTurn) or "unlimited".
type TimeControl struct {
	Type        string `json:"type"`
	Limit       int    `json:"limit,omitempty"`
	Increment   int    `json:"increment,omitempty"`
	Show        string `json:"show,omitempty"`
	DaysPerTurn int    `json:"daysPerTurn,omitempty"`
}

// GameStartEvent announces a game that started (or, on connect, one that is
// ongoing).
type GameStartEvent struct {
	Game GameInfo `json:"game"`
}

// GameFinishEvent announces a game that ended.
type GameFinishEvent struct {
	Game GameInfo `json:"game"`
}

// ChallengeEvent is a challenge sent to or by the account.
type ChallengeEvent struct {
	Challenge Challenge `json:"challenge"`
	Compat    *Compat   `json:"compat,omitempty"`
}

// ChallengeCanceledEvent is a challenge its sender withdrew.
type ChallengeCanceledEvent struct {
	Challenge Challenge `json:"challenge"`
}

// ChallengeDeclinedEvent is the account's challenge that was declined.
type ChallengeDeclinedEvent struct {
	Challenge Challenge `json:"challenge"`
}

// UnknownEvent is a line whose type this client does not know; Raw keeps
// the line.
type UnknownEvent struct {
	Type string
	Raw  json.RawMessage
}

// Reconnected is put on a stream's channel after the stream was dropped and
// reopened; for a game stream the next event is a fresh *GameFull. Cause says
// why the previous connection ended.
type Reconnected struct {
	// Attempt counts reconnections of this stream, from 1.
	Attempt int
	// Cause is why the previous connection was dropped.
	Cause error
}

// EventType returns "gameStart".
func (*GameStartEvent) EventType() string { return "gameStart" }

// EventType returns "gameFinish".
func (*GameFinishEvent) EventType() string { return "gameFinish" }

// EventType returns "challenge".
func (*ChallengeEvent) EventType() string { return "challenge" }

// EventType returns "challengeCanceled".
func (*ChallengeCanceledEvent) EventType() string { return "challengeCanceled" }

// EventType returns "challengeDeclined".
func (*ChallengeDeclinedEvent) EventType() string { return "challengeDeclined" }

// EventType returns the unknown type.
func (e *UnknownEvent) EventType() string { return e.Type }

// EventType returns "reconnected" (a client-side marker, not a Lichess type).
func (*Reconnected) EventType() string { return "reconnected" }

// DecodeError describes a stream line that could not be decoded.
type DecodeError struct {
	// Type is the line's type field, if it could be read.
	Type string
	// Err is the underlying JSON error.
	Err error
}

// Error describes the bad line.
func (e *DecodeError) Error() string {
	if e.Type != "" {
		return fmt.Sprintf("malformed %q line: %v", e.Type, e.Err)
	}
	return fmt.Sprintf("malformed line: %v", e.Err)
}

// Unwrap returns the JSON error.
func (e *DecodeError) Unwrap() error { return e.Err }

// lineType reads the "type" field of a JSON object line.
func lineType(line []byte) (string, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return "", &DecodeError{Err: err}
	}
	if head.Type == nil {
		return "", &DecodeError{Err: fmt.Errorf("no \"type\" field")}
	}
	return *head.Type, nil
}

// decodeInto unmarshals line into v leniently: a field of an unexpected
// type is left at its zero value and reported in the returned error, while
// the rest of v is filled. fatal says the line was not usable at all.
func decodeInto(typ string, line []byte, v any) (warn error, fatal error) {
	err := json.Unmarshal(line, v)
	if err == nil {
		return nil, nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &DecodeError{Type: typ, Err: err}, nil
	}
	return nil, &DecodeError{Type: typ, Err: err}
}

// eventKinds makes the value each known event-stream type decodes into.
var eventKinds = map[string]func() Event{
	"gameStart":         func() Event { return &GameStartEvent{} },
	"gameFinish":        func() Event { return &GameFinishEvent{} },
	"challenge":         func() Event { return &ChallengeEvent{} },
	"challengeCanceled": func() Event { return &ChallengeCanceledEvent{} },
	"challengeDeclined": func() Event { return &ChallengeDeclinedEvent{} },
}

// DecodeEvent decodes one event-stream line. Unknown fields are ignored and
// an unknown type gives *UnknownEvent. A field of an unexpected type leaves
// that field empty: the event is returned together with a *DecodeError
// describing the field, and callers may use it. A line that is not a JSON
// object with a "type" gives a nil Event and a *DecodeError.
func DecodeEvent(line []byte) (Event, error) { return decodeLine(line, eventKinds) }

// decodeLine is the dispatch shared by DecodeEvent and DecodeGameEvent:
// read the line's type, decode the line into the value kinds makes for it
// (leniently, see decodeInto), or keep it as an *UnknownEvent.
func decodeLine[E interface{ EventType() string }](line []byte, kinds map[string]func() E) (E, error) {
	var none E
	typ, err := lineType(line)
	if err != nil {
		return none, err
	}
	mk, ok := kinds[typ]
	if !ok {
		var unknown any = &UnknownEvent{Type: typ, Raw: append(json.RawMessage(nil), line...)}
		return unknown.(E), nil
	}
	ev := mk()
	warn, fatal := decodeInto(typ, line, ev)
	if fatal != nil {
		return none, fatal
	}
	return ev, warn
}
