package sandbox

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultKind names one kind of injected fault.
type FaultKind string

// The fault kinds. Request faults (RateLimit, ServerError, Latency) act on
// a request before it is handled, Hold on its answer after it is handled;
// stream faults (Drop, Stall, Malformed) act on the lines of ndjson streams.
const (
	// FaultDrop closes a stream after After lines, or before any line with
	// probability Prob.
	FaultDrop FaultKind = "drop"
	// FaultStall stops a stream after After lines: no more lines and no
	// keep-alive, the connection stays open.
	FaultStall FaultKind = "stall"
	// FaultMalformed injects a malformed ndjson line after After lines, or
	// before any line with probability Prob.
	FaultMalformed FaultKind = "malformed"
	// FaultRateLimit answers 429, with a {"ratelimit":…} body when
	// RateLimitBody is set, and a Retry-After header when RetryAfter > 0.
	FaultRateLimit FaultKind = "429"
	// FaultServerError answers Status (default 500).
	FaultServerError FaultKind = "5xx"
	// FaultLatency delays the answer by Delay.
	FaultLatency FaultKind = "latency"
	// FaultHold is a server that stalls: each request it catches is
	// handled (a chat line is written, a move is played) but its answer is
	// withheld until the rule is released (Faults.Release, Remove, Clear,
	// or Delay after the stall began); requests after the release are
	// answered at once again. A client that gives up meanwhile never gets
	// the answer: it cannot tell whether the request was applied. With
	// AtGameEnd the stall begins when a game ends (the server stalling at
	// the end of a game); otherwise at the first request it catches.
	// Streams already open are not affected (stall acts on those).
	FaultHold FaultKind = "hold"
	// FaultInitialFEN is a server that sends a position it never checked:
	// each gameFull line served on a matching path carries FEN as its
	// initialFen, whatever the game's start (lila validates every position
	// it creates a game from; this stands for a bug or a forged server, to
	// test that a client checks what it is sent).
	FaultInitialFEN FaultKind = "initial-fen"
)

// Fault is one fault rule. A rule fires on requests (or stream lines) whose
// path starts with Path; it fires Times times and then disarms itself
// (0 = until removed). With Prob > 0 it fires at random with that
// probability instead of deterministically.
type Fault struct {
	Kind FaultKind
	// Path is a URL path prefix; "" matches every path.
	Path string
	// Method limits a request fault to one HTTP method (for example POST:
	// a game's chat lines, not the chat history read on the same path);
	// "" matches every method. Stream faults ignore it.
	Method string
	// Times is how often the rule fires before it disarms; 0 = forever.
	Times int
	// Prob makes the rule random: it fires with this probability (0..1).
	Prob float64
	// After is the number of stream lines sent before a drop, stall or
	// malformed line (stream faults, deterministic mode).
	After int
	// Status is the HTTP status of a server error (500..599).
	Status int
	// RateLimitBody adds {"ratelimit":{"key":RateLimitKey,"seconds":RateLimitSeconds}}.
	RateLimitBody bool
	// RateLimitKey is the ratelimit.key of the body (default "api.sandbox").
	RateLimitKey string
	// RateLimitSeconds is the ratelimit.seconds of the body (default 60).
	RateLimitSeconds int
	// RetryAfter sets a Retry-After header (whole seconds) when > 0.
	RetryAfter time.Duration
	// Delay is the added latency, or how long a hold lasts (0: until
	// Faults.Release).
	Delay time.Duration
	// AtGameEnd makes a hold begin at the next end of a game after the
	// rule was added; requests before it are answered normally.
	AtGameEnd bool
	// FEN is the initialFen of FaultInitialFEN.
	FEN string
}

