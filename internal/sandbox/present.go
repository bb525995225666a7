package sandbox

import (
	"time"
)

// stateJSON renders the game's current gameState (mu held).
func (s *Server) stateJSON(g *game) gameStateJSON {
	now := s.now()
	st := gameStateJSON{
		Type:   "gameState",
		Moves:  string(g.movesText),
		Status: g.status,
		Winner: winnerName(g.winner),
		Wdraw:  g.drawOffer[white],
		Bdraw:  g.drawOffer[black],

		Wtakeback: g.takeback[white],
		Btakeback: g.takeback[black],
	}
	switch {
	case g.clock != nil:
		st.Wtime = g.timeLeft(white, now).Milliseconds()
		st.Btime = g.timeLeft(black, now).Milliseconds()
		st.Winc = g.increment.Milliseconds()
		st.Binc = st.Winc
		if !g.over() && g.plies() < 2 && g.firstMove > 0 {
			st.Expiration = &expirationJSON{
				IdleMillis:   now.Sub(g.turnStart).Milliseconds(),
				MillisToMove: g.firstMove.Milliseconds(),
			}
		}
	case g.days > 0:
		day := (time.Duration(g.days) * 24 * time.Hour).Milliseconds()
		st.Wtime, st.Btime = day, day
		if !g.over() {
			left := g.turnStart.Add(time.Duration(g.days) * 24 * time.Hour).Sub(now).Milliseconds()
			if g.turn() == white {
				st.Wtime = max(left, 0)
			} else {
				st.Btime = max(left, 0)
			}
		}
	default:
		st.Wtime, st.Btime = 2147483647, 2147483647
	}
	return st
}

// fullJSON renders the game's gameFull line (mu held).
func (s *Server) fullJSON(g *game) gameFullJSON {
	initial := "startpos"
	if g.initialFEN != "" {
		initial = g.initialFEN
	}
	full := gameFullJSON{
		Type:         "gameFull",
		ID:           g.id,
		Variant:      variantOf(g.variant),
		Speed:        g.speed(),
		Perf:         perfNameJSON{Name: perfName(g.speed())},
		Rated:        g.rated,
		CreatedAt:    g.createdAt.UnixMilli(),
		White:        playerJSON(g.players[white]),
		Black:        playerJSON(g.players[black]),
		InitialFen:   initial,
		State:        s.stateJSON(g),
		TournamentID: g.tournamentID,
	}
	if g.clock != nil {
		// The running clock: the nominal one unless TimeScale scales it.
		full.Clock = &clockJSON{Initial: g.initial.Milliseconds(), Increment: g.increment.Milliseconds()}
	}
	if g.days > 0 {
		d := g.days
		full.DaysPerTurn = &d
	}
	return full
}

// playerJSON is a gameFull player.
func playerJSON(a *account) gamePlayerJSON {
	p := gamePlayerJSON{ID: a.id, Name: a.Name, Rating: a.Rating}
	if a.Title != "" {
		t := a.Title
		p.Title = &t
	}
	return p
}

// eventInfo renders the GameEventInfo of a game as seen by color col (mu held).
func (s *Server) eventInfo(g *game, col int) *gameEventInfoJSON {
	opp := g.players[1-col]
	lastMove := ""
	if n := len(g.uci); n > 0 {
		lastMove = g.uci[n-1]
	}
	info := &gameEventInfoJSON{
		FullID:       g.fullIDs[col],
		GameID:       g.id,
		Fen:          g.fen(),
		Color:        colorName(col),
		LastMove:     lastMove,
		Source:       g.source,
		Status:       statusJSON{ID: statusIDs[g.status], Name: g.status},
		Variant:      variantOf(g.variant),
		Speed:        g.speed(),
		Perf:         g.speed(),
		Rated:        g.rated,
		HasMoved:     g.hasMoved(col),
		Opponent:     opponentJSON{ID: opp.id, Username: opp.Name, Rating: opp.Rating},
		IsMyTurn:     !g.over() && g.turn() == col,
		Winner:       winnerName(g.winner),
		Rating:       g.players[col].Rating,
		Compat:       compatJSON{Bot: true, Board: true},
		ID:           g.id,
		TournamentID: g.tournamentID,
	}
	if g.clock != nil || g.days > 0 {
		secs := int(s.secondsLeft(g, col))
		info.SecondsLeft = &secs
	}
	return info
}

// secondsLeft is a player's remaining time in seconds (mu held).
func (s *Server) secondsLeft(g *game, col int) int64 {
	if g.clock != nil {
		return int64(g.timeLeft(col, s.now()) / time.Second)
	}
	if g.days > 0 {
		if !g.over() && g.turn() == col {
			return int64(max(g.turnStart.Add(time.Duration(g.days)*24*time.Hour).Sub(s.now()), 0) / time.Second)
		}
		return int64(g.days) * 86400
	}
	return 0
}

// hasMoved reports whether color col has made a move.
func (g *game) hasMoved(col int) bool {
	first := g.startPly % 2 // color of the first mover
	if col == first {
		return g.plies() >= 1
	}
	return g.plies() >= 2
}

// broadcastState sends the current gameState to every stream of the game.
func (s *Server) broadcastState(g *game) {
	st := s.stateJSON(g)
	for sub := range g.subs {
		sub.send(st)
	}
}

// broadcast sends v to every stream of the game.
func (s *Server) broadcast(g *game, v any) {
	for sub := range g.subs {
		sub.send(v)
	}
}

// sendToColor sends v to the game streams of one player.
func (s *Server) sendToColor(g *game, col int, v any) {
	for sub := range g.subs {
		if sub.color == col {
			sub.send(v)
		}
	}
}

// sendEvent sends an event to a user's event stream, if open (mu held).
func (s *Server) sendEvent(a *account, ev eventJSON) {
	if sub := s.events[a.Token]; sub != nil {
		sub.send(ev)
	}
}

// online reports whether a user has an open event stream (mu held).
func (s *Server) online(a *account) bool { return s.events[a.Token] != nil }

// streamOpened records a player's new game stream; a player who had been
// announced as gone is announced back (mu held).
func (s *Server) streamOpened(g *game, col int) {
	g.streams[col]++
	s.present(g, col)
}

// present marks a player as back: the opponent hears opponentGone false if
// the player had been announced gone (mu held).
func (s *Server) present(g *game, col int) {
	if g.goneSent[col] {
		g.goneSent[col], g.claimSent[col] = false, false
		if !g.over() {
			s.sendToColor(g, 1-col, opponentGoneJSON{Type: "opponentGone", Gone: false})
		}
	}
	if g.streams[col] == 0 {
		g.leftAt[col] = s.now()
	}
	s.arm(g)
}

// streamClosed records that a player's game stream closed (mu held).
func (s *Server) streamClosed(g *game, col int) {
	g.streams[col]--
	if g.streams[col] == 0 {
		g.leftAt[col] = s.now()
	}
	s.arm(g)
}
