package lichess_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// End-to-end tests: the real client against the sandbox over loopback HTTP.

const (
	botToken   = "lip_e2eBotTokenQWERTY_0123456789"
	aliceToken = "lip_e2eAliceTokenASDFG_9876543210"
)

// logSink collects everything the clients and the sandbox log.
type logSink struct {
	mu sync.Mutex
	sb strings.Builder
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sb.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sb.String()
}

type e2e struct {
	t     *testing.T
	srv   *sandbox.Server
	url   string
	logs  *logSink
	bot   *lichess.Client
	alice *lichess.Client
	ctx   context.Context
}

// newE2E starts a sandbox on 127.0.0.1:0 with bot1 (BOT) and alice
// (human), and a client for each. Every log line and error is scanned for
// the tokens when the test ends.
func newE2E(t *testing.T, mod ...func(*lichess.Options)) *e2e {
	return newE2EWith(t, sandbox.Config{}, mod...)
}

// newE2EWith is newE2E with sandbox settings (accounts, keep-alive and
// logger are set here).
func newE2EWith(t *testing.T, cfg sandbox.Config, mod ...func(*lichess.Options)) *e2e {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	logs := &logSink{}
	cfg.Accounts = []sandbox.Account{
		{Name: "bot1", Token: botToken, Bot: true},
		{Name: "alice", Token: aliceToken},
	}
	cfg.KeepAlive = 100 * time.Millisecond
	cfg.Logger = zerolog.New(logs).Level(zerolog.DebugLevel)
	srv := sandbox.New(cfg)
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	e := &e2e{t: t, srv: srv, url: url, logs: logs, ctx: ctx}
	e.bot = e.client(botToken, mod...)
	e.alice = e.client(aliceToken, mod...)
	t.Cleanup(func() {
		out := logs.String()
		for _, tok := range []string{botToken, aliceToken} {
			if strings.Contains(out, tok) {
				t.Errorf("a token appeared in the logs")
			}
		}
	})
	return e
}

func (e *e2e) client(token string, mod ...func(*lichess.Options)) *lichess.Client {
	o := lichess.Options{
		BaseURL:       e.url,
		Token:         lichess.Token(token),
		Logger:        zerolog.New(e.logs).Level(zerolog.TraceLevel),
		StreamTimeout: 3 * time.Second,
		RetryWaitMin:  5 * time.Millisecond,
		RetryWaitMax:  20 * time.Millisecond,
		ReconnectMin:  10 * time.Millisecond,
		ReconnectMax:  50 * time.Millisecond,
	}
	for _, m := range mod {
		m(&o)
	}
	c, err := lichess.New(o)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// must fails the test on an error, after checking it hides the tokens.
func (e *e2e) must(err error) {
	e.t.Helper()
	e.noToken(err)
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *e2e) noToken(err error) {
	e.t.Helper()
	if err != nil && (strings.Contains(err.Error(), botToken) || strings.Contains(err.Error(), aliceToken)) {
		e.t.Fatalf("a token appeared in an error: %v", err)
	}
}

// next reads events until one of type T arrives (skipping others).
func next[T any, E interface{ EventType() string }](t *testing.T, s *lichess.Stream[E]) T {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				var zero T
				t.Fatalf("stream ended (err %v) while waiting for %T", s.Err(), zero)
			}
			if v, ok := any(ev).(T); ok {
				return v
			}
		case <-timeout:
			var zero T
			t.Fatalf("timed out waiting for %T", zero)
		}
	}
}

