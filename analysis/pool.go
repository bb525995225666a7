package analysis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// DefaultEngineCommand is the UCI engine run when none is configured: the
// engine name sf15, Stockfish 15.1 (the native build made by setup, else
// Debian's: see package enginepath). Each call returns a new slice.
func DefaultEngineCommand() []string { return []string{enginepath.Stockfish15} }

// ComparisonEngine is the default engine of analyses compared with
// Lichess's (outpost analyse, outpost compare, scheduled [compare] runs):
// Stockfish 15.1, measured closer to Lichess's analysis of the shared games
// than Stockfish 19 (docs/analysis.md).
func ComparisonEngine() []string { return DefaultEngineCommand() }

// DefaultHashMB is the engines' hash: Stockfish's own default, which
// Lichess's fishnet keeps (a larger hash changes the search: reproducing
// fishnet's output exactly needs 16 MB).
const DefaultHashMB = 16

// slowStartTimeout bounds the UCI handshake of an engine that loads slowly
// (Stockfish 19's WebAssembly build: about 1 s alone, much more on a busy
// machine).
const slowStartTimeout = time.Minute

// slowQuitTimeout bounds quit → exit before an engine is killed: Node.js
// takes up to about a second to tear Stockfish 19 down on a busy machine.
const slowQuitTimeout = 5 * time.Second

// Searcher is one running engine driven by a pool worker; *uci.Engine
// satisfies it.
type Searcher interface {
	Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error)
	NewGame(ctx context.Context) error
	Restart(ctx context.Context) error
	Close() error
}

// EngineFactory starts the engine of one worker (numbered from 0).
type EngineFactory func(ctx context.Context, worker int) (Searcher, error)

// PoolConfig configures an engine pool.
type PoolConfig struct {
	// Command is the engine's command line (default DefaultEngineCommand);
	// an engine name ("sf15", "sf18", "sf19", "auto") is resolved by
	// enginepath.Resolve.
	Command []string
	// Workers is the number of engines (default 1).
	Workers int
	// Threads and HashMB are set on every engine (defaults 1 and
	// DefaultHashMB):
	// the hash is per worker.
	Threads int
	HashMB  int
	// Options are extra UCI options for every engine.
	Options map[string]string
	// Factory starts engines instead of Command (tests use fakes).
	Factory EngineFactory
	// Retries is how often a position is retried on a restarted engine
	// after a crash (default 2).
	Retries int
	Logger  zerolog.Logger
	// Dispatcher, when set, runs the chunks elsewhere (a cluster): the pool
	// then starts no engine of its own, and Command is passed to the remote
	// workers unresolved, so each resolves the name ("sf15") on its machine.
	Dispatcher Dispatcher
}

// Pool runs positions over a fixed set of engines, one per worker.
type Pool struct {
	cfg     PoolConfig
	spec    []string // the command as configured (names unresolved)
	engines []Searcher
	name    string
	mu      sync.Mutex
	closed  bool
}

// withDefaults is cfg with its defaults filled in.
func (cfg PoolConfig) withDefaults() PoolConfig {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Threads <= 0 {
		cfg.Threads = 1
	}
	if cfg.HashMB <= 0 {
		cfg.HashMB = DefaultHashMB
	}
	if cfg.Retries <= 0 {
		cfg.Retries = 2
	}
	if len(cfg.Command) == 0 {
		cfg.Command = DefaultEngineCommand()
	}
	return cfg
}

// NewPoolOf returns a pool over engines the caller has started (one worker
// each; cfg.Workers, Factory and Dispatcher are not used), so that a
// caller that starts its engines its own way (the daemon's summaries:
// engines restarted at the priority of the games' phase) hands them over
// once and the pool calls nothing back. cfg.Command names them until the
// first engine reports its name; the pool owns them: Close closes them.
func NewPoolOf(cfg PoolConfig, engines []Searcher) (*Pool, error) {
	if len(engines) == 0 {
		return nil, errors.New("analysis: a pool needs an engine")
	}
	cfg = cfg.withDefaults()
	cfg.Workers, cfg.Factory, cfg.Dispatcher = len(engines), nil, nil
	p := &Pool{cfg: cfg, spec: cfg.Command, engines: engines}
	p.setName()
	return p, nil
}