// FaultSpecHelp documents the --fault syntax of ParseFault.
const FaultSpecHelp = `fault spec: KIND[:key=value,...]
  kinds: drop, stall, malformed (stream faults), 429, 5xx, latency, hold (request faults),
         initial-fen (gameFull lines carry fen=FEN, unchecked)
  keys:  path=PREFIX   only paths starting with PREFIX (default: all)
         method=M      request faults: only HTTP method M, e.g. POST (default: all)
         times=N       fire N times then disarm (default 0 = forever)
         prob=P        fire at random with probability P (0..1)
         after=N       stream faults: after N lines (default 0)
         status=CODE   5xx: status code (default 500)
         body=BOOL     429: add {"ratelimit":{"key":…,"seconds":N}} (default false)
         key=NAME      429: ratelimit key (default api.sandbox)
         seconds=N     429: ratelimit seconds (default 60)
         retry-after=D 429/5xx: Retry-After header, a Go duration (e.g. 30s)
         delay=D       latency: a Go duration (e.g. 250ms); hold: how long the
                       server stalls (required): requests are handled, their
                       answers withheld until then
         at-end=BOOL   hold: the stall begins when a game ends (default false:
                       at the first request it catches)
         fen=FEN       initial-fen: the position sent (required; no commas)
  examples: drop:path=/api/bot/game/stream/,after=2,times=1
            stall:path=/api/stream/event,times=1   429:times=1,body=true,seconds=90
            5xx:status=503,prob=0.2   latency:delay=200ms   malformed:after=1
            hold:at-end=true,delay=45s (the server stalls for 45 s at a game's end)
            "initial-fen:fen=4k3/8/8/8/8/8/8/4K3 w KQ - 0 1" (castling rights without rooks)`

// ParseFault parses a fault spec (see FaultSpecHelp).
func ParseFault(spec string) (Fault, error) {
	kindStr, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	f := Fault{Kind: FaultKind(strings.ToLower(kindStr))}
	switch f.Kind {
	case FaultDrop, FaultStall, FaultMalformed, FaultRateLimit, FaultServerError, FaultLatency, FaultHold, FaultInitialFEN:
	default:
		return Fault{}, fmt.Errorf("fault %q: unknown kind %q (want drop, stall, malformed, 429, 5xx, latency, hold or initial-fen)", spec, kindStr)
	}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return Fault{}, fmt.Errorf("fault %q: %q is not key=value", spec, kv)
			}
			if err := f.set(strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)); err != nil {
				return Fault{}, fmt.Errorf("fault %q: %w", spec, err)
			}
		}
	}
	if err := f.validate(); err != nil {
		return Fault{}, fmt.Errorf("fault %q: %w", spec, err)
	}
	if f.Kind == FaultHold && f.Delay == 0 {
		// only a program can release a hold without a delay
		return Fault{}, fmt.Errorf("fault %q: hold needs delay > 0 (how long the server stalls)", spec)
	}
	return f, nil
}

// set assigns one key of a fault spec.
func (f *Fault) set(k, v string) error {
	var err error
	atoi := func() int {
		var n int
		n, err = strconv.Atoi(v)
		return n
	}
	switch k {
	case "path":
		f.Path = v
	case "method":
		f.Method = strings.ToUpper(v)
	case "times":
		f.Times = atoi()
	case "prob":
		f.Prob, err = strconv.ParseFloat(v, 64)
	case "after":
		f.After = atoi()
	case "status":
		f.Status = atoi()
	case "body":
		f.RateLimitBody, err = strconv.ParseBool(v)
	case "key":
		f.RateLimitKey = v
	case "seconds":
		f.RateLimitSeconds = atoi()
	case "retry-after":
		f.RetryAfter, err = time.ParseDuration(v)
	case "delay":
		f.Delay, err = time.ParseDuration(v)
	case "at-end":
		f.AtGameEnd, err = strconv.ParseBool(v)
	case "fen":
		f.FEN = v
	default:
		return fmt.Errorf("unknown key %q", k)
	}
	if err != nil {
		return fmt.Errorf("key %s: bad value %q: %w", k, v, err)
	}
	return nil
}

// validate checks the ranges of a fault.
func (f *Fault) validate() error {
	switch {
	case f.Times < 0:
		return fmt.Errorf("times %d: must be >= 0", f.Times)
	case f.Prob < 0 || f.Prob > 1:
		return fmt.Errorf("prob %v: must be in 0..1", f.Prob)
	case f.After < 0:
		return fmt.Errorf("after %d: must be >= 0", f.After)
	case f.Method != "" && !slices.Contains([]string{"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"}, f.Method):
		return fmt.Errorf("method %q: want GET, POST, PUT, DELETE, HEAD, OPTIONS or PATCH", f.Method)
	case f.Kind == FaultServerError && f.Status != 0 && (f.Status < 500 || f.Status > 599):
		return fmt.Errorf("status %d: must be in 500..599", f.Status)
	case f.RateLimitSeconds < 0:
		return fmt.Errorf("seconds %d: must be >= 0", f.RateLimitSeconds)
	case f.Delay < 0 || f.RetryAfter < 0:
		return fmt.Errorf("durations must be >= 0")
	case f.Kind == FaultLatency && f.Delay == 0:
		return fmt.Errorf("latency needs delay > 0")
	case f.AtGameEnd && f.Kind != FaultHold:
		return fmt.Errorf("at-end applies to hold only, not %s", f.Kind)
	case (f.Kind == FaultInitialFEN) != (f.FEN != ""):
		return fmt.Errorf("fen goes with initial-fen, and initial-fen needs a fen")
	}
	return nil
}

