package lichess

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"time"
)

// Arena tournaments, the operations a bot needs (lila's
// controllers.Tournament: apiShow, apiJoin, apiWithdraw, and the results,
// games and list streams). BOT accounts may join an arena whose conditions
// allow bots (botsAllowed); they cannot berserk (TournamentApi.berserk
// skips bots) and, once joined, lila pairs them whenever they are not
// playing (StartedOrganizer.fetchWaitingBots). Swiss tournaments are not
// for bots: lila's controllers.Swiss.join answers a BOT account 403 "This
// API endpoint is not for Bot accounts." (NoLameOrBot), so the client has
// no Swiss operation.

// Arena statuses, as lila numbers them.
const (
	ArenaCreated  = 10
	ArenaStarted  = 20
	ArenaFinished = 30
)

// ArenaClock is an arena's clock, in seconds.
type ArenaClock struct {
	Limit     int `json:"limit"`
	Increment int `json:"increment"`
}

// FlexTime is a date that lila writes as milliseconds (the lists) or as an
// ISO 8601 string (the full view).
type FlexTime struct{ time.Time }

// UnmarshalJSON accepts a number of milliseconds or an RFC 3339 string.
func (t *FlexTime) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("lichess: date %q: %w", s, err)
		}
		t.Time = v
		return nil
	}
	ms, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("lichess: date %s: want milliseconds or an ISO date", truncate(string(b), 40))
	}
	t.Time = time.UnixMilli(ms)
	return nil
}

// ArenaVariant is an arena's variant key: lila writes the key (full view)
// or a Variant object (lists).
type ArenaVariant string

// UnmarshalJSON accepts "standard" or {"key":"standard",…}.
func (v *ArenaVariant) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var o Variant
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		*v = ArenaVariant(o.Key)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("lichess: variant %s: want a key or a Variant object", truncate(string(b), 40))
	}
	*v = ArenaVariant(s)
	return nil
}

// ArenaSheet is a player's scores (each game's points, most recent first).
type ArenaSheet struct {
	Scores string `json:"scores"`
	Fire   bool   `json:"fire,omitempty"`
}

// ArenaStandingPlayer is a line of an arena's standing.
type ArenaStandingPlayer struct {
	Name     string     `json:"name"`
	Title    string     `json:"title,omitempty"`
	Rank     int        `json:"rank"`
	Rating   int        `json:"rating"`
	Score    int        `json:"score"`
	Sheet    ArenaSheet `json:"sheet"`
	Withdraw bool       `json:"withdraw,omitempty"`
	Team     string     `json:"team,omitempty"`
}

// ArenaMe is the caller's entry in an arena (the full view's "me").
type ArenaMe struct {
	Rank     int    `json:"rank"`
	Withdraw bool   `json:"withdraw"`
	GameID   string `json:"gameId,omitempty"`
}

// Arena is an arena tournament: the ArenaTournament of the lists, or the
// ArenaTournamentFull of GET /api/tournament/{id} (then Standing and Me
// are set and Status is derived, see State).
type Arena struct {
	ID              string       `json:"id"`
	FullName        string       `json:"fullName"`
	CreatedBy       string       `json:"createdBy"`
	System          string       `json:"system"`
	Rated           bool         `json:"rated"`
	Berserkable     bool         `json:"berserkable,omitempty"`
	Clock           ArenaClock   `json:"clock"`
	Minutes         int          `json:"minutes"`
	Variant         ArenaVariant `json:"variant"`
	StartsAt        FlexTime     `json:"startsAt"`
	FinishesAt      FlexTime     `json:"finishesAt"`
	Status          int          `json:"status,omitempty"`
	SecondsToStart  int          `json:"secondsToStart,omitempty"`
	SecondsToFinish int          `json:"secondsToFinish,omitempty"`
	IsStarted       bool         `json:"isStarted,omitempty"`
	IsFinished      bool         `json:"isFinished,omitempty"`
	PairingsClosed  bool         `json:"pairingsClosed,omitempty"`
	NbPlayers       int          `json:"nbPlayers"`
	BotsAllowed     bool         `json:"botsAllowed,omitempty"`
	Private         bool         `json:"private,omitempty"`
	TeamMember      string       `json:"teamMember,omitempty"`
	TeamBattle      *struct {
		Teams []string `json:"teams"`
	} `json:"teamBattle,omitempty"`
	Standing *struct {
		Page    int                   `json:"page"`
		Players []ArenaStandingPlayer `json:"players"`
	} `json:"standing,omitempty"`
	Me *ArenaMe `json:"me,omitempty"`
}

