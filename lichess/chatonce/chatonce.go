// Package chatonce posts game-chat lines exactly once, through server
// errors, lost answers and restarts.
//
// Each line has a durable flag (in a Flags store, e.g. the daemon's
// database): "sending" is written before the POST and "sent" after it
// succeeded. A line found "sending" (a crash, or an answer that never came)
// has an unknown outcome: it is resolved by reading the chat back once the
// server answers again, never before and never by guessing, and only posted
// again when it is not there. Errors are returned, never swallowed, so that
// a caller marks a summary posted only when every line is.
package chatonce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/outpostchess/outpost/lichess"
)

// API posts chat lines (*lichess.PlayAPI implements it).
type API interface {
	Chat(ctx context.Context, gameID string, room lichess.ChatRoom, text string) error
}

// Reader reads a game's player chat back (*lichess.PlayAPI implements it).
type Reader interface {
	ChatHistory(ctx context.Context, gameID string) ([]lichess.ChatMessage, error)
}

// Flags stores the per-line flags durably (*store.Store implements it).
type Flags interface {
	CacheGet(ctx context.Context, kind, key string) ([]byte, bool, error)
	CachePut(ctx context.Context, kind, key string, value []byte) error
}

// Kind is the Flags kind of the line flags.
const Kind = "chat-line"

// TextKind is the Flags kind of the lines themselves (game, room, text),
// written before a line's first POST so that Resume can finish a line a
// crash left "sending" even when nothing else would post it again (the
// goodbye of a game that ended meanwhile).
const TextKind = "chat-line-text"

// Lister finds the keys of a kind whose value is value (*store.Store
// implements it); Resume needs it.
type Lister interface {
	CacheKeysWithValue(ctx context.Context, kind string, value []byte) ([]string, error)
}

// line is a line as Resume posts it again.
type line struct {
	Game string `json:"game"`
	Room string `json:"room"`
	Text string `json:"text"`
}

// The flag values.
const (
	flagQueued  = "queued" // written by Queue: not posted yet, for sure
	flagSending = "sending"
	flagSent    = "sent"
	flagGaveUp  = "gave-up"
)

// ErrGaveUp is returned for a line that failed for good earlier (its game
// is unknown to the server, say): it is not tried again.
var ErrGaveUp = errors.New("chatonce: gave up on this line earlier")

// maxAttempts bounds the POSTs of one line per Post call; a line still
// failing is left for a later call (its flag tells what happened).
const maxAttempts = 6

// Poster posts lines exactly once.
type Poster struct {
	API   API
	Read  Reader // nil: an unknown outcome in the player room stays unresolved
	Flags Flags
	Me    string // our user name, to find our lines in the chat
	// Wait waits before retry attempt n (1, 2, …); it returns ctx.Err()
	// when ctx ends first. Default: 300 ms × n on the wall clock. Tests
	// inject their own.
	Wait func(ctx context.Context, attempt int) error
}