// String renders the fault in the spec syntax ParseFault reads.
func (f Fault) String() string {
	parts := []string{}
	add := func(k, v string) { parts = append(parts, k+"="+v) }
	if f.Path != "" {
		add("path", f.Path)
	}
	if f.Method != "" {
		add("method", f.Method)
	}
	if f.Times != 0 {
		add("times", strconv.Itoa(f.Times))
	}
	if f.Prob != 0 {
		add("prob", strconv.FormatFloat(f.Prob, 'g', -1, 64))
	}
	if f.After != 0 {
		add("after", strconv.Itoa(f.After))
	}
	if f.Status != 0 {
		add("status", strconv.Itoa(f.Status))
	}
	if f.RateLimitBody {
		add("body", "true")
	}
	if f.RateLimitKey != "" {
		add("key", f.RateLimitKey)
	}
	if f.RateLimitSeconds != 0 {
		add("seconds", strconv.Itoa(f.RateLimitSeconds))
	}
	if f.RetryAfter != 0 {
		add("retry-after", f.RetryAfter.String())
	}
	if f.Delay != 0 {
		add("delay", f.Delay.String())
	}
	if f.AtGameEnd {
		add("at-end", "true")
	}
	if f.FEN != "" {
		add("fen", f.FEN)
	}
	if len(parts) == 0 {
		return string(f.Kind)
	}
	return string(f.Kind) + ":" + strings.Join(parts, ",")
}

// FaultID identifies an added fault rule.
type FaultID int

// Faults is the switchboard of injected faults. Its methods are safe for
// concurrent use; randomness comes from the server's seed.
type Faults struct {
	mu    sync.Mutex
	rng   *rand.Rand
	next  FaultID
	rules []*faultRule
	fired map[FaultKind]int
	// holds are the stalls of the hold rules, kept until released (a rule
	// that fired its Times is disarmed, its held answers still wait).
	holds map[FaultID]*stall
}

// stall is the state of one hold rule.
type stall struct {
	begun   bool          // holding: the rule caught a request, or a game ended (AtGameEnd)
	release chan struct{} // closed when the stall ends
	timer   *time.Timer   // ends it after the rule's Delay, once begun
}

// faultRule is an armed fault and how often it has fired.
type faultRule struct {
	id    FaultID
	f     Fault
	fired int
}

// newFaults returns an empty switchboard.
func newFaults(seed int64) *Faults {
	return &Faults{rng: rand.New(rand.NewSource(seed)), fired: map[FaultKind]int{}, holds: map[FaultID]*stall{}}
}

// Add arms a fault and returns its id.
func (fs *Faults) Add(f Fault) (FaultID, error) {
	if err := f.validate(); err != nil {
		return 0, fmt.Errorf("sandbox: add fault %s: %w", f, err)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.next++
	fs.rules = append(fs.rules, &faultRule{id: fs.next, f: f})
	if f.Kind == FaultHold {
		fs.holds[fs.next] = &stall{release: make(chan struct{})}
	}
	return fs.next, nil
}

// AddSpec parses a fault spec (see FaultSpecHelp) and arms it.
func (fs *Faults) AddSpec(spec string) (FaultID, error) {
	f, err := ParseFault(spec)
	if err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	return fs.Add(f)
}

// Remove disarms one fault; a hold is released (see Release).
func (fs *Faults) Remove(id FaultID) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.endStallLocked(id)
	for i, r := range fs.rules {
		if r.id == id {
			fs.rules = append(fs.rules[:i], fs.rules[i+1:]...)
			return
		}
	}
}

// Release ends the stall of a hold rule and disarms it: every answer it
// withheld goes out (to the clients still waiting for it), and the server
// answers at once again. Releasing a rule twice, or one that is not a
// hold, does nothing more than Remove.
func (fs *Faults) Release(id FaultID) { fs.Remove(id) }

// Clear disarms every fault and releases every hold.
func (fs *Faults) Clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for id := range fs.holds {
		fs.endStallLocked(id)
	}
	fs.rules = nil
}

// releaseHolds ends every stall without disarming the rules (the server
// is closing: its handlers must return).
func (fs *Faults) releaseHolds() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for id := range fs.holds {
		fs.endStallLocked(id)
	}
}

