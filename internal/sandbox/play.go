package sandbox

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/board"
)

// uciPattern is the syntax of a standard-chess UCI move.
var uciPattern = regexp.MustCompile(`^[a-h][1-8][a-h][1-8][qrbn]?$`)

// errNotYourTurn is Lichess's answer to a move out of turn or after the end.
const errNotYourTurn = "Not your turn, or game already over"

// startGame creates the game of an accepted challenge and announces it
// (mu held).
func (s *Server) startGame(c *challenge, whitePlayer, blackPlayer *account) *game {
	now := s.now()
	s.countBotGame(whitePlayer, blackPlayer)
	variant, initialFEN, pos, err := gameStart(c)
	if err != nil {
		// Challenges are validated with board.FromFENPlayable: this cannot
		// happen, but a game must never be left without a board.
		s.log.Error().Err(err).Str("game", c.id).Msg("invalid start position; playing from the standard one")
		variant, initialFEN, pos = "standard", "", mustStartPosition()
	}
	g := &game{
		id:           c.id,
		players:      [2]*account{whitePlayer, blackPlayer},
		variant:      variant,
		initialFEN:   initialFEN,
		rated:        c.rated,
		source:       c.source,
		tournamentID: c.tournament,
		rules:        c.rules,
		clock:        c.clock,
		days:         c.days,
		createdAt:    now,
		lastMoveAt:   now,
		turnStart:    now,
		status:       "started",
		winner:       noWinner,
		subs:         map[*subscriber]bool{},
		leftAt:       [2]time.Time{now, now},
	}
	if g.source == "" {
		g.source = SourceFriend
	}
	g.fullIDs = [2]string{g.id + s.newID(4), g.id + s.newID(4)}
	g.pos = pos
	if initialFEN != "" {
		g.startPly = fenPly(initialFEN)
	}
	if g.clock != nil {
		// A zero-minute clock starts with the increment, at least 3 s.
		initial := g.clock.limit
		if initial == 0 {
			initial = max(g.clock.increment, 3*time.Second)
		}
		initial = s.scaled(initial)
		g.remaining = [2]time.Duration{initial, initial}
		g.initial, g.increment = initial, s.scaled(g.clock.increment)
		g.firstMove = s.firstMoveDeadline(g)
	}
	s.games[g.id] = g
	s.order = append(s.order, g.id)
	for col := range 2 {
		s.sendEvent(g.players[col], eventJSON{Type: "gameStart", Game: s.eventInfo(g, col)})
	}
	s.arm(g)
	return g
}

// gameStart is the variant, initialFen ("" for the standard start) and
// position of the game challenge c makes, as lila's
// ChallengeJoiner.gameSetup (modules/challenge/src/main/
// ChallengeJoiner.scala) makes it: the challenge's fen read as
// scalachess's Fen.readWithMoveNumber reads it (board.FromFENPlayable:
// castling rights without their king or rook and an impossible en passant
// square dropped, the move numbers bounded), the game's initialFen that
// position written again (lila's GameRepo.insertDenormalized stores
// scalachess's Fen.write of the new game: X-FEN castling, an en passant
// square only when the capture is legal), and a fromPosition game whose
// position is then the standard start a standard game.
func gameStart(c *challenge) (variant, initialFEN string, pos *position, err error) {
	if c.fen == "" {
		pos, err = newVariantPosition("", c.variant == "chess960")
		return c.variant, "", pos, err
	}
	b, err := board.FromFENPlayable(c.fen, c.variant == "chess960")
	if err != nil {
		return "", "", nil, fmt.Errorf("sandbox: challenge %s: start position: %w", c.id, err)
	}
	if pos, err = newVariantPosition(b.FEN(), b.Chess960()); err != nil {
		return "", "", nil, fmt.Errorf("sandbox: challenge %s: %w", c.id, err)
	}
	initialFEN = pos.fen()
	if c.variant == "fromPosition" && initialFEN == board.StartFEN {
		return "standard", "", mustStartPosition(), nil
	}
	return c.variant, initialFEN, pos, nil
}