// State is the arena's status: Status when the server sent it (lists),
// else derived from the full view's isFinished, isStarted and
// secondsToStart.
func (a *Arena) State() int {
	switch {
	case a.Status != 0:
		return a.Status
	case a.IsFinished:
		return ArenaFinished
	case a.IsStarted:
		return ArenaStarted
	case a.SecondsToStart > 0:
		return ArenaCreated
	}
	return ArenaStarted
}

// Arena returns an arena (GET /api/tournament/{id}); page picks the page
// of the standing (0 = 1). An unknown id is an error matching ErrNotFound.
func (c *Client) Arena(ctx context.Context, id string, page int) (*Arena, error) {
	if err := checkID("tournament id", id); err != nil {
		return nil, err
	}
	r := &request{method: "GET", path: "/api/tournament/" + url.PathEscape(id)}
	if page > 1 {
		r.query = url.Values{"page": {strconv.Itoa(page)}}
	}
	var a Arena
	if err := c.call(ctx, r, &a); err != nil {
		return nil, fmt.Errorf("lichess: tournament %s: %w", id, err)
	}
	if a.ID == "" {
		return nil, fmt.Errorf("lichess: tournament %s: the answer has no id", id)
	}
	return &a, nil
}

// ArenaJoin are the parameters of a join.
type ArenaJoin struct {
	// Password is the entry code of a private arena.
	Password string
	// Team is the team to play for in a team battle.
	Team string
	// PairMeAsap asks to be paired at once in a started arena, even when
	// not on its page (it lasts a minute; join again to extend it).
	PairMeAsap bool
}

// JoinArena joins an arena, or comes back after a withdrawal (POST
// /api/tournament/{id}/join). A refusal is an error matching ErrBadRequest
// whose message is lila's reason ("Wrong entry code", "Tournament
// restrictions", "Missing team", "This tournament no longer exists", …).
func (c *Client) JoinArena(ctx context.Context, id string, j ArenaJoin) error {
	if err := checkID("tournament id", id); err != nil {
		return err
	}
	form := url.Values{}
	if j.Password != "" {
		form.Set("password", j.Password)
	}
	if j.Team != "" {
		form.Set("team", j.Team)
	}
	if j.PairMeAsap {
		form.Set("pairMeAsap", "true")
	}
	r := &request{method: "POST", path: "/api/tournament/" + url.PathEscape(id) + "/join", form: form}
	if err := c.call(ctx, r, nil); err != nil {
		return fmt.Errorf("lichess: join tournament %s: %w", id, err)
	}
	return nil
}

// WithdrawArena leaves an arena not started yet, or pauses in a started
// one (POST /api/tournament/{id}/withdraw); points and streaks stay.
func (c *Client) WithdrawArena(ctx context.Context, id string) error {
	if err := checkID("tournament id", id); err != nil {
		return err
	}
	r := &request{method: "POST", path: "/api/tournament/" + url.PathEscape(id) + "/withdraw"}
	if err := c.call(ctx, r, nil); err != nil {
		return fmt.Errorf("lichess: withdraw from tournament %s: %w", id, err)
	}
	return nil
}