// startGame runs the flow up to a started game: events streams
// open, alice challenges bot1 (1+0, alice white), the bot accepts, both see
// gameStart. It returns the game id and the bot's event stream.
func (e *e2e) startGame() (string, *lichess.Stream[lichess.Event]) {
	t := e.t
	t.Helper()
	botEvents, err := e.bot.StreamEvents(e.ctx)
	e.must(err)
	t.Cleanup(botEvents.Close)
	aliceEvents, err := e.alice.StreamEvents(e.ctx)
	e.must(err)
	t.Cleanup(aliceEvents.Close)
	waitFor(t, "both online", func() bool { return e.srv.Online("bot1") && e.srv.Online("alice") })

	ch, err := e.alice.CreateChallenge(e.ctx, "bot1", lichess.ChallengeParams{
		Clock: &lichess.ChallengeClock{Limit: 60, Increment: 0}, Color: lichess.White})
	e.must(err)
	if ch.ID == "" || ch.TimeControl.Limit != 60 || ch.Speed != "bullet" {
		t.Fatalf("challenge %+v", ch)
	}
	ce := next[*lichess.ChallengeEvent](t, botEvents)
	if ce.Challenge.ID != ch.ID || ce.Challenge.Challenger.ID != "alice" || ce.Challenge.Direction != "in" {
		t.Fatalf("challenge event %+v", ce.Challenge)
	}
	e.must(e.bot.AcceptChallenge(e.ctx, ch.ID, ""))
	gs := next[*lichess.GameStartEvent](t, botEvents)
	if gs.Game.GameID != ch.ID || gs.Game.Color != lichess.Black || gs.Game.IsMyTurn || gs.Game.Opponent.ID != "alice" {
		t.Fatalf("bot gameStart %+v", gs.Game)
	}
	ags := next[*lichess.GameStartEvent](t, aliceEvents)
	if ags.Game.GameID != ch.ID || ags.Game.Color != lichess.White || !ags.Game.IsMyTurn {
		t.Fatalf("alice gameStart %+v", ags.Game)
	}
	return ch.ID, botEvents
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestE2EGameFlow(t *testing.T) {
	e := newE2E(t)
	info, err := e.bot.CheckToken(e.ctx)
	e.must(err)
	if info.UserID != "bot1" || !info.HasScope(lichess.ScopeBotPlay) {
		t.Fatalf("token info %+v", info)
	}
	_, err = e.alice.CheckToken(e.ctx)
	if !errors.Is(err, lichess.ErrMissingScope) {
		t.Fatalf("alice's token lacks bot:play: %v", err)
	}
	_, err = e.client("lip_nobodyHasThisToken").CheckToken(e.ctx)
	if !errors.Is(err, lichess.ErrTokenInvalid) {
		t.Fatalf("unknown token: %v", err)
	}
	me, err := e.bot.Account(e.ctx)
	e.must(err)
	if !me.IsBot() || me.ID != "bot1" {
		t.Fatalf("account %+v", me)
	}

	id, botEvents := e.startGame()

	botGame, err := e.bot.Bot().StreamGame(e.ctx, id)
	e.must(err)
	defer botGame.Close()
	full := next[*lichess.GameFull](t, botGame)
	if full.ID != id || full.White.ID != "alice" || full.Black.Title != "BOT" || full.StartFEN() != "" ||
		full.State.Moves != "" || full.State.WTime != 60000 || full.State.Status != lichess.StatusStarted {
		t.Fatalf("gameFull %+v", full)
	}
	if c, ok := full.ColorOf("bot1"); !ok || c != lichess.Black {
		t.Fatal("bot plays black")
	}
	aliceGame, err := e.alice.Board().StreamGame(e.ctx, id)
	e.must(err)
	defer aliceGame.Close()
	next[*lichess.GameFull](t, aliceGame)

	e.must(e.alice.Board().Move(e.ctx, id, "e2e4", false))
	st := next[*lichess.GameState](t, botGame)
	if st.Moves != "e2e4" || st.Turn(lichess.White) != lichess.Black {
		t.Fatalf("bot sees %+v", st)
	}
	e.must(e.bot.Bot().Move(e.ctx, id, "e7e5", false))
	for st.Moves != "e2e4 e7e5" {
		st = next[*lichess.GameState](t, aliceGame)
	}

	// A refused move is a 400 with Lichess's message, not "unknown outcome".
	err = e.bot.Bot().Move(e.ctx, id, "d7d5", false)
	if !errors.Is(err, lichess.ErrBadRequest) || errors.Is(err, lichess.ErrUnknownOutcome) {
		t.Fatalf("move out of turn: %v", err)
	}

	e.must(e.bot.Bot().Chat(e.ctx, id, lichess.RoomPlayer, "good luck"))
	cl := next[*lichess.ChatLine](t, aliceGame)
	if cl.Username != "bot1" && !strings.EqualFold(cl.Username, "bot1") || cl.Text != "good luck" {
		t.Fatalf("chat line %+v", cl)
	}
	hist, err := e.alice.Board().ChatHistory(e.ctx, id)
	e.must(err)
	if len(hist) == 0 || hist[len(hist)-1].Text != "good luck" {
		t.Fatalf("chat history %+v", hist)
	}
	og, err := e.bot.OngoingGames(e.ctx, 0)
	e.must(err)
	if len(og.NowPlaying) != 1 || og.NowPlaying[0].GameID != id {
		t.Fatalf("ongoing %+v", og)
	}

	// Draw offer declined, then alice resigns: the bot's game stream ends
	// cleanly and the event stream reports gameFinish.
	e.must(e.alice.Board().Draw(e.ctx, id, true))
	for !st.WDraw {
		st = next[*lichess.GameState](t, botGame)
	}
	e.must(e.bot.Bot().Draw(e.ctx, id, false))
	e.must(e.alice.Board().Resign(e.ctx, id))
	for ev := range botGame.Events() {
		if s, ok := ev.(*lichess.GameState); ok {
			st = s
		}
	}
	if botGame.Err() != nil || st.Status != lichess.StatusResign || st.Winner != lichess.Black {
		t.Fatalf("end: err %v state %+v", botGame.Err(), st)
	}
	gf := next[*lichess.GameFinishEvent](t, botEvents)
	if gf.Game.GameID != id || gf.Game.Status.Ongoing() {
		t.Fatalf("gameFinish %+v", gf.Game)
	}

	g, err := e.bot.ExportGame(e.ctx, id, lichess.ExportOptions{Clocks: true, Opening: true})
	e.must(err)
	if g.ID != id || g.Status != lichess.StatusResign || g.Winner != lichess.Black || g.Players.White.User.ID != "alice" || g.Moves != "e4 e5" {
		t.Fatalf("export %+v", g)
	}
	pgn, err := e.bot.ExportGamePGN(e.ctx, id, lichess.ExportOptions{})
	e.must(err)
	if !strings.Contains(pgn, "1. e4 e5") || !strings.Contains(pgn, `[Result "0-1"]`) {
		t.Fatalf("pgn:\n%s", pgn)
	}
	var ids []string
	for g, err := range e.bot.UserGames(e.ctx, "bot1", lichess.UserGamesParams{Max: 5}) {
		e.must(err)
		ids = append(ids, g.ID)
	}
	if len(ids) != 1 || ids[0] != id {
		t.Fatalf("user games %v", ids)
	}
	bots, err := e.alice.OnlineBots(e.ctx, 0)
	e.must(err)
	if len(bots) != 1 || bots[0].ID != "bot1" {
		t.Fatalf("online bots %+v", bots)
	}
}

func TestE2EDeclineAndCancel(t *testing.T) {
	e := newE2E(t)
	aliceEvents, err := e.alice.StreamEvents(e.ctx)
	e.must(err)
	defer aliceEvents.Close()
	ch, err := e.alice.CreateChallenge(e.ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 180, Increment: 2}})
	e.must(err)
	e.must(e.bot.DeclineChallenge(e.ctx, ch.ID, lichess.DeclineTooFast))
	d := next[*lichess.ChallengeDeclinedEvent](t, aliceEvents)
	if d.Challenge.ID != ch.ID || d.Challenge.DeclineReasonKey != "toofast" {
		t.Fatalf("declined %+v", d.Challenge)
	}
	ch2, err := e.alice.CreateChallenge(e.ctx, "bot1", lichess.ChallengeParams{Days: 2})
	e.must(err)
	e.must(e.alice.CancelChallenge(e.ctx, ch2.ID))
	err = e.bot.AcceptChallenge(e.ctx, ch2.ID, "")
	if !errors.Is(err, lichess.ErrNotFound) {
		t.Fatalf("accepting a cancelled challenge: %v", err)
	}
}

