package chatonce

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// memFlags is an in-memory Flags.
type memFlags struct {
	mu sync.Mutex
	m  map[string]string
}

func newFlags() *memFlags { return &memFlags{m: map[string]string{}} }

func (f *memFlags) CacheGet(_ context.Context, kind, key string) ([]byte, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[kind+"/"+key]
	return []byte(v), ok, nil
}

func (f *memFlags) CachePut(_ context.Context, kind, key string, v []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[kind+"/"+key] = string(v)
	return nil
}

// noWait retries at once: the tests control time through the fakes.
func noWait(ctx context.Context, _ int) error { return ctx.Err() }

// fakeServer is a chat that fails as told. Each Chat call pops the next
// behaviour: "ok", "lost" (applied, answer lost), "502" (not applied, the
// client reports an unknown outcome), "404", "429".
type fakeServer struct {
	mu       sync.Mutex
	chat     []string
	script   []string
	readFail int // ChatHistory calls to fail with a 5xx before answering
	reads    int
	posts    int
}

func (s *fakeServer) Chat(_ context.Context, _ string, _ lichess.ChatRoom, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posts++
	what := "ok"
	if len(s.script) > 0 {
		what, s.script = s.script[0], s.script[1:]
	}
	switch what {
	case "lost":
		s.chat = append(s.chat, text)
		return fmt.Errorf("chat: %w: timeout", lichess.ErrUnknownOutcome)
	case "502":
		return fmt.Errorf("chat: %w: 502", lichess.ErrUnknownOutcome)
	case "404":
		return fmt.Errorf("lichess: %w", &lichess.APIError{Status: 404, Message: "Not found"})
	case "429":
		return fmt.Errorf("chat: %w", lichess.ErrRateLimited)
	}
	s.chat = append(s.chat, text)
	return nil
}

func (s *fakeServer) ChatHistory(context.Context, string) ([]lichess.ChatMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if s.readFail > 0 {
		s.readFail--
		return nil, fmt.Errorf("history: %w", lichess.ErrServer)
	}
	var out []lichess.ChatMessage
	for _, t := range s.chat {
		out = append(out, lichess.ChatMessage{User: "Bot1", Text: t})
	}
	return out, nil
}

func TestPostExactlyOnce(t *testing.T) {
	tests := []struct {
		name      string
		script    []string
		readFail  int
		preset    string // flag before the call ("sending": a crash mid-post)
		inChat    bool   // the line is already in the chat
		wantErr   error
		wantChat  int
		wantPosts int
	}{
		{name: "first time", wantChat: 1, wantPosts: 1},
		{name: "one 502 is retried", script: []string{"502"}, wantChat: 1, wantPosts: 2},
		{name: "502s then ok", script: []string{"502", "502", "502"}, wantChat: 1, wantPosts: 4},
		{name: "429 then ok", script: []string{"429"}, wantChat: 1, wantPosts: 2},
		{name: "answer lost: read back, not posted again", script: []string{"lost"}, wantChat: 1, wantPosts: 1},
		{name: "answer lost while the server is down: read only once it answers", script: []string{"lost"}, readFail: 3, wantChat: 1, wantPosts: 1},
		{name: "404: gave up, not marked sent", script: []string{"404"}, wantErr: ErrGaveUp, wantChat: 0, wantPosts: 1},
		{name: "crash after the post", preset: flagSending, inChat: true, wantChat: 1, wantPosts: 0},
		{name: "crash before the post", preset: flagSending, wantChat: 1, wantPosts: 1},
		{name: "already sent", preset: flagSent, inChat: true, wantChat: 1, wantPosts: 0},
		{name: "every attempt fails", script: []string{"502", "502", "502", "502", "502", "502"}, wantErr: lichess.ErrUnknownOutcome, wantChat: 0, wantPosts: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &fakeServer{script: tt.script, readFail: tt.readFail}
			if tt.inChat {
				srv.chat = []string{"GG"}
			}
			flags := newFlags()
			if tt.preset != "" {
				_ = flags.CachePut(context.Background(), Kind, "g:greet", []byte(tt.preset))
			}
			p := &Poster{API: srv, Read: srv, Flags: flags, Me: "bot1", Wait: noWait}
			err := p.Post(context.Background(), "g", "g:greet", lichess.RoomPlayer, "GG")
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) && !(tt.wantErr == ErrGaveUp && err != nil) {
				t.Fatalf("err %v, want %v", err, tt.wantErr)
			}
			if len(srv.chat) != tt.wantChat || srv.posts != tt.wantPosts {
				t.Errorf("chat %q after %d posts, want %d lines after %d posts", srv.chat, srv.posts, tt.wantChat, tt.wantPosts)
			}
			flag, _, _ := flags.CacheGet(context.Background(), Kind, "g:greet")
			if (string(flag) == flagSent) != (tt.wantErr == nil) {
				t.Errorf("flag %q with error %v", flag, err)
			}
			// a second call never posts again once sent or given up
			before := srv.posts
			err2 := p.Post(context.Background(), "g", "g:greet", lichess.RoomPlayer, "GG")
			if tt.wantErr == nil && (err2 != nil || srv.posts != before) {
				t.Errorf("second call: %v, %d posts", err2, srv.posts-before)
			}
			if errors.Is(tt.wantErr, ErrGaveUp) && (!errors.Is(err2, ErrGaveUp) || srv.posts != before) {
				t.Errorf("second call after giving up: %v, %d posts", err2, srv.posts-before)
			}
		})
	}
}

