package models

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/outpostchess/outpost/models/game"
	"github.com/outpostchess/outpost/models/maia1"
	"github.com/outpostchess/outpost/models/maia2"
)

// DefaultRating is used when a request gives no rating.
const DefaultRating = 1500

// Request is one position to predict: a game (start position and moves) and
// the players' ratings.
type Request struct {
	// StartFEN is the game's initial position; empty means the standard start.
	StartFEN string
	// Moves are the moves played from StartFEN, in UCI (e1g1 for castling;
	// in Chess960 king takes rook, e1h1, or the king's move).
	Moves []string
	// Chess960 is set for a Chess960 game: StartFEN's castling rights are
	// X-FEN or Shredder-FEN, and the predicted moves write castling as king
	// takes rook.
	Chess960 bool
	// Rating is the rating of the player to move: it picks the Maia-1 level
	// (nearest) and Maia-2's elo_self. 0 means DefaultRating.
	Rating int
	// OppRating is the opponent's rating (Maia-2's elo_oppo); 0 means Rating.
	OppRating int
	// Model forces a model: "maia-1100" … "maia-1900" or "maia2". Empty
	// means the Maia-1 level nearest Rating.
	Model string
}

// Prediction is a model's view of one position.
type Prediction struct {
	// Model is the model that answered ("maia-1500", "maia2").
	Model string
	// Moves are all legal moves with their probabilities, best first (empty
	// when the game is over).
	Moves []game.MoveProb
	// WDL is [win, draw, loss] for the side to move (Maia-1; HasWDL).
	WDL    [3]float64
	HasWDL bool
	// Win is the side to move's expected score: W + D/2 for Maia-1, the win
	// probability for Maia-2.
	Win float64
}

// Predictor runs Maia models for many callers. It is safe for concurrent use:
// concurrent requests for the same model are coalesced into batches by one
// goroutine per model. Each model's session is loaded once, on first use, and
// shared. Close stops the goroutines and releases the sessions.
type Predictor struct {
	cfg Config
	rt  *Runtime

	games *gameCache

	mu       sync.Mutex
	closed   bool
	backends map[string]*backend
}

// backend is one loaded model.
type backend struct {
	once  sync.Once
	err   error
	name  string
	maia2 bool
	b     *batcher
}

// NewPredictor returns a Predictor on cfg's runtime, checking the ONNX
// Runtime library when that is the runtime. Models are loaded lazily (or
// eagerly with Load).
func NewPredictor(cfg Config) (*Predictor, error) {
	cfg, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	var rt *Runtime // nil for the pure-Go runtime
	if cfg.Runtime == RuntimeONNX {
		if rt, err = NewRuntime(cfg); err != nil {
			return nil, err
		}
	}
	return &Predictor{cfg: cfg, rt: rt, games: newGameCache(gameCacheSize), backends: map[string]*backend{}}, nil
}

// Config returns the resolved configuration.
func (p *Predictor) Config() Config { return p.cfg }

// Load loads the named models now ("maia-1500", "maia2"), so that missing
// files are reported up front.
func (p *Predictor) Load(names ...string) error {
	for _, n := range names {
		if _, err := p.backend(n); err != nil {
			return err
		}
	}
	return nil
}

// ModelFor returns the model name that answers req.
func ModelFor(req Request) (string, error) {
	if req.Model != "" {
		if _, err := ParseModel(req.Model); err != nil {
			return "", err
		}
		return req.Model, nil
	}
	r := req.Rating
	if r == 0 {
		r = DefaultRating
	}
	return Maia1Name(NearestMaia1(r)), nil
}

func (p *Predictor) backend(name string) (*backend, error) {
	level, err := ParseModel(name)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	be, ok := p.backends[name]
	if !ok {
		be = &backend{name: name, maia2: level == 0}
		p.backends[name] = be
	}
	p.mu.Unlock()
	be.once.Do(func() { be.err = p.load(be, level) })
	if be.err != nil {
		return nil, be.err
	}
	return be, nil
}