// mustStartPosition is the standard start position.
func mustStartPosition() *position {
	pos, err := newPosition("")
	if err != nil {
		panic("sandbox: the start position is refused: " + err.Error()) // unreachable: constant input
	}
	return pos
}

// fenPly is the ply number of a FEN's position (0 for white's first move).
func fenPly(fen string) int {
	f := strings.Fields(fen)
	if len(f) < 6 {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(f[5], "%d", &n); err != nil || n < 1 {
		n = 1
	}
	ply := 2 * (n - 1)
	if f[1] == "b" {
		ply++
	}
	return ply
}

// move plays uci for acc (mu held).
func (s *Server) move(g *game, acc *account, uci string, offeringDraw bool) *apiError {
	now := s.now()
	s.tick(g, now)
	col := g.colorOf(acc)
	if col < 0 {
		return notFound("No such game")
	}
	if g.over() || g.turn() != col {
		return badRequest(errNotYourTurn)
	}
	if !uciPattern.MatchString(uci) {
		return badRequest("Invalid UCI: " + uci)
	}
	uci = normalizeCastling(g.pos, uci)
	legal, ok := g.pos.find(uci)
	if !ok {
		if g.pos.pieceAt(uci[:2]) == board.NoPiece {
			return badRequest("No piece on " + uci[:2])
		}
		return badRequest(fmt.Sprintf("Piece on %s cannot move to %s", uci[:2], uci[2:4]))
	}
	earlyDrawBefore := g.rulePreventsDraw()
	if g.clock != nil {
		if g.clockRunning() {
			g.remaining[col] -= now.Sub(g.turnStart)
			g.remaining[col] += g.increment
		}
		g.clocksAfter = append(g.clocksAfter, g.remaining[col])
	}
	g.san = append(g.san, g.pos.play(legal))
	u := legal.String()
	g.uci = append(g.uci, u)
	if len(g.movesText) > 0 {
		g.movesText = append(g.movesText, ' ')
	}
	g.movesText = append(g.movesText, u...)
	g.turnStart, g.lastMoveAt = now, now
	s.present(g, col)
	opp := 1 - col
	g.takeback = [2]bool{} // a move ends every takeback proposal, as on Lichess
	// Moving declines the opponent's offer; the mover's own offer stands.
	// Under noEarlyDraw an offer is dropped (lila BotPlayer.offerDraw
	// needs Game.drawable), judged before this move as lila does.
	offeringDraw = offeringDraw && !earlyDrawBefore
	agreed := offeringDraw && g.drawOffer[opp]
	g.drawOffer[opp] = false
	if offeringDraw && !agreed {
		g.drawOffer[col] = true
	}
	switch {
	case agreed:
		s.finish(g, "draw", noWinner)
	case !s.checkOutcome(g):
		s.broadcastState(g)
		s.arm(g)
	}
	return nil
}

// normalizeCastling writes castling as the game's variant does, as
// Lichess accepts both spellings: king takes rook (e1h1) becomes the king's
// two-square move (e1g1) in standard chess, and the king's move becomes
// king takes rook in Chess960 when no plain king move goes there.
func normalizeCastling(pos *position, uci string) string {
	if _, ok := pos.find(uci); ok {
		return uci
	}
	if m, err := pos.b.ParseUCI(uci); err == nil && m.IsCastle() {
		return m.String()
	}
	return uci
}

// checkOutcome ends the game if the last move finished it, with the status
// Lichess uses: mate, stalemate, or draw for insufficient material,
// threefold repetition and the fifty-move rule (mu held). It reports whether
// the game ended.
func (s *Server) checkOutcome(g *game) bool {
	switch g.pos.ending() {
	case endMate:
		s.finish(g, "mate", 1-g.turn())
	case endStalemate:
		s.finish(g, "stalemate", noWinner)
	case endInsufficient, endRepetition, endFiftyMoves:
		s.finish(g, "draw", noWinner)
	default:
		return false
	}
	return true
}

// finish ends a game: the final gameState to its streams, which then end,
// and gameFinish to both players' event streams (mu held).
func (s *Server) finish(g *game, status string, winner int) {
	if g.over() {
		return
	}
	now := s.now()
	if g.clock != nil && g.clockRunning() {
		g.remaining[g.turn()] = g.timeLeft(g.turn(), now)
	}
	g.status, g.winner = status, winner
	// a stall at the game's end begins before anyone can learn of the end
	s.faults.gameEnded()
	g.drawOffer = [2]bool{}
	g.lastMoveAt = now
	g.stopTimer()
	s.broadcastState(g)
	for sub := range g.subs {
		sub.end()
	}
	g.subs = map[*subscriber]bool{}
	for col := range 2 {
		s.sendEvent(g.players[col], eventJSON{Type: "gameFinish", Game: s.eventInfo(g, col)})
	}
	s.log.Info().Str("game", g.id).Str("status", status).Str("winner", winnerName(winner)).Msg("game over")
	s.learnOpening(g)
	s.scheduleAnalysis(g)
	if g.tournamentID != "" {
		s.arenaGameOver(g)
	}
}

// winnerName is the winner's color name, or "" for none.
func winnerName(w int) string {
	if w == noWinner {
		return ""
	}
	return colorName(w)
}

// abort aborts a game for acc (mu held).
func (s *Server) abort(g *game, acc *account) *apiError {
	s.tick(g, s.now())
	if g.colorOf(acc) < 0 {
		return notFound("No such game")
	}
	if !g.abortableByUser() {
		// lila BotPlayer.abort: Game.abortableByUser (noAbort included)
		return badRequest("This game can no longer be aborted")
	}
	s.finish(g, "aborted", noWinner)
	return nil
}

// playing brings g's clock up to date and returns acc's color in it: a
// 404 when acc does not play g, a 400 saying overMsg when g is over
// (mu held).
func (s *Server) playing(g *game, acc *account, overMsg string) (int, *apiError) {
	s.tick(g, s.now())
	col := g.colorOf(acc)
	if col < 0 {
		return col, notFound("No such game")
	}
	if g.over() {
		return col, badRequest(overMsg)
	}
	return col, nil
}

// resign resigns for acc; a game that can still be aborted is aborted, as
// Lichess does (mu held).
func (s *Server) resign(g *game, acc *account) *apiError {
	col, aerr := s.playing(g, acc, "This game cannot be resigned")
	if aerr != nil {
		return aerr
	}
	switch {
	case g.abortableByUser():
		s.finish(g, "aborted", noWinner)
		return nil
	case g.abortable():
		// lila BotPlayer.resign: under noAbort a game in its first two
		// plies is neither abortable by a player nor resignable
		// (Game.resignable is playable && !abortable).
		return badRequest("This game cannot be resigned")
	}
	s.finish(g, "resign", 1-col)
	return nil
}

// draw handles /draw/yes|no for acc (mu held).
func (s *Server) draw(g *game, acc *account, yes bool) *apiError {
	col, aerr := s.playing(g, acc, "This game is over.")
	if aerr != nil {
		return aerr
	}
	opp := 1 - col
	switch {
	case g.rulePreventsDraw():
		// lila BotPlayer.setDraw: offers and answers need Game.drawable;
		// the request is answered ok and changes nothing.
	case yes && g.drawOffer[opp]:
		s.finish(g, "draw", noWinner)
	case yes:
		if !g.drawOffer[col] {
			g.drawOffer[col] = true
			s.broadcastState(g)
		}
	case g.drawOffer[opp]:
		g.drawOffer[opp] = false
		s.broadcastState(g)
	}
	return nil
}

// takebackAnswer handles /takeback/yes|no for acc (mu held). Yes accepts
// the opponent's proposal, or proposes one once both sides have moved; no
// declines the opponent's proposal or withdraws one's own.
func (s *Server) takebackAnswer(g *game, acc *account, yes bool) *apiError {
	col, aerr := s.playing(g, acc, "This game is over.")
	if aerr != nil {
		return aerr
	}
	opp := 1 - col
	switch {
	case yes && g.takeback[opp]:
		s.takeBack(g, opp)
	case yes:
		if !g.hasMoved(white) || !g.hasMoved(black) {
			return badRequest("Both players must have moved before a takeback.")
		}
		if !g.takeback[col] {
			g.takeback[col] = true
			s.broadcastState(g)
		}
	case g.takeback[opp] || g.takeback[col]:
		g.takeback = [2]bool{}
		s.broadcastState(g)
	}
	return nil
}

// takeBack grants the takeback proposed by color proposer (mu held): the
// proposer's last move is taken back, with the opponent's reply after it
// if there is one (two plies when the proposer is to move, else one), as
// Lichess does. The position is replayed from the start; the clocks keep
// the times they have (the turn in progress is charged) and the side to
// move starts its turn now; offers end.
func (s *Server) takeBack(g *game, proposer int) {
	n := 1
	if g.turn() == proposer {
		n = 2
	}
	n = min(n, g.plies())
	keep := g.plies() - n
	now := s.now()
	if g.clockRunning() {
		g.remaining[g.turn()] = g.timeLeft(g.turn(), now) // the time spent on this turn is not given back
	}
	pos, err := newPosition(g.initialFEN)
	if err != nil {
		s.log.Error().Err(err).Str("game", g.id).Msg("takeback: start position")
		return
	}
	for _, u := range g.uci[:keep] {
		m, ok := pos.find(u)
		if !ok {
			s.log.Error().Str("game", g.id).Str("move", u).Msg("takeback: move does not replay")
			return
		}
		pos.play(m)
	}
	g.pos = pos
	g.uci, g.san = g.uci[:keep], g.san[:keep]
	if len(g.clocksAfter) > keep {
		g.clocksAfter = g.clocksAfter[:keep]
	}
	g.movesText = []byte(strings.Join(g.uci, " "))
	g.takeback, g.drawOffer = [2]bool{}, [2]bool{}
	g.turnStart, g.lastMoveAt = now, now
	s.log.Info().Str("game", g.id).Int("plies", n).Msg("takeback")
	s.broadcastState(g)
	s.arm(g)
}

// claim handles claim-victory (win) and claim-draw for acc: allowed once the
// opponent has been gone for GoneAfter + ClaimWinAfter (mu held).
func (s *Server) claim(g *game, acc *account, win bool) *apiError {
	now := s.now()
	s.tick(g, now)
	col := g.colorOf(acc)
	if col < 0 {
		return notFound("No such game")
	}
	opp := 1 - col
	if aerr, ruled := claimRefusedByRule(g, win); ruled {
		return aerr
	}
	if !g.forceDrawable() || g.streams[opp] > 0 ||
		now.Before(g.leftAt[opp].Add(s.cfg.GoneAfter+s.cfg.ClaimWinAfter)) {
		return badRequest("You cannot claim this game: your opponent is not gone.")
	}
	if win && !g.forceResignable() {
		// lila Round.resignForce: only where Game.forceResignable holds;
		// a challenge game can only be drawn by a claim.
		return badRequest("You cannot claim victory in this game: claim a draw instead.")
	}
	if win {
		s.finish(g, "timeout", col)
	} else {
		s.finish(g, "draw", noWinner)
	}
	return nil
}

// claimRefusedByRule answers a claim a game rule forbids, as lila does
// (modules/bot/src/main/BotPlayer.scala): claimVictory does nothing and
// answers ok unless Pov.mightClaimWin (Game.forceResignable, false under
// noClaimWin); claimDraw does nothing and answers ok unless Game.drawable
// (false under noEarlyDraw before ply 60), and under noClaimWin the round
// refuses the forced draw (RoundGame.forceDrawable), so the game is not
// drawn: 400 "You cannot claim draw on this game". ruled is false when no
// rule decides (mu held).
func claimRefusedByRule(g *game, win bool) (aerr *apiError, ruled bool) {
	switch {
	case win && g.hasRule(RuleNoClaimWin):
		return nil, true
	case !win && g.rulePreventsDraw():
		return nil, true
	case !win && g.hasRule(RuleNoClaimWin):
		return badRequest("You cannot claim draw on this game"), true
	}
	return nil, false
}

// arm (re)sets the game's timer to its next deadline (mu held).
func (s *Server) arm(g *game) {
	g.stopTimer()
	if g.over() || s.closed {
		return
	}
	now := s.now()
	next, ok := s.nextDeadline(g)
	if !ok {
		return
	}
	d := max(next.Sub(now), time.Millisecond)
	g.timer = time.AfterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			return
		}
		s.tick(g, s.now())
		s.arm(g)
	})
}