func TestE2EKeepAliveChallenge(t *testing.T) {
	e := newE2E(t)
	pc, err := e.alice.CreateChallengeKeepAlive(e.ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}})
	e.must(err)
	defer pc.Close()
	e.must(e.bot.AcceptChallenge(e.ctx, pc.Challenge.ID, ""))
	done, err := pc.Wait(e.ctx)
	e.must(err)
	if done != "accepted" {
		t.Fatalf("done %q", done)
	}
}

// Fault: the game stream is dropped after its first line; the client
// reconnects and reads gameFull again.
func TestE2EStreamDrop(t *testing.T) {
	e := newE2E(t)
	id, _ := e.startGame()
	e.srv.Faults().DropAfter("/api/bot/game/stream/", 1, 1)
	s, err := e.bot.Bot().StreamGame(e.ctx, id)
	e.must(err)
	defer s.Close()
	next[*lichess.GameFull](t, s)
	rc := next[*lichess.Reconnected](t, s)
	if rc.Attempt != 1 || !errors.Is(rc.Cause, lichess.ErrStreamClosed) {
		t.Fatalf("reconnected %+v", rc)
	}
	full := next[*lichess.GameFull](t, s)
	if full.ID != id {
		t.Fatal("second gameFull")
	}
	// The stream works after the reconnection.
	e.must(e.alice.Board().Move(e.ctx, id, "d2d4", false))
	if st := next[*lichess.GameState](t, s); st.Moves != "d2d4" {
		t.Fatalf("state %+v", st)
	}
	if e.srv.Faults().Fired(sandbox.FaultDrop) != 1 || s.Stats().Reconnects != 1 {
		t.Fatalf("fired %d, stats %+v", e.srv.Faults().Fired(sandbox.FaultDrop), s.Stats())
	}
}