func (p *Poster) wait(ctx context.Context, attempt int) error {
	if p.Wait != nil {
		return p.Wait(ctx, attempt)
	}
	t := time.NewTimer(time.Duration(attempt) * 300 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Post posts text in room of game gameID unless the line named key (unique
// per game and line, e.g. "abcd1234:summary:player:0") was already posted.
// It returns nil once the line is in the chat, ErrGaveUp for a line given
// up earlier, or the error that stopped it.
func (p *Poster) Post(ctx context.Context, gameID, key string, room lichess.ChatRoom, text string) error {
	flag, known, err := p.Flags.CacheGet(ctx, Kind, key)
	if err != nil {
		return fmt.Errorf("chatonce: %s: read flag: %w", key, err)
	}
	unknown := false
	if known {
		switch string(flag) {
		case flagSent:
			return nil
		case flagGaveUp:
			return ErrGaveUp
		case flagSending:
			unknown = true
		}
	}
	var last error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if attempt > 0 {
			if err := p.wait(ctx, attempt); err != nil {
				return fmt.Errorf("chatonce: %s: %w", key, err)
			}
		}
		if unknown {
			found, err := p.inChat(ctx, gameID, room, text)
			if err != nil {
				last = err
				if Transient(err) && ctx.Err() == nil {
					continue // the server is not answering yet: ask again later
				}
				return fmt.Errorf("chatonce: %s: resolve an unknown outcome: %w", key, err)
			}
			if found {
				return p.set(ctx, key, flagSent)
			}
			unknown = false
		}
		if err := p.remember(ctx, key, gameID, room, text); err != nil {
			return err
		}
		if err := p.set(ctx, key, flagSending); err != nil {
			return err
		}
		err := p.API.Chat(ctx, gameID, room, text)
		switch {
		case err == nil:
			return p.set(ctx, key, flagSent)
		case errors.Is(err, lichess.ErrUnknownOutcome):
			unknown = true
		case !Transient(err):
			// the server refused the line (the game is gone, say)
			if serr := p.set(ctx, key, flagGaveUp); serr != nil {
				return serr
			}
			return fmt.Errorf("chatonce: %s: %w", key, err)
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	return fmt.Errorf("chatonce: %s: still failing after %d attempts: %w", key, maxAttempts, last)
}

// inChat reads the chat back and reports whether we said text. Only the
// player room can be read back (Lichess gives no API for the spectator
// room): an unknown outcome there counts as posted, because a line said
// twice is worse than one possibly lost.
func (p *Poster) inChat(ctx context.Context, gameID string, room lichess.ChatRoom, text string) (bool, error) {
	if room != lichess.RoomPlayer {
		return true, nil
	}
	if p.Read == nil {
		return false, errors.New("no way to read the chat back")
	}
	history, err := p.Read.ChatHistory(ctx, gameID)
	if err != nil {
		return false, err
	}
	for _, m := range history {
		if strings.EqualFold(m.User, p.Me) && m.Text == text {
			return true, nil
		}
	}
	return false, nil
}

// remember writes the line under TextKind (once: a retry finds it there).
func (p *Poster) remember(ctx context.Context, key, gameID string, room lichess.ChatRoom, text string) error {
	if _, ok, err := p.Flags.CacheGet(ctx, TextKind, key); err == nil && ok {
		return nil
	}
	b, err := json.Marshal(line{Game: gameID, Room: string(room), Text: text})
	if err != nil {
		return fmt.Errorf("chatonce: %s: %w", key, err)
	}
	if err := p.Flags.CachePut(ctx, TextKind, key, b); err != nil {
		return fmt.Errorf("chatonce: %s: remember the line: %w", key, err)
	}
	return nil
}

// Queue records lines about to be posted (each as Post would, under its
// key) without posting them: a caller posting several lines in a row
// queues them all first, so that Resume also finishes the ones a crash
// kept from being begun (the spectator goodbye after a player goodbye held
// by the server). A line with a flag already is left as it is.
func (p *Poster) Queue(ctx context.Context, gameID, key string, room lichess.ChatRoom, text string) error {
	if _, known, err := p.Flags.CacheGet(ctx, Kind, key); err != nil || known {
		if err != nil {
			return fmt.Errorf("chatonce: %s: read flag: %w", key, err)
		}
		return nil
	}
	if err := p.remember(ctx, key, gameID, room, text); err != nil {
		return err
	}
	return p.set(ctx, key, flagQueued)
}

// Resume finishes the lines a crash or a shutdown left queued or "sending"
// (their outcome unknown) whose key keep accepts: a "sending" one is
// resolved by reading the chat back and posted only when it is not there,
// as Post does; a queued one is posted. It returns
// how many lines it resolved and the errors of the others (left "sending"
// for the next Resume). Flags must implement Lister. The caller keeps out
// the lines someone else posts again concurrently (the runner of a game
// still in progress, the summary queue).
func (p *Poster) Resume(ctx context.Context, keep func(key string) bool) (int, error) {
	ls, ok := p.Flags.(Lister)
	if !ok {
		return 0, errors.New("chatonce: resume: the flag store cannot list its flags")
	}
	var keys []string
	for _, f := range []string{flagQueued, flagSending} {
		k, err := ls.CacheKeysWithValue(ctx, Kind, []byte(f))
		if err != nil {
			return 0, fmt.Errorf("chatonce: resume: %w", err)
		}
		keys = append(keys, k...)
	}
	var errs []error
	n := 0
	for _, key := range keys {
		if !keep(key) {
			continue
		}
		b, ok, err := p.Flags.CacheGet(ctx, TextKind, key)
		if err != nil || !ok {
			errs = append(errs, fmt.Errorf("chatonce: resume %s: the line's text is not stored (%v)", key, err))
			continue
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			errs = append(errs, fmt.Errorf("chatonce: resume %s: %w", key, err))
			continue
		}
		if err := p.Post(ctx, l.Game, key, lichess.ChatRoom(l.Room), l.Text); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

func (p *Poster) set(ctx context.Context, key, flag string) error {
	if err := p.Flags.CachePut(ctx, Kind, key, []byte(flag)); err != nil {
		return fmt.Errorf("chatonce: %s: write flag %s: %w", key, flag, err)
	}
	return nil
}

// Transient reports errors worth retrying: a 429 (the client itself holds
// every request back until its lockout ends), a 5xx, a network failure or a
// timeout of one request. A refusal by the server (4xx) and a bad token
// are not. The caller checks its own context.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, lichess.ErrRateLimited) || errors.Is(err, lichess.ErrServer) || errors.Is(err, lichess.ErrUnknownOutcome) {
		return true
	}
	var api *lichess.APIError
	return !errors.As(err, &api) && !errors.Is(err, lichess.ErrTokenInvalid) && !errors.Is(err, lichess.ErrMissingScope)
}