// setName names the pool by its first engine's self-reported name, else
// by its command.
func (p *Pool) setName() {
	p.name = p.cfg.Command[0]
	if ider, ok := p.engines[0].(interface{ ID() uci.ID }); ok && ider.ID().Name != "" {
		p.name = ider.ID().Name
	}
}

// NewPool starts cfg.Workers engines. On failure the engines already
// started are closed.
func NewPool(ctx context.Context, cfg PoolConfig) (*Pool, error) {
	cfg = cfg.withDefaults()
	p := &Pool{cfg: cfg, spec: cfg.Command, name: cfg.Command[0]}
	if cfg.Dispatcher != nil {
		return p, nil
	}
	factory := cfg.Factory
	if factory == nil {
		r, err := enginepath.Resolve(cfg.Command)
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		if r.Notice != "" {
			cfg.Logger.Warn().Msg(r.Notice)
		}
		p.cfg.Command = r.Command
	}
	if factory == nil {
		factory = p.uciFactory
	}
	for i := 0; i < p.cfg.Workers; i++ {
		e, err := factory(ctx, i)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("analysis: start engine %d: %w", i, err)
		}
		p.engines = append(p.engines, e)
	}
	p.setName()
	return p, nil
}

func (p *Pool) uciFactory(ctx context.Context, worker int) (Searcher, error) {
	return startResolved(ctx, EngineSpec{Command: p.cfg.Command, Threads: p.cfg.Threads, HashMB: p.cfg.HashMB, Options: p.cfg.Options},
		p.cfg.Logger.With().Int("worker", worker).Logger())
}

// StartEngine starts one engine as a pool worker does: spec.Command is
// resolved (engine names such as "sf15"), then Threads and Hash are set
// (defaults 1 and DefaultHashMB) where the engine declares them, unless
// Options sets them. Cluster workers start their engines with it.
func StartEngine(ctx context.Context, spec EngineSpec, log zerolog.Logger) (Searcher, error) {
	if len(spec.Command) == 0 {
		spec.Command = DefaultEngineCommand()
	}
	r, err := enginepath.Resolve(spec.Command)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	if r.Notice != "" {
		log.Warn().Msg(r.Notice)
	}
	spec.Command = r.Command
	if spec.Threads <= 0 {
		spec.Threads = 1
	}
	if spec.HashMB <= 0 {
		spec.HashMB = DefaultHashMB
	}
	return startResolved(ctx, spec, log)
}

func startResolved(ctx context.Context, spec EngineSpec, log zerolog.Logger) (Searcher, error) {
	return StartResolvedEngine(ctx, spec, log, EngineTimeouts{Handshake: slowStartTimeout})
}

// EngineTimeouts bound an engine's UCI handshake and its answers to
// isready (zero: the uci package's defaults).
type EngineTimeouts struct {
	Handshake, Ready time.Duration
}

// StartResolvedEngine starts spec.Command as it is (a command line already
// resolved: no engine names, no defaults) with Threads and Hash where the
// engine declares them and spec.Options does not set them, within the
// timeouts t. StartEngine is this after resolving the name, with a
// handshake bound for slow loaders.
func StartResolvedEngine(ctx context.Context, spec EngineSpec, log zerolog.Logger, t EngineTimeouts) (Searcher, error) {
	e, err := uci.Start(ctx, uci.Config{
		Path:             spec.Command[0],
		Args:             spec.Command[1:],
		Options:          spec.Options,
		Logger:           log,
		HandshakeTimeout: t.Handshake,
		ReadyTimeout:     t.Ready,
		QuitTimeout:      slowQuitTimeout,
	})
	if err != nil {
		return nil, err
	}
	// Threads and Hash only where the engine declares them
	for name, value := range map[string]string{"Threads": strconv.Itoa(spec.Threads), "Hash": strconv.Itoa(spec.HashMB)} {
		if _, ok := e.Option(name); !ok {
			continue
		}
		if _, set := spec.Options[name]; set {
			continue
		}
		if err := e.SetOption(ctx, name, value); err != nil {
			e.Close()
			return nil, fmt.Errorf("set %s: %w", name, err)
		}
	}
	return e, nil
}