// endStallLocked releases the answers held by rule id (mu held).
func (fs *Faults) endStallLocked(id FaultID) {
	st, ok := fs.holds[id]
	if !ok {
		return
	}
	if st.timer != nil {
		st.timer.Stop()
	}
	close(st.release)
	delete(fs.holds, id)
}

// beginStallLocked starts the stall of hold rule r, and the timer that ends
// it after r's Delay (mu held).
func (fs *Faults) beginStallLocked(r *faultRule, st *stall) {
	if st.begun {
		return
	}
	st.begun = true
	if d := r.f.Delay; d > 0 {
		id := r.id
		st.timer = time.AfterFunc(d, func() { fs.Release(id) })
	}
}

// gameEnded begins the stalls of the hold rules waiting for a game's end
// (AtGameEnd). The server calls it with its own lock held; it takes only
// the switchboard's.
func (fs *Faults) gameEnded() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, r := range fs.rules {
		if st, ok := fs.holds[r.id]; ok && r.f.AtGameEnd {
			fs.beginStallLocked(r, st)
		}
	}
}

// Active returns the armed faults.
func (fs *Faults) Active() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, 0, len(fs.rules))
	for _, r := range fs.rules {
		out = append(out, r.f)
	}
	return out
}

// Fired returns how many times faults of a kind have fired so far.
func (fs *Faults) Fired(kind FaultKind) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.fired[kind]
}

// DropAfter drops streams under path after n lines, times times (0 = always).
func (fs *Faults) DropAfter(path string, n, times int) FaultID {
	return fs.must(Fault{Kind: FaultDrop, Path: path, After: n, Times: times})
}

// DropRandom drops streams under path before a line with probability p.
func (fs *Faults) DropRandom(path string, p float64) FaultID {
	return fs.must(Fault{Kind: FaultDrop, Path: path, Prob: p})
}

// Stall stalls streams under path after n lines, times times (0 = always).
func (fs *Faults) Stall(path string, n, times int) FaultID {
	return fs.must(Fault{Kind: FaultStall, Path: path, After: n, Times: times})
}

// Malformed injects a malformed line into streams under path after n lines,
// times times (0 = on every stream).
func (fs *Faults) Malformed(path string, n, times int) FaultID {
	return fs.must(Fault{Kind: FaultMalformed, Path: path, After: n, Times: times})
}

// RateLimit answers the next n requests under path with 429 (0 = all), with
// a ratelimit body of the given seconds when seconds > 0, and a Retry-After
// header when retryAfter > 0.
func (fs *Faults) RateLimit(path string, n, seconds int, retryAfter time.Duration) FaultID {
	return fs.must(Fault{Kind: FaultRateLimit, Path: path, Times: n, RateLimitBody: seconds > 0,
		RateLimitSeconds: seconds, RetryAfter: retryAfter})
}

// ServerError answers the next n requests under path with status (0 = all).
func (fs *Faults) ServerError(path string, status, n int) FaultID {
	return fs.must(Fault{Kind: FaultServerError, Path: path, Status: status, Times: n})
}

// Latency delays every request under path by d.
func (fs *Faults) Latency(path string, d time.Duration) FaultID {
	return fs.must(Fault{Kind: FaultLatency, Path: path, Delay: d})
}

// HoldAtGameEnd makes the server stall when the next game ends: every
// request of method ("" = all) under path from then on is handled but
// not answered until Release(id) (see FaultHold). Tests release it on an
// event, such as a client giving up on a held answer (a RequestRecord with
// Abandoned set, through Config.OnRequest).
func (fs *Faults) HoldAtGameEnd(path, method string) FaultID {
	return fs.must(Fault{Kind: FaultHold, Path: path, Method: strings.ToUpper(method), AtGameEnd: true})
}

// Hold makes the server stall from the next request of method ("" = all)
// under path: it and every such request after it are handled but not
// answered until Release(id) (see FaultHold).
func (fs *Faults) Hold(path, method string) FaultID {
	return fs.must(Fault{Kind: FaultHold, Path: path, Method: strings.ToUpper(method)})
}