// stallServer stops answering at the first chat POST (a server that
// stalls for 45 s at the end of a game): the client sees a timeout, every
// read fails, and the held line is applied only when the test releases the
// stall, before the server answers anything else.
type stallServer struct {
	fakeServer
	stalled  bool
	released bool
	held     string
}

func (s *stallServer) Chat(ctx context.Context, id string, room lichess.ChatRoom, text string) error {
	s.mu.Lock()
	if !s.stalled {
		s.stalled, s.held = true, text
		s.mu.Unlock()
		return fmt.Errorf("chat: %w: request timeout", lichess.ErrUnknownOutcome)
	}
	s.mu.Unlock()
	return s.fakeServer.Chat(ctx, id, room, text)
}

// release ends the stall: the held line lands.
func (s *stallServer) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.released = true
	s.chat = append(s.chat, s.held)
}

func (s *stallServer) ChatHistory(ctx context.Context, id string) ([]lichess.ChatMessage, error) {
	s.mu.Lock()
	released := s.released
	s.mu.Unlock()
	if !released {
		return nil, fmt.Errorf("history: %w: timeout", lichess.ErrServer)
	}
	return s.fakeServer.ChatHistory(ctx, id)
}

// Regression (issue 18): a 45 s stall at the game's end had the first
// summary line posted twice. The unknown outcome is resolved only once the
// server answers again; the stall is released by the test, not waited for.
func TestStallAtGameEndPostsOnce(t *testing.T) {
	srv := &stallServer{}
	waits := 0
	p := &Poster{API: srv, Read: srv, Flags: newFlags(), Me: "bot1", Wait: func(ctx context.Context, attempt int) error {
		waits++
		if waits == 3 { // the stall ends while we are retrying
			srv.release()
		}
		return ctx.Err()
	}}
	if err := p.Post(context.Background(), "g", "g:sum:0", lichess.RoomPlayer, "Accuracy 91%"); err != nil {
		t.Fatal(err)
	}
	if len(srv.chat) != 1 || srv.posts != 0 {
		t.Errorf("chat %q after %d more posts, want the line once and no second post", srv.chat, srv.posts)
	}
}

