package sandbox

import (
	"fmt"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// Pairing is a game that Lichess itself pairs (a lobby seek, quick pairing,
// an arena or a Swiss round) rather than a challenge: the sandbox has no
// lobby or tournaments, so tests create such games with Server.Pair. They
// differ from challenge games by their source, and so by lila's rules that
// read it (the first-move deadline: TimeForFirstMove, Expirable; no claims
// in Swiss games).
type Pairing struct {
	White, Black string        // account names
	Source       string        // SourceLobby, SourceArena, SourcePool or SourceSwiss
	Limit        time.Duration // the clock's initial time (nominal, scaled by TimeScale)
	Increment    time.Duration // the clock's increment
	Variant      string        // "standard" (default) or "chess960"
	FEN          string        // the Chess960 start position ("" = one at random)
	Rated        bool
}

// Pair starts a game between two accounts as Lichess's pairing would, both
// players hearing gameStart on their event streams, and returns its id.
func (s *Server) Pair(p Pairing) (string, error) {
	if !Expirable(p.Source) {
		return "", fmt.Errorf("sandbox: pairing source %q: want lobby, arena, pool or swiss (challenge games come from the challenge API)", p.Source)
	}
	if p.Limit < 0 || p.Increment < 0 || p.Limit+p.Increment == 0 {
		return "", fmt.Errorf("sandbox: pairing clock %v+%v: a real-time clock is needed", p.Limit, p.Increment)
	}
	variant := p.Variant
	switch variant {
	case "", "standard":
		variant = "standard"
		if p.FEN != "" {
			return "", fmt.Errorf("sandbox: pairing FEN: only for chess960")
		}
	case "chess960":
	default:
		return "", fmt.Errorf("sandbox: pairing variant %q: want standard or chess960", p.Variant)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, b := s.accounts[strings.ToLower(p.White)], s.accounts[strings.ToLower(p.Black)]
	if w == nil || b == nil || w == b {
		return "", fmt.Errorf("sandbox: pairing %q vs %q: two distinct existing accounts needed", p.White, p.Black)
	}
	c := &challenge{
		id: s.newID(8), challenger: w, dest: b, variant: variant, fen: p.FEN, rated: p.Rated,
		source: p.Source, clock: &timeControl{limit: p.Limit, increment: p.Increment},
		color: "white", finalColor: "white", status: "accepted", createdAt: s.now(),
	}
	if variant == "chess960" {
		if c.fen == "" {
			fen, err := board.Chess960FEN(s.rng.Intn(960))
			if err != nil {
				return "", fmt.Errorf("sandbox: pairing: %w", err)
			}
			c.fen = fen
		} else if _, ok := board.Chess960Number(c.fen); !ok {
			return "", fmt.Errorf("sandbox: pairing FEN %q: not a Chess960 starting position", c.fen)
		}
	}
	return s.startGame(c, w, b).id, nil
}