// load loads be's model on every replica and starts its batcher.
func (p *Predictor) load(be *backend, level int) error {
	var (
		sessions  []evaluator
		ins, outs []port
		err       error
	)
	if be.maia2 {
		sessions, ins, outs, err = p.loadMaia2(be.name)
	} else {
		ins = []port{{name: maia1.InputName, shape: []int64{maia1.Planes, 8, 8}}}
		outs = []port{
			{name: maia1.PolicyName, shape: []int64{maia1.PolicySize}},
			{name: maia1.WDLName, shape: []int64{3}},
		}
		sessions, err = p.loadMaia1(be.name, level, ins, outs)
	}
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		closeAll(sessions)
		return ErrClosed
	}
	be.b = newBatcher(sessions, ins, outs, p.cfg.MaxBatch, p.cfg.MaxWait)
	return nil
}

// loadMaia1 makes the replicas of a Maia-1 level on the configured runtime.
func (p *Predictor) loadMaia1(name string, level int, ins, outs []port) ([]evaluator, error) {
	if p.cfg.Runtime == RuntimeGo {
		net, err := Maia1Net(p.cfg, level)
		if err != nil {
			return nil, err
		}
		fw, err := maia1.NewForward(net)
		if err != nil {
			return nil, fmt.Errorf("models: %s: %w", name, err)
		}
		var sessions []evaluator
		for range p.cfg.Sessions {
			sessions = append(sessions, &goEvaluator{fw: fw, threads: p.cfg.Threads})
		}
		return sessions, nil
	}
	onnx, err := Maia1ONNX(p.cfg, level)
	if err != nil {
		return nil, err
	}
	return p.sessions(name, onnx, ins, outs)
}

// loadMaia2 makes the ONNX Runtime sessions of the configured Maia-2 file,
// which only ONNX Runtime can run.
func (p *Predictor) loadMaia2(name string) ([]evaluator, []port, []port, error) {
	if p.cfg.Maia2Model == "" {
		return nil, nil, nil, fmt.Errorf("models: no Maia-2 model configured (set %s or models.maia2_model)", EnvMaia2)
	}
	if p.rt == nil {
		return nil, nil, nil, fmt.Errorf("models: Maia-2 needs ONNX Runtime (runtime %q in a cgo build); the %q runtime runs Maia-1 only", RuntimeONNX, p.cfg.Runtime)
	}
	onnx, err := os.ReadFile(p.cfg.Maia2Model)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("models: Maia-2 model: %w", err)
	}
	ins, outs, err := p.rt.maia2Ports(onnx)
	if err != nil {
		return nil, nil, nil, err
	}
	sessions, err := p.sessions(name, onnx, ins, outs)
	return sessions, ins, outs, err
}

// sessions creates cfg.Sessions ONNX Runtime sessions of one model.
func (p *Predictor) sessions(name string, onnx []byte, ins, outs []port) ([]evaluator, error) {
	names := func(ps []port) []string {
		s := make([]string, len(ps))
		for i, x := range ps {
			s[i] = x.name
		}
		return s
	}
	var sessions []evaluator
	for range p.cfg.Sessions {
		sess, err := p.rt.newSession(onnx, names(ins), names(outs))
		if err != nil {
			closeAll(sessions)
			return nil, fmt.Errorf("models: %s: %w", name, err)
		}
		sessions = append(sessions, sess)
	}
	return sessions, nil
}

// closeAll releases replicas that will not be used.
func closeAll(sessions []evaluator) {
	for _, s := range sessions {
		_ = s.close()
	}
}

// PredictOne predicts a single position.
func (p *Predictor) PredictOne(ctx context.Context, req Request) (Prediction, error) {
	out, err := p.Predict(ctx, []Request{req})
	if err != nil {
		return Prediction{}, err
	}
	return out[0], nil
}

// pending is one submitted chunk of positions for one model.
type pending struct {
	be    *backend
	j     *job
	idx   []int        // request indices of the chunk's positions
	games []*game.Game // their replayed games
}