// TestSandboxFaults runs the poster against the sandbox over loopback HTTP
// with its fault injection: 502s on chat, and a restarted server that no
// longer knows the game.
func TestSandboxFaults(t *testing.T) {
	ctx := context.Background()
	srv := sandbox.New(sandbox.Config{Accounts: []sandbox.Account{{Name: "Bot1", Token: "bot-token-1", Bot: true}, {Name: "Alice", Token: "alice-token-1"}}})
	lctx, cancel := context.WithCancel(ctx)
	t.Cleanup(func() { cancel(); srv.Close() })
	url, err := srv.Listen(lctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mk := func(tok string) *lichess.Client {
		c, err := lichess.New(lichess.Options{BaseURL: url, Token: lichess.Token(tok), ReconnectMin: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	bot, alice := mk("bot-token-1"), mk("alice-token-1")
	ch, err := alice.CreateChallenge(ctx, "bot1", lichess.ChallengeParams{Days: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := bot.AcceptChallenge(ctx, ch.ID, ""); err != nil {
		t.Fatal(err)
	}
	flags := newFlags()
	p := &Poster{API: bot.Bot(), Read: bot.Bot(), Flags: flags, Me: "bot1", Wait: noWait}
	srv.Faults().ServerError("/api/bot/game/"+ch.ID+"/chat", 502, 2)
	lines := []string{"Good game!", "Accuracy: you 80%, me 95%"}
	for i, l := range lines {
		if err := p.Post(ctx, ch.ID, fmt.Sprintf("%s:%d", ch.ID, i), lichess.RoomPlayer, l); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if got := srv.Chat(ch.ID); len(got) != 2 || got[0].Text != lines[0] || got[1].Text != lines[1] {
		t.Errorf("chat after 502s: %+v", got)
	}
	if n := srv.Faults().Fired(sandbox.FaultServerError); n != 2 {
		t.Errorf("%d 502s fired, want 2", n)
	}
	// a restarted server that does not know the game: refused for good
	err = p.Post(ctx, "zzzzzzzz", "zzzzzzzz:0", lichess.RoomPlayer, "hello")
	var api *lichess.APIError
	if !errors.As(err, &api) || api.Status != 404 {
		t.Fatalf("unknown game: %v, want the 404", err)
	}
	if err := p.Post(ctx, "zzzzzzzz", "zzzzzzzz:0", lichess.RoomPlayer, "hello"); !errors.Is(err, ErrGaveUp) {
		t.Errorf("second try on a refused line: %v, want ErrGaveUp", err)
	}
}

func (f *memFlags) CacheKeysWithValue(_ context.Context, kind string, v []byte) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var keys []string
	for k, val := range f.m {
		if key, ok := strings.CutPrefix(k, kind+"/"); ok && val == string(v) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// TestResumeFinishesLinesLeftSending: a line whose Post ended with its
// outcome unknown (the process went down during a held answer) is left
// "sending"; Resume, with nothing but the flag store, resolves it: a line
// that reached the chat is marked sent without a second post, one that
// did not is posted once; a line keep refuses, a sent one and one given up
// on are not touched; a line queued and never begun is posted. Without Resume such a goodbye stayed "sending" for
// ever.
func TestResumeFinishesLinesLeftSending(t *testing.T) {
	ctx := context.Background()
	flags := newFlags()
	srv := &fakeServer{script: []string{"lost", "502", "502", "502", "502", "502", "502", "502", "502", "502", "502", "502", "502", "404"}}
	down, cancel := context.WithCancel(ctx)
	p := &Poster{API: srv, Read: srv, Flags: flags, Me: "bot1", Wait: func(ctx context.Context, _ int) error {
		cancel() // the daemon goes down during the first retry wait
		return ctx.Err()
	}}
	// "lost": applied, answer lost; the process is down before the read back
	if err := p.Post(down, "g1", "g1:goodbye:player", lichess.RoomPlayer, "bye"); err == nil {
		t.Fatal("want the post interrupted")
	}
	// twelve 502s: never applied, left sending (two Post calls of 6)
	p.Wait = noWait
	for range 2 {
		if err := p.Post(ctx, "g2", "g2:goodbye:player", lichess.RoomPlayer, "ciao"); err == nil {
			t.Fatal("want the 502s to fail the post")
		}
	}
	if err := p.Post(ctx, "g3", "g3:greeting:player", lichess.RoomPlayer, "hi"); !errors.Is(err, ErrGaveUp) && err == nil {
		t.Fatalf("404: %v", err)
	}
	if err := flags.CachePut(ctx, Kind, "g4:summary:player:0", []byte(flagSending)); err != nil {
		t.Fatal(err)
	}
	_ = flags.CachePut(ctx, TextKind, "g4:summary:player:0", []byte(`{"game":"g4","room":"player","text":"summary"}`))
	// queued, never begun (the spectator goodbye after the held one)
	if err := p.Queue(ctx, "g1", "g1:goodbye:spectator", lichess.RoomSpectator, "bye all"); err != nil {
		t.Fatal(err)
	}
	before := srv.posts
	p2 := &Poster{API: srv, Read: srv, Flags: newFlagsFrom(flags), Me: "bot1", Wait: noWait}
	n, err := p2.Resume(ctx, func(key string) bool { return !strings.Contains(key, ":summary:") })
	if err != nil || n != 3 {
		t.Fatalf("Resume: %d lines, %v; want 3, nil", n, err)
	}
	if got := srv.posts - before; got != 2 {
		t.Errorf("Resume posted %d times, want 2 (ciao and bye all; bye was in the chat)", got)
	}
	count := map[string]int{}
	for _, l := range srv.chat {
		count[l]++
	}
	if count["bye"] != 1 || count["ciao"] != 1 || count["hi"] != 0 || count["bye all"] != 1 || count["summary"] != 0 {
		t.Errorf("chat %v", srv.chat)
	}
	for key, want := range map[string]string{"g1:goodbye:player": flagSent, "g2:goodbye:player": flagSent, "g1:goodbye:spectator": flagSent, "g3:greeting:player": flagGaveUp, "g4:summary:player:0": flagSending} {
		if v, _, _ := p2.Flags.CacheGet(ctx, Kind, key); string(v) != want {
			t.Errorf("flag of %s: %q, want %q", key, v, want)
		}
	}
}

// newFlagsFrom copies a flag store (a new process reading the same database).
func newFlagsFrom(f *memFlags) *memFlags {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := newFlags()
	maps.Copy(g.m, f.m)
	return g
}