// Fault: the game stream stalls (no more lines, no keep-alive); the
// watchdog reconnects it and the stream starts again with gameFull.
func TestE2EStreamStall(t *testing.T) {
	e := newE2E(t)
	id, _ := e.startGame()
	// The game stream gets its own client on a manual clock: its watchdog
	// fires only when the test moves the clock, never because the machine
	// was slow to deliver a keep-alive.
	clk := lichess.NewManualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	const timeout = 600 * time.Millisecond
	gc := e.client(botToken, func(o *lichess.Options) { o.StreamTimeout, o.Clock = timeout, clk })
	e.srv.Faults().Stall("/api/bot/game/stream/", 1, 1)
	s, err := gc.Bot().StreamGame(e.ctx, id)
	e.must(err)
	defer s.Close()
	next[*lichess.GameFull](t, s)
	// The sandbox stalls the stream at its next line (a keep-alive).
	waitFor(t, "the stream stalled", func() bool { return e.srv.Faults().Fired(sandbox.FaultStall) == 1 })
	// Stalled after gameFull: the stream arms its watchdog once per line
	// awaited (a fresh timer each time), so two timers, both due at the
	// timeout: the one for the first line and the one armed after gameFull.
	waitClock(t, clk, "the watchdog armed after gameFull", func() bool { return clk.Pending() == 2 })
	clk.Advance(timeout - time.Millisecond)
	if clk.Pending() != 2 {
		t.Fatal("the watchdog fired before the stream timeout")
	}
	clk.Advance(time.Millisecond)
	// The reconnection's back-off waits on the clock too (at most
	// ReconnectMax, 50 ms); a watchdog (600 ms) is never moved past here.
	var rc *lichess.Reconnected
	for rc == nil {
		changed := clk.Changed()
		if at, ok := clk.NextDeadline(); ok && at.Sub(clk.Now()) <= 50*time.Millisecond {
			clk.Advance(at.Sub(clk.Now()))
			continue
		}
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatalf("stream ended: %v", s.Err())
			}
			rc, _ = ev.(*lichess.Reconnected)
		case <-changed:
		case <-e.ctx.Done():
			t.Fatal("no reconnection after the stall")
		}
	}
	if !errors.Is(rc.Cause, lichess.ErrStreamStalled) {
		t.Fatalf("cause %v", rc.Cause)
	}
	if full := next[*lichess.GameFull](t, s); full.ID != id {
		t.Fatal("gameFull after the stall")
	}
	// Keep-alives (every 100 ms, real time) feed the watchdog: after each
	// one the test moves the clock 500 ms; five rounds take it 2.5 s past
	// the timeout without another reconnection. (A watchdog that keep-alives
	// did not re-arm would fire at the second round.)
	for round := 0; round < 5; round++ {
		before := clk.Pending()
		waitClock(t, clk, "a keep-alive re-arms the watchdog", func() bool { return clk.Pending() > before })
		clk.Advance(500 * time.Millisecond)
	}
	if st := s.Stats(); st.Reconnects != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// waitClock waits, on the manual clock's change notifications (no
