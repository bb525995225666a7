package lichess_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/lichess"
)

// A bot's skeleton: check the token, follow the event stream, accept
// challenges and play each game from its stream.
func Example() {
	ctx := context.Background()
	tok, err := lichess.LoadToken(nil, "/etc/outpost/token") // or LICHESS_TOKEN
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	c, err := lichess.New(lichess.Options{Token: tok, Logger: zerolog.New(os.Stderr)})
	if err != nil {
		return
	}
	if _, err := c.CheckToken(ctx); err != nil { // invalid, expired or no bot:play
		fmt.Fprintln(os.Stderr, err)
		return
	}
	events, err := c.StreamEvents(ctx)
	if err != nil {
		return
	}
	for ev := range events.Events() {
		switch e := ev.(type) {
		case *lichess.ChallengeEvent:
			_ = c.AcceptChallenge(ctx, e.Challenge.ID, "")
		case *lichess.GameStartEvent:
			go play(ctx, c, e.Game.GameID)
		}
	}
}

func play(ctx context.Context, c *lichess.Client, id string) {
	game, err := c.Bot().StreamGame(ctx, id)
	if err != nil {
		return
	}
	defer game.Close()
	for ev := range game.Events() {
		switch e := ev.(type) {
		case *lichess.GameFull: // first event, and again after every *lichess.Reconnected
			_ = e.State
		case *lichess.GameState:
			err := c.Bot().Move(ctx, id, "e7e5", false)
			if errors.Is(err, lichess.ErrUnknownOutcome) {
				continue // the next gameState (or gameFull) says whether it was played
			}
		}
	}
	// game.Err() is nil once the game is over.
}
