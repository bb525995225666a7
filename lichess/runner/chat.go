package runner

import (
	"context"
	"fmt"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess/chatonce"
	"slices"
	"strings"

	"github.com/outpostchess/outpost/lichess"
)

// greet posts the greeting once per game, even across restarts. It runs
// beside the game (its retries must not hold up the first move); Run waits
// for it before returning.
func (r *Runner) greet(ctx context.Context) {
	if r.cfg.Game.Greeting == "" || r.full == nil {
		return
	}
	text := r.expand(r.cfg.Game.Greeting)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.postText(ctx, "greeting", text)
	}()
}

// farewell posts the goodbye once per game, even across restarts.
func (r *Runner) farewell(ctx context.Context) {
	r.postOnce(ctx, "goodbye", r.cfg.Game.Goodbye)
}

// postOnce posts a greeting or goodbye in each greeting room exactly once,
// retried like the summaries (chatonce: durable per-line flags, server
// errors retried, an unknown outcome resolved by reading the chat back).
func (r *Runner) postOnce(ctx context.Context, what, template string) {
	if template == "" || r.full == nil {
		return
	}
	r.postText(ctx, what, r.expand(template))
}

func (r *Runner) postText(ctx context.Context, what, text string) {
	p := &chatonce.Poster{API: r.api, Flags: r.journal, Me: r.cfg.Me, Wait: r.cfg.ChatWait}
	if rd, ok := r.api.(chatonce.Reader); ok {
		p.Read = rd
	}
	key := func(room string) string { return r.cfg.GameID + ":" + what + ":" + room }
	for _, room := range r.cfg.Game.GreetingRooms {
		// every room's line is queued before the first is posted: a crash
		// during one leaves the others to chatonce.Resume, not lost
		if err := p.Queue(ctx, r.cfg.GameID, key(room), lichess.ChatRoom(room), text); err != nil && ctx.Err() == nil {
			r.log.Warn().Err(err).Str("room", room).Str("what", what).Msg("chat")
		}
	}
	for _, room := range r.cfg.Game.GreetingRooms {
		key := key(room)
		if err := p.Post(ctx, r.cfg.GameID, key, lichess.ChatRoom(room), text); err != nil && ctx.Err() == nil {
			r.log.Warn().Err(err).Str("room", room).Str("what", what).Msg("chat")
		}
	}
}

// expand fills a chat template's {engine}, {opponent} and {me}.
func (r *Runner) expand(t string) string {
	opp := r.full.Black
	if r.color == lichess.Black {
		opp = r.full.White
	}
	name := opp.Name
	if name == "" && opp.AILevel > 0 {
		name = fmt.Sprintf("Stockfish level %d", opp.AILevel)
	}
	return strings.NewReplacer("{engine}", r.cfg.EngineName, "{opponent}", name, "{me}", r.cfg.Me).Replace(t)
}

// chatHelp lists the chat commands.
const chatHelp = "Commands: !help, !engine (what I play with), !eval (my current evaluation)"

// onChat answers chat commands from other users, in the room they used.
func (r *Runner) onChat(ctx context.Context, c *lichess.ChatLine) {
	if !r.cfg.Game.ChatCommands || strings.EqualFold(c.Username, r.cfg.Me) || strings.EqualFold(c.Username, "lichess") {
		return
	}
	room := lichess.ChatRoom(c.Room)
	if room != lichess.RoomSpectator {
		room = lichess.RoomPlayer
	}
	reply := r.commandReply(c.Text, room)
	if reply == "" {
		return
	}
	if err := r.api.Chat(ctx, r.cfg.GameID, room, reply); err != nil && ctx.Err() == nil {
		r.log.Warn().Err(err).Msg("chat reply")
	}
}

// engineOutputRefusal is the answer to !eval in a room where the engine's
// thinking is not shown (the player room by default: it would help the
// opponent).
const engineOutputRefusal = "Sorry, I don't share my evaluation with my opponent. Spectators can ask in the spectator chat."

// commandReply returns the answer to a chat line in room, or "" when it is
// not a command. Commands that reveal the engine's thinking (!eval) are
// answered only in the rooms of engine_output_rooms.
func (r *Runner) commandReply(text string, room lichess.ChatRoom) string {
	fields := strings.Fields(strings.TrimSpace(text))
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "!") {
		return ""
	}
	cmd, args := strings.ToLower(fields[0]), fields[1:]
	switch cmd {
	case "!help", "!commands":
		return chatHelp
	case "!engine", "!name":
		if len(args) > 0 {
			return "Usage: !engine (no arguments)"
		}
		return "I'm playing with " + r.cfg.EngineName + "."
	case "!eval":
		if len(args) > 0 {
			return "Usage: !eval (no arguments)"
		}
		if !slices.Contains(r.cfg.Game.EngineOutputRooms, string(room)) {
			if room == lichess.RoomSpectator {
				return "Sorry, I don't share my evaluation during the game."
			}
			return engineOutputRefusal
		}
		if !r.hasScore {
			return "No evaluation yet."
		}
		return "My evaluation: " + formatScore(r.lastScore) + fmt.Sprintf(" (depth %d, my point of view)", r.lastDepth)
	}
	return "Unknown command " + fields[0] + ". " + chatHelp
}

// formatScore renders a score like "+0.35", "-1.20" or "mate in 3".
func formatScore(s score.Score) string {
	switch {
	case s.Mate > 0:
		return fmt.Sprintf("mate in %d", s.Mate)
	case s.Mate < 0:
		return fmt.Sprintf("mated in %d", -s.Mate)
	}
	return fmt.Sprintf("%+.2f", float64(s.CP)/100)
}