// polling), until cond holds; it fails the test after 10 s.
func waitClock(t *testing.T, clk *lichess.ManualClock, what string, cond func() bool) {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		changed := clk.Changed()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-limit:
			t.Fatalf("timed out: %s", what)
		}
	}
}

// Fault: malformed ndjson lines are skipped and the stream goes on.
func TestE2EMalformedLines(t *testing.T) {
	e := newE2E(t)
	// One malformed line on each of the two event streams (bot's and
	// alice's): a rule fires at most once per connection.
	e.srv.Faults().Malformed("/api/stream/event", 0, 2)
	id, botEvents := e.startGame() // works despite the malformed lines
	if id == "" || botEvents.Stats().Malformed != 1 || botEvents.Stats().Reconnects != 0 {
		t.Fatalf("stats %+v", botEvents.Stats())
	}
	if !strings.Contains(e.logs.String(), "skipping malformed line") {
		t.Fatal("malformed line not logged")
	}
}

// Fault: a 429 locks the client out for 60 s, measured on a manual clock:
// no request at all reaches the sandbox until the clock has moved 60 s.
func TestE2ERateLimitLockout(t *testing.T) {
	clk := lichess.NewManualClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	e := newE2E(t, func(o *lichess.Options) { o.Clock = clk })
	e.srv.Faults().RateLimit("/api/account", 1, 0, 0)
	_, err := e.bot.Account(e.ctx)
	var apiErr *lichess.APIError
	if !errors.Is(err, lichess.ErrRateLimited) || !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Minute {
		t.Fatalf("err = %v", err)
	}
	served := len(e.srv.Requests())
	done := make(chan error, 2)
	go func() { _, err := e.bot.Account(e.ctx); done <- err }()
	go func() { _, err := e.bot.OngoingGames(e.ctx, 0); done <- err }()
	// Both requests wait out the lockout on the clock: neither can be sent
	// until a timer fires, and a timer due within 59 s fires (and leaves
	// the pending list) inside Advance.
	waitFor(t, "requests waiting on the clock", func() bool { return clk.Pending() == 2 })
	clk.Advance(30 * time.Second)
	clk.Advance(29 * time.Second)
	if p := clk.Pending(); p != 2 {
		t.Fatalf("59 s into the lockout: %d timers pending, want the 2 requests'", p)
	}
	if n := len(e.srv.Requests()); n != served {
		t.Fatalf("%d requests reached the sandbox during the lockout", n-served)
	}
	clk.Advance(time.Second)
	for i := 0; i < 2; i++ {
		e.must(<-done)
	}
	if n := len(e.srv.Requests()); n != served+2 {
		t.Fatalf("%d requests after the lockout, want 2", n-served)
	}

	// A 429 with ratelimit.seconds longer than a minute locks out longer.
	e.srv.Faults().RateLimit("/api/account", 1, 90, 0)
	before := clk.Now()
	_, err = e.bot.Account(e.ctx)
	if !errors.Is(err, lichess.ErrRateLimited) || e.bot.LockedUntil().Sub(before) != 90*time.Second {
		t.Fatalf("err %v, lockout %v", err, e.bot.LockedUntil().Sub(before))
	}
}