// must adds a fault built by the helpers, whose fields are valid by
// construction except for caller-given numbers; invalid ones are clamped.
func (fs *Faults) must(f Fault) FaultID {
	if f.Times < 0 {
		f.Times = 0
	}
	if f.After < 0 {
		f.After = 0
	}
	f.Prob = min(max(f.Prob, 0), 1)
	if f.Kind == FaultServerError && (f.Status < 500 || f.Status > 599) {
		f.Status = 500
	}
	if f.Method != "" && !slices.Contains([]string{"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"}, f.Method) {
		f.Method = ""
	}
	if f.Kind == FaultLatency && f.Delay <= 0 {
		f.Delay = time.Millisecond
	}
	if f.RateLimitSeconds < 0 {
		f.RateLimitSeconds = 0
	}
	if f.RetryAfter < 0 {
		f.RetryAfter = 0
	}
	id, _ := fs.Add(f)
	return id
}

// fireLocked records that r fired and disarms it when used up (mu held).
func (fs *Faults) fireLocked(r *faultRule) {
	r.fired++
	fs.fired[r.f.Kind]++
	if r.f.Times > 0 && r.fired >= r.f.Times {
		for i, x := range fs.rules {
			if x == r {
				fs.rules = append(fs.rules[:i], fs.rules[i+1:]...)
				break
			}
		}
	}
}

// requestFault is what the request faults decide for one request.
type requestFault struct {
	delay time.Duration
	fail  *Fault          // a 429 or 5xx to answer instead of handling, or nil
	hold  <-chan struct{} // handle, then withhold the answer until closed; or nil
}

// forRequest evaluates the request faults for a request of method on path.
func (fs *Faults) forRequest(method, path string) requestFault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var out requestFault
	for _, r := range append([]*faultRule(nil), fs.rules...) {
		if !strings.HasPrefix(path, r.f.Path) || r.f.Method != "" && r.f.Method != method {
			continue
		}
		switch r.f.Kind {
		case FaultLatency:
			if fs.rollLocked(r.f.Prob) {
				out.delay += r.f.Delay
				fs.fireLocked(r)
			}
		case FaultRateLimit, FaultServerError:
			if out.fail == nil && fs.rollLocked(r.f.Prob) {
				f := r.f
				out.fail = &f
				fs.fireLocked(r)
			}
		case FaultHold:
			st, ok := fs.holds[r.id]
			if !ok || out.hold != nil || r.f.AtGameEnd && !st.begun || !fs.rollLocked(r.f.Prob) {
				continue
			}
			fs.beginStallLocked(r, st)
			out.hold = st.release
			fs.fireLocked(r)
		}
	}
	return out
}

// initialFEN returns the initialFen a FaultInitialFEN rule puts in a
// gameFull line served on path, if one fires.
func (fs *Faults) initialFEN(path string) (string, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, r := range fs.rules {
		if r.f.Kind == FaultInitialFEN && strings.HasPrefix(path, r.f.Path) && fs.rollLocked(r.f.Prob) {
			fen := r.f.FEN
			fs.fireLocked(r)
			return fen, true
		}
	}
	return "", false
}

// rollLocked reports whether a rule of probability p fires (p 0 = always).
func (fs *Faults) rollLocked(p float64) bool {
	if p <= 0 {
		return true
	}
	return fs.rng.Float64() < p
}

// lineAction is what the stream faults decide before one stream line.
type lineAction int

const (
	lineSend lineAction = iota
	lineDrop
	lineStall
)

// beforeLine evaluates the stream faults for path before the stream's
// next line (or keep-alive); sent is the number of lines already sent on
// this connection and seen the deterministic rules that already fired on it
// (each fires at most once per connection). It returns the action and
// whether to inject a malformed line first.
func (fs *Faults) beforeLine(path string, sent int, seen map[FaultID]bool) (act lineAction, malformed bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, r := range append([]*faultRule(nil), fs.rules...) {
		if !strings.HasPrefix(path, r.f.Path) {
			continue
		}
		hit := false
		switch r.f.Kind {
		case FaultDrop, FaultStall, FaultMalformed:
			if r.f.Prob > 0 {
				hit = fs.rng.Float64() < r.f.Prob
			} else {
				hit = sent >= r.f.After && !seen[r.id]
			}
		default:
			continue
		}
		if !hit {
			continue
		}
		if r.f.Prob <= 0 {
			seen[r.id] = true
		}
		switch r.f.Kind {
		case FaultMalformed:
			if !malformed {
				malformed = true
				fs.fireLocked(r)
			}
		case FaultDrop:
			if act == lineSend {
				act = lineDrop
				fs.fireLocked(r)
			}
		case FaultStall:
			if act == lineSend {
				act = lineStall
				fs.fireLocked(r)
			}
		}
	}
	return act, malformed
}