// ArenaResult is a line of an arena's results.
type ArenaResult struct {
	Rank        int         `json:"rank"`
	Score       int         `json:"score"`
	Rating      int         `json:"rating"`
	Username    string      `json:"username"`
	Title       string      `json:"title,omitempty"`
	Performance int         `json:"performance"`
	Team        string      `json:"team,omitempty"`
	Sheet       *ArenaSheet `json:"sheet,omitempty"`
}

// ArenaResults streams an arena's standing, best first (GET
// /api/tournament/{id}/results, ndjson); nb bounds the lines (0 = all),
// sheet adds each player's sheet.
func (c *Client) ArenaResults(ctx context.Context, id string, nb int, sheet bool) iter.Seq2[*ArenaResult, error] {
	q := url.Values{}
	if nb > 0 {
		q.Set("nb", strconv.Itoa(nb))
	}
	if sheet {
		q.Set("sheet", "true")
	}
	return ndjsonSeq(c, ctx, "results of tournament "+id, id, "/api/tournament/"+url.PathEscape(id)+"/results", q,
		func(r *ArenaResult) bool { return r.Username != "" })
}

// ArenaGames streams an arena's games as JSON, most recent first (GET
// /api/tournament/{id}/games, ndjson); player "" means every player's.
func (c *Client) ArenaGames(ctx context.Context, id, player string) iter.Seq2[*Game, error] {
	q := url.Values{}
	if player != "" {
		q.Set("player", player)
	}
	return ndjsonSeq(c, ctx, "games of tournament "+id, id, "/api/tournament/"+url.PathEscape(id)+"/games", q,
		func(g *Game) bool { return g.ID != "" })
}

// ArenasCreatedBy streams the arenas a user created, last starting first
// (GET /api/user/{username}/tournament/created, ndjson), at most nb (0 =
// all), in the given statuses (none = all).
func (c *Client) ArenasCreatedBy(ctx context.Context, username string, nb int, statuses ...int) iter.Seq2[*Arena, error] {
	q := url.Values{}
	if nb > 0 {
		q.Set("nb", strconv.Itoa(nb))
	}
	for _, s := range statuses {
		q.Add("status", strconv.Itoa(s))
	}
	return ndjsonSeq(c, ctx, "tournaments created by "+username, username,
		"/api/user/"+url.PathEscape(username)+"/tournament/created", q, func(a *Arena) bool { return a.ID != "" })
}

// TeamArenas streams a team's arenas, last starting first (GET
// /api/team/{teamId}/arena, ndjson); status is "created", "started",
// "finished" or "" for all; max bounds them (0 = the server's default).
func (c *Client) TeamArenas(ctx context.Context, team, status string, max int) iter.Seq2[*Arena, error] {
	q := url.Values{}
	if status != "" {
		q.Set("status", status)
	}
	if max > 0 {
		q.Set("max", strconv.Itoa(max))
	}
	return ndjsonSeq(c, ctx, "arenas of team "+team, team, "/api/team/"+url.PathEscape(team)+"/arena", q,
		func(a *Arena) bool { return a.ID != "" })
}

// ndjsonSeq streams the objects of an ndjson answer: a malformed line, or
// one valid rejects, is skipped and logged; iteration stops at the end, at
// the first error (yielded with a nil value) or when the loop breaks.
func ndjsonSeq[T any](c *Client, ctx context.Context, what, id, path string, q url.Values, valid func(*T) bool) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if err := checkID("id", id); err != nil {
			yield(nil, fmt.Errorf("lichess: %s: %w", what, err))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		r := &request{method: "GET", path: path, query: q, accept: "application/x-ndjson"}
		stopped := false
		err := c.readNDJSON(ctx, r, func(line []byte) error {
			v := new(T)
			if err := json.Unmarshal(line, v); err != nil || !valid(v) {
				c.log.Warn().Str("path", r.path).Msg("skipping malformed line")
				return nil
			}
			if !yield(v, nil) {
				stopped = true
				return errStop
			}
			return nil
		})
		if err != nil && !stopped {
			yield(nil, fmt.Errorf("lichess: %s: %w", what, err))
		}
	}
}