// Fault: 5xx answers are retried for idempotent requests; a move that got
// a 5xx is reported as "unknown outcome" and not resent, and the game state
// tells the caller what happened.
func TestE2EServerErrors(t *testing.T) {
	e := newE2E(t)
	e.srv.Faults().ServerError("/api/account", 503, 2)
	served := len(e.srv.Requests())
	_, err := e.bot.Account(e.ctx)
	e.must(err)
	if n := len(e.srv.Requests()) - served; n != 3 {
		t.Fatalf("%d requests, want 3 (two 503s, then success)", n)
	}

	id, _ := e.startGame()
	e.srv.Faults().ServerError("/api/board/game/"+id+"/move/", 502, 1)
	served = len(e.srv.Requests())
	err = e.alice.Board().Move(e.ctx, id, "e2e4", false)
	if !errors.Is(err, lichess.ErrUnknownOutcome) {
		t.Fatalf("err = %v", err)
	}
	if n := len(e.srv.Requests()) - served; n != 1 {
		t.Fatalf("move sent %d times", n)
	}
	// The caller checks the game state before resending.
	s, err := e.alice.Board().StreamGame(e.ctx, id)
	e.must(err)
	defer s.Close()
	if full := next[*lichess.GameFull](t, s); full.State.Ply() != 0 {
		t.Fatalf("the refused move was applied: %+v", full.State)
	}
	e.must(e.alice.Board().Move(e.ctx, id, "e2e4", false))
	if st := next[*lichess.GameState](t, s); st.Moves != "e2e4" {
		t.Fatalf("state %+v", st)
	}
}

// The opponent leaves: the bot's stream reports opponentGone with a
// countdown, and once it has run out the bot claims: a draw, since this is
// a challenge game, which lila never lets a claim win (Game.forceResignable
// excludes friend games; forceDrawable does not).
// skipClock is the wall clock plus the time a test skipped forward.
type skipClock struct{ skipped atomic.Int64 }

func (c *skipClock) Now() time.Time       { return time.Now().Add(time.Duration(c.skipped.Load())) }
func (c *skipClock) skip(d time.Duration) { c.skipped.Add(int64(d)) }

func TestE2EOpponentGoneClaim(t *testing.T) {
	// The 30 s claim countdown runs on an injected clock the test moves
	// past it: the early claim cannot land after the countdown on a slow
	// machine (30 s, not more: the skip also runs Alice's 60 s clock).
	clk := &skipClock{}
	e := newE2EWith(t, sandbox.Config{GoneAfter: 200 * time.Millisecond, ClaimWinAfter: 30 * time.Second, Now: clk.Now})
	id, _ := e.startGame()
	aliceGame, err := e.alice.Board().StreamGame(e.ctx, id)
	e.must(err)
	next[*lichess.GameFull](t, aliceGame)
	e.must(e.alice.Board().Move(e.ctx, id, "e2e4", false))
	botGame, err := e.bot.Bot().StreamGame(e.ctx, id)
	e.must(err)
	defer botGame.Close()
	next[*lichess.GameFull](t, botGame)
	e.must(e.bot.Bot().Move(e.ctx, id, "c7c5", false))
	aliceGame.Close() // alice leaves
	var gone *lichess.OpponentGone
	for gone == nil || !gone.Gone || gone.ClaimWinInSeconds == nil {
		gone = next[*lichess.OpponentGone](t, botGame)
	}
	// Too early: Lichess refuses.
	if err := e.bot.Bot().ClaimVictory(e.ctx, id); !errors.Is(err, lichess.ErrBadRequest) {
		t.Fatalf("early claim: %v", err)
	}
	clk.skip(30 * time.Second)
	if err := e.bot.Bot().ClaimVictory(e.ctx, id); !errors.Is(err, lichess.ErrBadRequest) {
		t.Fatalf("win claimed in a challenge game: %v", err)
	}
	e.must(e.bot.Bot().ClaimDraw(e.ctx, id))
	var last *lichess.GameState
	for ev := range botGame.Events() {
		if s, ok := ev.(*lichess.GameState); ok {
			last = s
		}
	}
	if last == nil || last.Status != lichess.StatusDraw || last.Winner != "" || botGame.Err() != nil {
		t.Fatalf("after the claim: %+v, err %v", last, botGame.Err())
	}
}

