package sandbox

import (
	"strings"
	"time"
)

// GameSnapshot is a copy of a game's state, for tests and the demo.
type GameSnapshot struct {
	ID         string
	White      string // user name
	Black      string
	Status     string   // a GameStatusName: started, mate, resign, outoftime, …
	Winner     string   // "white", "black" or ""
	Moves      []string // UCI
	SAN        []string
	InitialFEN string // "" for the standard start
	Variant    string // "standard", "fromPosition", "chess960", …
	Source     string // lila's game source: "friend" (a challenge) or a Pairing's
	FEN        string
	Rated      bool
	Speed      string
	// ClockLimit and ClockIncrement are zero for correspondence games.
	ClockLimit, ClockIncrement time.Duration
	DaysPerTurn                int
	// WhiteTime and BlackTime are the remaining clock times now.
	WhiteTime, BlackTime time.Duration
	WhiteDraw, BlackDraw bool // pending draw offers
	// WhiteTakeback and BlackTakeback are pending takeback proposals.
	WhiteTakeback, BlackTakeback bool
	CreatedAt, LastMoveAt        time.Time
	Analysed                     bool
}

// Over reports whether the game has ended.
func (g GameSnapshot) Over() bool { return g.Status != "started" }

// ChatLine is one chat message of a game.
type ChatLine struct {
	Room string // "player" or "spectator"
	User string
	Text string
	Time time.Time
}

// RequestRecord is one request the sandbox served. It never holds a token.
type RequestRecord struct {
	Time   time.Time
	Method string
	Path   string
	Status int
	User   string // the authenticated user id, or ""
	// Held is set when a hold fault withheld the answer (the request was
	// handled as soon as it came).
	Held bool
	// Abandoned is set when the client gave up (closed the connection)
	// before a held answer was released: it never got the answer, although
	// the request was applied. Status is the answer it did not get. The
	// record is made when the server sees the client go: Config.OnRequest
	// is the event a test releases a stall on.
	Abandoned bool
}

// snapshot copies a game's state (mu held).
func (s *Server) snapshot(g *game) GameSnapshot {
	now := s.now()
	snap := GameSnapshot{
		ID: g.id, White: g.players[white].Name, Black: g.players[black].Name,
		Status: g.status, Winner: winnerName(g.winner),
		Moves: append([]string(nil), g.uci...), SAN: append([]string(nil), g.san...),
		InitialFEN: g.initialFEN, Variant: g.variant, Source: g.source, FEN: g.fen(), Rated: g.rated, Speed: g.speed(), DaysPerTurn: g.days,
		WhiteTime: g.timeLeft(white, now), BlackTime: g.timeLeft(black, now),
		WhiteDraw: g.drawOffer[white], BlackDraw: g.drawOffer[black],
		WhiteTakeback: g.takeback[white], BlackTakeback: g.takeback[black],
		CreatedAt: g.createdAt, LastMoveAt: g.lastMoveAt, Analysed: g.analysis != nil,
	}
	if g.clock != nil {
		snap.ClockLimit, snap.ClockIncrement = g.clock.limit, g.clock.increment
	}
	return snap
}

// Game returns a snapshot of one game.
func (s *Server) Game(id string) (GameSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	if g == nil {
		return GameSnapshot{}, false
	}
	s.tick(g, s.now())
	return s.snapshot(g), true
}

// Games returns snapshots of every game, oldest first.
func (s *Server) Games() []GameSnapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]GameSnapshot, 0, len(s.order))
	for _, id := range s.order {
		g := s.games[id]
		s.tick(g, s.now())
		out = append(out, s.snapshot(g))
	}
	return out
}

// Chat returns the chat lines of a game (both rooms), oldest first.
func (s *Server) Chat(gameID string) []ChatLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[gameID]
	if g == nil {
		return nil
	}
	return append([]ChatLine(nil), g.chat...)
}

// Requests returns the requests served so far, oldest first (the most
// recent 10000 to 20000 of them).
func (s *Server) Requests() []RequestRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RequestRecord(nil), s.requests...)
}

// URL returns the base URL set by Listen ("http://127.0.0.1" before).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.baseURL
}

// Online reports whether a user has an open event stream.
func (s *Server) Online(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[strings.ToLower(name)]
	return a != nil && s.online(a)
}

// Forget drops a finished game as a restarted server would: from then on
// the server does not know it, so its export, chat and game endpoints
// answer 404 "No such game". It reports whether the game was known and
// over; a game still in play is kept (a restart mid-game is the `stall`
// and `drop` faults' business). Tests use it for "the server restarted
// between the game's end and the summary's post".
func (s *Server) Forget(gameID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[gameID]
	if g == nil || !g.over() {
		return false
	}
	delete(s.games, gameID)
	for i, id := range s.order {
		if id == gameID {
			s.order = append(s.order[:i:i], s.order[i+1:]...)
			break
		}
	}
	return true
}