// EngineName is the engine's self-reported name (or its command).
// With a Dispatcher it is the name the remote workers' engine reported,
// once results have come in.
func (p *Pool) EngineName() string {
	if n, ok := p.cfg.Dispatcher.(interface{ EngineName() string }); ok && n.EngineName() != "" {
		return n.EngineName()
	}
	return p.name
}

// Workers returns the number of engines (with a Dispatcher: the configured
// Workers, a hint of how many chunks to keep in flight).
func (p *Pool) Workers() int {
	if p.cfg.Dispatcher != nil {
		return p.cfg.Workers
	}
	return len(p.engines)
}

// Close stops every engine.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var errs []error
	if c, ok := p.cfg.Dispatcher.(interface{ Close() }); ok {
		c.Close() // the pool owns its dispatcher's connection
	}
	for _, e := range p.engines {
		if err := e.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Job is one position to search.
type Job struct {
	Pos         uci.Position
	WhiteToMove bool
	Limits      uci.Limits
	// Skip marks a terminal position that is not searched; Fixed then holds
	// its outcome.
	Skip  bool
	Fixed Outcome
}

// Outcome is the engine's answer for one position.
type Outcome struct {
	Eval    *score.Score // White POV; nil for a checkmated position
	BestUCI string       // "" when the position has no move
	PV      []string     // UCI
	Depth   int
	Nodes   int64
}

// FishnetChunk is the number of positions of one chunk of Lichess's
// fishnet client (its Chunk::MAX_POSITIONS − 1: one slot is the overlap
// position).
const FishnetChunk = 5

// SearchOptions shape one Search call.
type SearchOptions struct {
	// ChunkSize groups consecutive jobs, counted from the last one: a
	// worker takes a whole chunk, clears the hash (ucinewgame) and searches
	// it backwards, as Lichess's fishnet does (default FishnetChunk; 1 =
	// every position on its own).
	ChunkSize int
	// Overlap first searches the position after the chunk's last one (the
	// previous chunk's first) and discards the result, so the chunk starts
	// with a warm hash, as fishnet does.
	Overlap bool
	// Progress is called after each position with the count done so far;
	// calls are serialised.
	Progress func(done, total int)
}

// Chunk is one unit of work: consecutive jobs that one engine searches
// backwards (last job first) after clearing its hash, as Lichess's fishnet
// does. It is the same unit whether a local worker or a cluster worker
// (analysis/cluster) runs it, so both give identical outcomes.
type Chunk struct {
	// Jobs are in game order; they are searched from the last to the first.
	Jobs []Job
	// Warmup, when set, is searched first and its result discarded, so the
	// chunk starts with a warm hash (fishnet's overlap position).
	Warmup *Job
}

// EngineSpec names the engine and settings a chunk must run with: what a
// remote worker needs to start the same engine as the local pool.
type EngineSpec struct {
	// Command is the engine's command line or name ("sf15", "sf19", a path).
	Command []string
	Threads int
	HashMB  int
	Options map[string]string
}

// Dispatcher runs chunks outside this process, e.g. on a NATS JetStream
// cluster (analysis/cluster). RunChunks returns one outcome slice per
// chunk, each as long as its Jobs; done is called (serialised) with the
// number of positions finished whenever a chunk's result arrives.
type Dispatcher interface {
	RunChunks(ctx context.Context, spec EngineSpec, chunks []Chunk, done func(positions int)) ([][]Outcome, error)
}

// Spec returns the engine settings of the pool's engines.
func (p *Pool) Spec() EngineSpec {
	return EngineSpec{Command: p.spec, Threads: p.cfg.Threads, HashMB: p.cfg.HashMB, Options: p.cfg.Options}
}

// chunkJobs splits jobs into chunks of size counted from the last job, the
// order in which they are handed out.
func chunkJobs(jobs []Job, size int, overlap bool) (chunks []Chunk, los []int) {
	for hi := len(jobs); hi > 0; hi -= size {
		lo := max(0, hi-size)
		c := Chunk{Jobs: jobs[lo:hi]}
		if overlap && hi < len(jobs) && !jobs[hi].Skip {
			c.Warmup = &jobs[hi]
		}
		chunks = append(chunks, c)
		los = append(los, lo)
	}
	return chunks, los
}

// dispatch runs the chunks through the pool's Dispatcher, copying each
// chunk's outcomes to out from its first job's index los[i].
func (p *Pool) dispatch(ctx context.Context, chunks []Chunk, los []int, out []Outcome, report func(int)) error {
	res, err := p.cfg.Dispatcher.RunChunks(ctx, p.Spec(), chunks, report)
	if err != nil {
		return fmt.Errorf("analysis: dispatch %d chunks: %w", len(chunks), err)
	}
	if len(res) != len(chunks) {
		return fmt.Errorf("analysis: dispatcher returned %d results for %d chunks", len(res), len(chunks))
	}
	for i, r := range res {
		if len(r) != len(chunks[i].Jobs) {
			return fmt.Errorf("analysis: chunk %d: %d outcomes for %d positions", i, len(r), len(chunks[i].Jobs))
		}
		copy(out[los[i]:], r)
	}
	return nil
}

// Search runs the jobs over the workers (or the pool's Dispatcher) and
// returns one outcome per job.
func (p *Pool) Search(ctx context.Context, jobs []Job, opt SearchOptions) ([]Outcome, error) {
	if opt.ChunkSize <= 0 {
		opt.ChunkSize = FishnetChunk
	}
	out := make([]Outcome, len(jobs))
	chunks, los := chunkJobs(jobs, opt.ChunkSize, opt.Overlap)
	var (
		mu   sync.Mutex
		done int
	)
	// progress callbacks are serialised (called under mu), in order
	report := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		if opt.Progress != nil {
			opt.Progress(done, len(jobs))
		}
	}
	if p.cfg.Dispatcher != nil {
		if err := p.dispatch(ctx, chunks, los, out, report); err != nil {
			return nil, err
		}
		return out, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int)
	var (
		wg       sync.WaitGroup
		firstErr error
	)
	for w, eng := range p.engines {
		wg.Add(1)
		go func(w int, eng Searcher) {
			defer wg.Done()
			for i := range work {
				res, err := RunChunk(ctx, eng, chunks[i], p.cfg.Retries, p.cfg.Logger, func() { report(1) })
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("analysis: worker %d: %w", w, err)
					}
					mu.Unlock()
					cancel()
					// drain so the feeder does not block
					for range work {
					}
					return
				}
				copy(out[los[i]:], res)
			}
		}(w, eng)
	}