// Predict returns a prediction for every request, in order. A request with
// a bad FEN or an illegal move fails the whole call with an error naming it.
func (p *Predictor) Predict(ctx context.Context, reqs []Request) ([]Prediction, error) {
	games := make([]*game.Game, len(reqs))
	groups := map[string][]int{}
	var order []string
	for i, r := range reqs {
		g, err := p.games.replay(r.StartFEN, r.Moves, r.Chess960)
		if err != nil {
			return nil, fmt.Errorf("models: request %d: %w", i, err)
		}
		games[i] = g
		name, err := ModelFor(r)
		if err != nil {
			return nil, fmt.Errorf("models: request %d: %w", i, err)
		}
		if _, ok := groups[name]; !ok {
			order = append(order, name)
		}
		groups[name] = append(groups[name], i)
	}
	// Each chunk is submitted as soon as it is encoded, so the session
	// works on one chunk while the next is encoded. Submitted jobs are
	// always answered, so returning early on error leaks nothing.
	var chunks []pending
	for _, name := range order {
		be, err := p.backend(name)
		if err != nil {
			return nil, err
		}
		idx := groups[name]
		for start := 0; start < len(idx); start += p.cfg.MaxBatch {
			end := min(start+p.cfg.MaxBatch, len(idx))
			c := pending{be: be, j: be.b.newJob(end - start), idx: idx[start:end]}
			for k, i := range c.idx {
				c.games = append(c.games, games[i])
				if err := encode(be, c.j, k, games[i], reqs[i]); err != nil {
					return nil, fmt.Errorf("models: request %d: %w", i, err)
				}
			}
			if err := be.b.submit(ctx, c.j); err != nil {
				return nil, err
			}
			chunks = append(chunks, c)
		}
	}
	out := make([]Prediction, len(reqs))
	for _, c := range chunks {
		if err := c.be.b.wait(ctx, c.j); err != nil {
			return nil, err
		}
		for k, i := range c.idx {
			pr, err := decode(c.be, c.j, k, c.games[k])
			if err != nil {
				return nil, fmt.Errorf("models: request %d: %w", i, err)
			}
			out[i] = pr
		}
	}
	return out, nil
}

// encode fills position k of job j.
func encode(be *backend, j *job, k int, g *game.Game, r Request) error {
	if !be.maia2 {
		return maia1.Encode(g, j.inF[0][k*maia1.InputSize:(k+1)*maia1.InputSize])
	}
	if err := maia2.Encode(g, j.inF[0][k*maia2.InputSize:(k+1)*maia2.InputSize]); err != nil {
		return err
	}
	self := r.Rating
	if self == 0 {
		self = DefaultRating
	}
	opp := r.OppRating
	if opp == 0 {
		opp = self
	}
	j.inI[1][k] = maia2.EloCategory(self)
	j.inI[2][k] = maia2.EloCategory(opp)
	return nil
}

// decode reads position k's outputs of job j.
func decode(be *backend, j *job, k int, g *game.Game) (Prediction, error) {
	pr := Prediction{Model: be.name}
	if !be.maia2 {
		moves, err := maia1.Decode(g, j.out[0][k*maia1.PolicySize:(k+1)*maia1.PolicySize])
		if err != nil {
			return pr, err
		}
		w := j.out[1][k*3 : k*3+3]
		pr.Moves, pr.HasWDL = moves, true
		pr.WDL = [3]float64{float64(w[0]), float64(w[1]), float64(w[2])}
		pr.Win = pr.WDL[0] + pr.WDL[1]/2
		return pr, nil
	}
	moves, err := maia2.Decode(g, j.out[0][k*maia2.VocabSize:(k+1)*maia2.VocabSize])
	if err != nil {
		return pr, err
	}
	pr.Moves = moves
	pr.Win = maia2.WinProb(j.out[1][k])
	return pr, nil
}

// Close stops the batching goroutines and releases every session. Requests
// after Close fail with ErrClosed. It is idempotent.
func (p *Predictor) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	var list []*backend
	for _, be := range p.backends {
		list = append(list, be)
	}
	p.mu.Unlock()
	var first error
	for _, be := range list {
		be.once.Do(func() { be.err = ErrClosed })
		if be.b != nil {
			if err := be.b.close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// Stats counts the work of one model since it was loaded.
type Stats struct {
	Batches   int64 // session runs
	Positions int64 // positions evaluated
}

// Stats returns per-model counters for the models loaded so far.
func (p *Predictor) Stats() map[string]Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]Stats{}
	for name, be := range p.backends {
		if be.b != nil {
			out[name] = Stats{Batches: be.b.batches.Load(), Positions: be.b.positions.Load()}
		}
	}
	return out
}