// nextDeadline is the earliest pending deadline of a game (mu held).
func (s *Server) nextDeadline(g *game) (time.Time, bool) {
	var best time.Time
	consider := func(t time.Time) {
		if best.IsZero() || t.Before(best) {
			best = t
		}
	}
	if t, ok := s.moveDeadline(g); ok {
		consider(t)
	}
	for col := range 2 {
		if g.streams[col] > 0 || !g.forceDrawable() {
			continue
		}
		if !g.goneSent[col] {
			consider(g.leftAt[col].Add(s.cfg.GoneAfter))
		} else if !g.claimSent[col] {
			consider(g.leftAt[col].Add(s.cfg.GoneAfter + s.cfg.ClaimWinAfter))
		}
	}
	return best, !best.IsZero()
}

// moveDeadline is when the side to move runs out of time: the first-move
// deadline (noStart), the clock (outoftime) or the correspondence day limit.
func (s *Server) moveDeadline(g *game) (time.Time, bool) {
	switch {
	case g.over():
		return time.Time{}, false
	case g.clock != nil && g.plies() < 2 && g.firstMove > 0:
		return g.turnStart.Add(g.firstMove), true
	case g.clock != nil && g.plies() < 2:
		return time.Time{}, false // not expirable: the clocks start with both first moves
	case g.clock != nil:
		return g.turnStart.Add(g.remaining[g.turn()]), true
	case g.days > 0:
		return g.turnStart.Add(time.Duration(g.days) * 24 * time.Hour), true
	}
	return time.Time{}, false
}