// Abort before both sides moved ends the game as aborted.
func TestE2EAbort(t *testing.T) {
	e := newE2E(t)
	id, _ := e.startGame()
	s, err := e.bot.Bot().StreamGame(e.ctx, id)
	e.must(err)
	next[*lichess.GameFull](t, s)
	e.must(e.bot.Bot().Abort(e.ctx, id))
	var last *lichess.GameState
	for ev := range s.Events() {
		if st, ok := ev.(*lichess.GameState); ok {
			last = st
		}
	}
	if last == nil || last.Status != lichess.StatusAborted || s.Err() != nil {
		t.Fatalf("after abort: %+v, err %v", last, s.Err())
	}
	g, ok := e.srv.Game(id)
	if !ok || g.Status != "aborted" {
		t.Fatalf("sandbox says %+v", g)
	}
}

// Game export with an attached server analysis, the analysed-games filter,
// and cloud evaluations.
func TestE2EAnalysisExportAndCloudEval(t *testing.T) {
	e := newE2E(t)
	id, _ := e.startGame()
	e.must(e.alice.Board().Move(e.ctx, id, "e2e4", false))
	e.must(e.bot.Bot().Move(e.ctx, id, "e7e5", false))
	e.must(e.bot.Bot().Resign(e.ctx, id))
	waitFor(t, "game over", func() bool { g, _ := e.srv.Game(id); return g.Over() })
	ip := func(v int) *int { return &v }
	err := e.srv.AttachAnalysis(id, sandbox.Analysis{
		Moves: []sandbox.MoveAnalysis{{Eval: ip(30)}, {Eval: ip(250), Best: "c7c5", Variation: "c5 Nf3",
			Judgment: &sandbox.Judgment{Name: "Mistake", Comment: "Mistake. c5 was best."}}},
		White: sandbox.PlayerAnalysis{ACPL: 5, Accuracy: ip(97)},
		Black: sandbox.PlayerAnalysis{Mistake: 1, ACPL: 110, Accuracy: ip(61)},
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.bot.ExportGame(e.ctx, id, lichess.ExportOptions{Evals: true, Accuracy: true, Clocks: true, Opening: true})
	e.must(err)
	if len(g.Analysis) != 2 || *g.Analysis[0].Eval != 30 || g.Analysis[1].Judgment == nil || g.Analysis[1].Judgment.Name != "Mistake" ||
		g.Analysis[1].Best != "c7c5" || g.Players.Black.Analysis == nil || g.Players.Black.Analysis.ACPL != 110 ||
		g.Players.Black.Analysis.Accuracy == nil || *g.Players.Black.Analysis.Accuracy != 61 {
		t.Fatalf("analysis %+v / %+v", g.Analysis, g.Players.Black.Analysis)
	}
	pgn, err := e.bot.ExportGamePGN(e.ctx, id, lichess.ExportOptions{Evals: true, Literate: true})
	e.must(err)
	if !strings.Contains(pgn, "[%eval 0.3]") || !strings.Contains(pgn, "Mistake") {
		t.Fatalf("pgn:\n%s", pgn)
	}
	yes := true
	var n int
	for g, err := range e.alice.UserGames(e.ctx, "alice", lichess.UserGamesParams{Analysed: &yes, ExportOptions: lichess.ExportOptions{Evals: true}}) {
		e.must(err)
		if len(g.Analysis) != 2 {
			t.Fatalf("user games analysis %+v", g.Analysis)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d analysed games", n)
	}

	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	if err := e.srv.AttachCloudEval(fen, sandbox.CloudEval{Depth: 30, Knodes: 1000, PVs: []sandbox.CloudPV{
		{CP: ip(25), Moves: "c7c5 g1f3"}, {Mate: ip(-7), Moves: "e7e5"}}}); err != nil {
		t.Fatal(err)
	}
	ce, err := e.alice.CloudEval(e.ctx, fen, 2, "")
	e.must(err)
	if ce.Depth != 30 || len(ce.PVs) != 2 || *ce.PVs[0].CP != 25 || ce.PVs[1].Mate == nil || *ce.PVs[1].Mate != -7 {
		t.Fatalf("cloud eval %+v", ce)
	}
	if _, err := e.alice.CloudEval(e.ctx, "8/8/8/8/8/8/8/K1k5 w - - 0 1", 1, ""); !errors.Is(err, lichess.ErrNotFound) {
		t.Fatalf("unknown position: %v", err)
	}
}