feed:
	for i := range chunks {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// RunChunk searches one chunk on eng: ucinewgame, the warm-up position if
// any, then the jobs from the last to the first. A crashed or timed-out
// engine is restarted and the position retried up to retries times. report
// is called after each job. Local pools and cluster workers both run
// chunks through it.
func RunChunk(ctx context.Context, eng Searcher, c Chunk, retries int, log zerolog.Logger, report func()) ([]Outcome, error) {
	out := make([]Outcome, len(c.Jobs))
	fresh := false
	search := func(j Job) (*uci.Result, error) {
		if !fresh {
			if err := withRetry(ctx, eng, retries, log, "new game", func() error { return eng.NewGame(ctx) }); err != nil {
				return nil, err
			}
			fresh = true
		}
		var res *uci.Result
		err := withRetry(ctx, eng, retries, log, "position "+j.Pos.FEN, func() error {
			r, err := eng.Analyse(ctx, j.Pos, j.Limits)
			res = r
			return err
		})
		if err != nil && !errors.Is(err, uci.ErrNoMove) {
			return nil, fmt.Errorf("search %s moves %v: %w", posName(j.Pos), j.Pos.Moves, err)
		}
		return res, nil
	}
	if c.Warmup != nil {
		// warm-up only: the position is another chunk's
		if _, err := search(*c.Warmup); err != nil {
			return nil, err
		}
	}
	for i := len(c.Jobs) - 1; i >= 0; i-- {
		j := c.Jobs[i]
		if j.Skip {
			out[i] = j.Fixed
		} else {
			res, err := search(j)
			if err != nil {
				return nil, err
			}
			out[i] = toOutcome(res, j.WhiteToMove)
		}
		if report != nil {
			report()
		}
	}
	return out, nil
}

// withRetry runs f, restarting the engine and retrying after a crash or
// timeout.
func withRetry(ctx context.Context, eng Searcher, retries int, log zerolog.Logger, what string, f func() error) error {
	var err error
	for attempt := 0; attempt <= retries; attempt++ {
		err = f()
		if err == nil || !(errors.Is(err, uci.ErrCrashed) || errors.Is(err, uci.ErrTimeout)) || ctx.Err() != nil {
			return err
		}
		if attempt == retries {
			break
		}
		log.Warn().Err(err).Str("what", what).Int("attempt", attempt+1).Msg("engine failed; restarting")
		if rerr := eng.Restart(ctx); rerr != nil {
			return fmt.Errorf("%w (restart failed: %v)", err, rerr)
		}
		if nerr := eng.NewGame(ctx); nerr != nil && !errors.Is(nerr, uci.ErrCrashed) {
			return nerr
		}
	}
	return err
}

func posName(p uci.Position) string {
	if p.FEN == "" {
		return "startpos"
	}
	return strconv.Quote(p.FEN)
}

// toOutcome normalises the engine's side-to-move score to White's POV. A
// checkmated side to move ("mate 0", uci.Info.Mated) gets no eval, as on
// Lichess.
func toOutcome(res *uci.Result, whiteToMove bool) Outcome {
	var o Outcome
	if res == nil {
		return o
	}
	o.BestUCI = res.BestMove
	o.Nodes = res.Nodes
	best, ok := res.Best()
	if !ok || !(best.HasScore || best.Mated) {
		return o
	}
	o.PV = best.PV
	o.Depth = best.Depth
	if !best.HasScore {
		return o
	}
	e := best.Score
	if !whiteToMove {
		e = e.Negate()
	}
	o.Eval = &e
	return o
}

// SearchChunk runs one chunk as it is (RunChunk: ucinewgame, its warm-up
// search, its jobs backwards) on the pool's first engine, or through the
// pool's Dispatcher, and returns one outcome per job.
func (p *Pool) SearchChunk(ctx context.Context, c Chunk) ([]Outcome, error) {
	if p.cfg.Dispatcher != nil {
		res, err := p.cfg.Dispatcher.RunChunks(ctx, p.Spec(), []Chunk{c}, func(int) {})
		if err != nil {
			return nil, fmt.Errorf("analysis: dispatch a chunk: %w", err)
		}
		if len(res) != 1 || len(res[0]) != len(c.Jobs) {
			return nil, fmt.Errorf("analysis: dispatcher returned %d results for one chunk", len(res))
		}
		return res[0], nil
	}
	if len(p.engines) == 0 {
		return nil, errors.New("analysis: the pool has no engine")
	}
	return RunChunk(ctx, p.engines[0], c, p.cfg.Retries, p.cfg.Logger, nil)
}