// tick applies every deadline that has passed at now: noStart, flag fall,
// opponentGone announcements (mu held).
func (s *Server) tick(g *game, now time.Time) {
	if g.over() {
		return
	}
	if t, ok := s.moveDeadline(g); ok && !now.Before(t) {
		mover := g.turn()
		switch {
		case g.clock != nil && g.plies() < 2:
			s.finish(g, "noStart", 1-mover)
		case g.clock != nil:
			g.remaining[mover] = 0
			g.turnStart = now
			winner := 1 - mover
			if !g.pos.hasMatingMaterial(winner) {
				winner = noWinner
			}
			s.finish(g, "outoftime", winner)
		default:
			s.finish(g, "outoftime", 1-mover)
		}
		return
	}
	if !g.forceDrawable() {
		return // no opponentGone: lila announces it only where a claim is possible
	}
	for col := range 2 {
		if g.streams[col] > 0 {
			continue
		}
		goneAt := g.leftAt[col].Add(s.cfg.GoneAfter)
		if !g.goneSent[col] && !now.Before(goneAt) {
			g.goneSent[col] = true
			secs := ceilSeconds(s.cfg.ClaimWinAfter)
			s.sendToColor(g, 1-col, opponentGoneJSON{Type: "opponentGone", Gone: true, ClaimWinInSeconds: &secs})
		}
		if g.goneSent[col] && !g.claimSent[col] && !now.Before(goneAt.Add(s.cfg.ClaimWinAfter)) {
			g.claimSent[col] = true
			zero := 0
			s.sendToColor(g, 1-col, opponentGoneJSON{Type: "opponentGone", Gone: true, ClaimWinInSeconds: &zero})
		}
	}
}

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) int { return int((max(d, 0) + time.Second - 1) / time.Second) }
