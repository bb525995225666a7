package lichess

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Color is a side: "white" or "black" (challenges also use "random").
type Color string

// Colors.
const (
	White  Color = "white"
	Black  Color = "black"
	Random Color = "random"
)

// Status is a game status name (created, started, mate, resign, ...). It
// decodes from the string of game JSON and gameState as well as from the
// {"id":20,"name":"started"} object of event-stream games.
type Status string

// Game status names, as Lichess spells them.
const (
	StatusCreated                   Status = "created"
	StatusStarted                   Status = "started"
	StatusAborted                   Status = "aborted"
	StatusMate                      Status = "mate"
	StatusResign                    Status = "resign"
	StatusStalemate                 Status = "stalemate"
	StatusTimeout                   Status = "timeout"
	StatusDraw                      Status = "draw"
	StatusOutOfTime                 Status = "outoftime"
	StatusCheat                     Status = "cheat"
	StatusNoStart                   Status = "noStart"
	StatusUnknownFinish             Status = "unknownFinish"
	StatusInsufficientMaterialClaim Status = "insufficientMaterialClaim"
	StatusVariantEnd                Status = "variantEnd"
)

// statusByID maps Lichess's numeric status ids to names.
var statusByID = map[int]Status{
	10: StatusCreated, 20: StatusStarted, 25: StatusAborted, 30: StatusMate, 31: StatusResign,
	32: StatusStalemate, 33: StatusTimeout, 34: StatusDraw, 35: StatusOutOfTime, 36: StatusCheat,
	37: StatusNoStart, 38: StatusUnknownFinish, 39: StatusInsufficientMaterialClaim, 60: StatusVariantEnd,
}

// Ongoing reports whether the game is still being played (created or
// started). An empty status counts as ongoing.
func (s Status) Ongoing() bool { return s == "" || s == StatusCreated || s == StatusStarted }

// UnmarshalJSON accepts "name", {"id":N,"name":"..."} or a bare id. Any
// other value leaves the status empty rather than failing the whole line.
func (s *Status) UnmarshalJSON(b []byte) error {
	decodeStringOrObject(b,
		func(name string) { *s = Status(name) },
		func(obj []byte) {
			var v struct {
				ID   json.Number `json:"id"`
				Name string      `json:"name"`
			}
			_ = json.Unmarshal(obj, &v)
			*s = Status(v.Name)
			if id, err := v.ID.Int64(); v.Name == "" && err == nil {
				*s = statusByID[int(id)]
			}
		},
		func(other []byte) {
			if id, err := strconv.Atoi(string(other)); err == nil {
				*s = statusByID[id]
			}
		})
	return nil
}

// Variant is a chess variant. It decodes from the {"key","name","short"}
// object of streams and challenges and from the plain key string of game
// JSON.
type Variant struct {
	Key   string `json:"key"`
	Name  string `json:"name,omitempty"`
	Short string `json:"short,omitempty"`
}

// UnmarshalJSON accepts "key" or {"key":...,"name":...}; any other value
// leaves the variant empty rather than failing the whole line.
func (v *Variant) UnmarshalJSON(b []byte) error {
	type plain Variant
	decodeStringOrObject(b,
		func(key string) { *v = Variant{Key: key} },
		func(obj []byte) { *v = Variant(decodeLenient[plain](obj)) },
		nil)
	return nil
}

// Perf is a rating category. It decodes from the "blitz" string of game
// JSON and event-stream games and from the {"icon","name"} object of
// challenges and gameFull.
type Perf struct {
	Key  string `json:"key,omitempty"`
	Name string `json:"name,omitempty"`
	Icon string `json:"icon,omitempty"`
}

// UnmarshalJSON accepts "key" or {"name":...,"icon":...}; any other value
// leaves the perf empty rather than failing the whole line.
func (p *Perf) UnmarshalJSON(b []byte) error {
	type plain Perf
	decodeStringOrObject(b,
		func(key string) { *p = Perf{Key: key} },
		func(obj []byte) { *p = Perf(decodeLenient[plain](obj)) },
		nil)
	return nil
}

// Compat says which APIs can play a game or challenge.
type Compat struct {
	Bot   bool `json:"bot"`
	Board bool `json:"board"`
}

// decodeStringOrObject dispatches a JSON value that Lichess sends either as
// a string or as an object: fromString gets a decoded string, fromObject the
// raw object, fromOther (if not nil) any other non-empty value. An empty
// value or a string that does not decode calls nothing, so the target keeps
// its zero value rather than failing the whole line.
func decodeStringOrObject(b []byte, fromString func(string), fromObject, fromOther func([]byte)) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	switch b[0] {
	case '"':
		var v string
		if json.Unmarshal(b, &v) == nil {
			fromString(v)
		}
	case '{':
		fromObject(b)
	default:
		if fromOther != nil {
			fromOther(b)
		}
	}
}

// decodeLenient decodes a JSON object into a T, keeping whatever fields
// decode when others have an unexpected type.
func decodeLenient[T any](b []byte) T {
	var v T
	_ = json.Unmarshal(b, &v)
	return v
}
