package ewr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/testkit"
)

// fakeDispatcher is a Dispatcher over a fakeEvaluator's table with n
// workers; results complete in a seeded random order, as with real engines.
type fakeDispatcher struct {
	*fakeEvaluator
	n        int
	rng      *rand.Rand
	searched [][]string // per worker, in order
}

func newFakeDispatcher(ev *fakeEvaluator, n int, seed int64) *fakeDispatcher {
	return &fakeDispatcher{fakeEvaluator: ev, n: n, rng: rand.New(rand.NewSource(seed)), searched: make([][]string, n)}
}

func (f *fakeDispatcher) Workers() int { return f.n }

func (f *fakeDispatcher) Dispatch(ctx context.Context, next func(int) (EvalRequest, bool), on func(int, EvalRequest, score.Score)) error {
	held := make([]*EvalRequest, f.n)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var busy []int
		for w := range held {
			if held[w] == nil {
				if r, ok := next(w); ok {
					held[w] = &r
				}
			}
			if held[w] != nil {
				busy = append(busy, w)
			}
		}
		if len(busy) == 0 {
			return nil
		}
		w := busy[f.rng.Intn(len(busy))]
		r := *held[w]
		held[w] = nil
		var s score.Score
		err := f.Evaluate(ctx, []EvalRequest{r}, func(_ int, sc score.Score) { s = sc })
		if err != nil {
			return err
		}
		f.searched[w] = append(f.searched[w], r.FEN)
		on(w, r, s)
	}
}

// hashed returns a deterministic pseudo-random number in [0, 1) for s.
func hashed(s string) float64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return float64(h.Sum64()%1_000_003) / 1_000_003
}

// randomEvaluator scores every position pseudo-randomly (but fixed by
// the position), so that trees prune here and there.
func randomEvaluator() *fakeEvaluator {
	return &fakeEvaluator{table: map[string]score.Score{}, def: func(k string) score.Score {
		return score.Score{CP: int(hashed(k)*500) - 200}
	}}
}

func resultJSON(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Base  float64
		Moves []MoveResult
		Trees map[string]*Node
	}{res.BaseWinrate, res.Moves, res.Trees})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// skewedProber wraps fakeProber's table with a pseudo-random distribution
// for positions outside it.
type skewedProber struct{ fakeProber }

func (s *skewedProber) Probe(ctx context.Context, reqs []ProbeRequest) ([][]MoveProb, error) {
	out, err := s.fakeProber.Probe(ctx, reqs)
	if err != nil {
		return nil, err
	}
	for i, ms := range out {
		key := strings.Join(reqs[i].Moves, " ")
		var sum float64
		w := make([]float64, len(ms))
		for j, m := range ms {
			x := hashed(key + m.UCI)
			w[j] = x * x * x * x // a few moves carry most of the weight
			sum += w[j]
		}
		for j := range ms {
			ms[j].P = w[j] / sum
		}
	}
	return out, nil
}

// TestDispatchedMatchesRounds checks that phase B on a Dispatcher (any
// number of engines, results in any order) computes exactly what the
// round-based phase B computes: same trees, winrates, pruning and ranking;
// each position evaluated at most once per engine (a transposition between
// two engines' trees is searched by each), and every engine searches the
// same positions in the same order whatever the order of the results (so
// that real engines give the same scores run after run).
func TestDispatchedMatchesRounds(t *testing.T) {
	type setup struct {
		name string
		pos  Position
		p    Params
		mk   func() (MoveProber, *fakeEvaluator)
		opt  Options
	}
	scen := func() (MoveProber, *fakeEvaluator) { pr, ev := scenario(); return pr, ev }
	random := func() (MoveProber, *fakeEvaluator) { return &skewedProber{}, randomEvaluator() }
	p01 := DefaultParams()
	p01.Threshold = 0.01
	tight := p01
	tight.LossThreshold = -0.03
	limited := DefaultParams()
	limited.MaxNodes = 40
	setups := []setup{
		{"scenario", Position{}, DefaultParams(), scen, Options{}},
		{"scenario 1%", Position{}, p01, scen, Options{}},
		{"scenario include", Position{}, DefaultParams(), scen, Options{Include: []string{"f2f3"}}},
		{"random start 1%", Position{}, p01, random, Options{}},
		{"random tight loss", Position{}, tight, random, Options{}},
		{"random node limit", Position{}, limited, random, Options{}},
	}
	for _, bp := range BenchPositions {
		setups = append(setups, setup{"random " + bp.Name, bp.Pos, DefaultParams(), random, Options{}})
	}
	ctx := context.Background()
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			pr, ev := s.mk()
			want, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(ctx, s.pos, s.p, s.opt)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON := resultJSON(t, want)
			for _, workers := range []int{1, 2, 3} {
				var firstOrder string
				for seed := int64(1); seed <= min(int64(workers), 3); seed++ { // one engine: one order
					pr, ev := s.mk()
					d := newFakeDispatcher(ev, workers, seed)
					got, err := (&Calculator{Prober: pr, Evaluator: d}).Calculate(ctx, s.pos, s.p, s.opt)
					if err != nil {
						t.Fatal(err)
					}
					if g := resultJSON(t, got); g != wantJSON {
						t.Fatalf("%d workers, seed %d: results differ\nrounds:     %.400s\ndispatched: %.400s", workers, seed, wantJSON, g)
					}
					for k, c := range ev.count {
						if c > workers {
							t.Fatalf("%s evaluated %d times by %d engines", k, c, workers)
						}
					}
					if got.Stats.EngineEvals+got.Stats.EvalReuse != want.Stats.EngineEvals+want.Stats.EvalReuse || got.Stats.Nodes != want.Stats.Nodes {
						t.Fatalf("stats %+v, rounds %+v", got.Stats, want.Stats)
					}
					if order := fmt.Sprint(d.searched); firstOrder == "" {
						firstOrder = order
					} else if order != firstOrder {
						t.Fatalf("%d workers, seed %d: the engines searched other positions or in another order than with seed 1", workers, seed)
					}
				}
			}
			if want.Stats.EngineEvals < 3 {
				t.Errorf("only %d evaluations: the setup tests nothing", want.Stats.EngineEvals)
			}
			if s.name == "random tight loss" && !strings.Contains(wantJSON, `"pruning_reason":"`+ReasonBlunder+`","children":[]`) {
				t.Error("no blunder pruned below a candidate: the setup does not test pruning")
			}
		})
	}
}

// TestDispatchedCache checks the dispatched phase B against the
// evaluation cache: a repeat without the result cache runs no search.
func TestDispatchedCache(t *testing.T) {
	ctx := context.Background()
	cache := &memCache{}
	pr, ev := scenario()
	d := newFakeDispatcher(ev, 2, 1)
	c := &Calculator{Prober: pr, Evaluator: d, Cache: cache}
	first, err := c.Calculate(ctx, Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := ev.total()
	again, err := c.Calculate(ctx, Position{}, DefaultParams(), Options{SkipResultCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if ev.total() != n || again.Stats.EngineEvals != 0 || again.Stats.EvalCacheHits != first.Stats.EngineEvals {
		t.Fatalf("repeat searched %d more; stats %+v (first %+v)", ev.total()-n, again.Stats, first.Stats)
	}
	if resultJSON(t, again) != resultJSON(t, first) {
		t.Error("cached evaluations changed the result")
	}
}

// TestDispatchedFailureAndTimeLimit: an engine failure is an error with no
// result; the time limit keeps the result so far.
func TestDispatchedFailureAndTimeLimit(t *testing.T) {
	ctx := context.Background()
	pr, ev := scenario()
	ev.failOn = keyAfter(start, "e2e4", "c7c5")
	if res, err := (&Calculator{Prober: pr, Evaluator: newFakeDispatcher(ev, 2, 1)}).Calculate(ctx, Position{}, DefaultParams(), Options{}); err == nil || res != nil || !strings.Contains(err.Error(), "engine crashed") {
		t.Fatalf("res %v err %v", res, err)
	}
	pr, ev = scenario()
	ev.delay = 40 * time.Millisecond // 28 evaluations, one at a time
	res, err := (&Calculator{Prober: pr, Evaluator: newFakeDispatcher(ev, 2, 1)}).Calculate(ctx, Position{}, DefaultParams(), Options{TimeLimit: 600 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Stats.EngineEvals == 0 {
		t.Fatalf("partial %v stats %+v", res.Partial, res.Stats)
	}
}

// TestSchedulerNext checks the choice of an engine's next position: its
// own lane's first in depth-first order, never another lane's.
func TestSchedulerNext(t *testing.T) {
	r := &run{p: DefaultParams(), depth: DefaultDepth}
	s := &scheduler{r: r, ready: []readyPos{{EvalRequest{FEN: "a", Depth: 15}, 1, 1}, {EvalRequest{FEN: "b", Depth: 15}, 2, 0}, {EvalRequest{FEN: "c", Depth: 15}, 3, 0}, {EvalRequest{FEN: "d", Depth: 15}, 4, 1}, {EvalRequest{FEN: "e", Depth: 15}, 5, 0}}}
	var got []string
	take := func(w int) {
		req, ok := s.next(w)
		if !ok {
			got = append(got, "-")
			return
		}
		if req.Depth != r.p.Depth {
			t.Errorf("depth %d", req.Depth)
		}
		got = append(got, fmt.Sprintf("%d:%s", w, req.FEN))
	}
	for _, w := range []int{0, 0, 0, 0, 1, 1, 1} {
		take(w)
	}
	if want := "0:b 0:c 0:e - 1:a 1:d -"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

// TestLaneOf checks the balancing of the trees over the engines: in order,
// each to the least loaded lane.
func TestLaneOf(t *testing.T) {
	leaf := func() *Node { return &Node{} }
	tree := func(k int) *Node {
		n := &Node{ours: true}
		w := 0.5
		n.Winrate = &w
		for i := 0; i < k; i++ {
			n.Children = append(n.Children, leaf())
		}
		return n
	}
	trees := []*Node{tree(5), tree(1), tree(1), tree(3), tree(2)}
	if got := fmt.Sprint(laneOf(trees, 2)); got != "[0 1 1 1 0]" {
		t.Errorf("lanes %s", got)
	}
	if got := fmt.Sprint(laneOf(trees, 1)); got != "[0 0 0 0 0]" {
		t.Errorf("one lane %s", got)
	}
}

// TestEngineDispatch runs Dispatch on fake engines: work is asked for per
// free engine, results carry their engine, failures stop it, no goroutine
// is left behind.
func TestEngineDispatch(t *testing.T) {
	defer testkit.NoLeaks(t)
	scores := map[string]score.Score{"a": {CP: 1}, "b": {CP: 2}, "c": {CP: 3}, "d": {CP: 4}}
	a, b := &fakeSearcher{scores: scores}, &fakeSearcher{scores: scores}
	ev := NewEngineEvaluator(a, b)
	defer ev.Close()
	if ev.Workers() != 2 {
		t.Fatalf("workers %d", ev.Workers())
	}
	queue := []string{"a", "b", "c", "d"}
	var asked []int
	got := map[string]score.Score{}
	err := ev.Dispatch(context.Background(), func(w int) (EvalRequest, bool) {
		asked = append(asked, w)
		if len(queue) == 0 {
			return EvalRequest{}, false
		}
		k := queue[0]
		queue = queue[1:]
		return EvalRequest{FEN: k, Depth: 15}, true
	}, func(w int, r EvalRequest, s score.Score) {
		if w < 0 || w > 1 {
			t.Errorf("worker %d", w)
		}
		got[r.FEN] = s
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got["c"] != (score.Score{CP: 3}) || len(asked) < 6 {
		t.Errorf("got %v asked %v", got, asked)
	}
	// An engine without a score is an error, not a made-up number.
	queue = []string{"a", "zz", "b", "c", "d"}
	err = ev.Dispatch(context.Background(), func(int) (EvalRequest, bool) {
		if len(queue) == 0 {
			return EvalRequest{}, false
		}
		k := queue[0]
		queue = queue[1:]
		return EvalRequest{FEN: k, Depth: 15}, true
	}, func(int, EvalRequest, score.Score) {})
	if err == nil || !strings.Contains(err.Error(), "no score") {
		t.Errorf("missing score: %v", err)
	}
	// A cancelled context stops it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ev.Dispatch(ctx, func(int) (EvalRequest, bool) { return EvalRequest{FEN: "a", Depth: 15}, true }, func(int, EvalRequest, score.Score) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRunBenchSplitsTime checks that the benchmark adds up the time spent
// in the prober and the evaluator and the evaluator's node counts.
func TestRunBenchSplitsTime(t *testing.T) {
	pr, ev := &skewedProber{}, randomEvaluator()
	c := &Calculator{Prober: pr, Evaluator: ev}
	r, err := RunBench(context.Background(), c, DefaultParams(), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Times) != len(BenchPositions) || r.StockfishTime <= 0 || r.StockfishTime > r.Total() || r.MaiaTime > r.Total() || r.EngineEvals == 0 || r.MaiaCall == 0 {
		t.Errorf("bench run %+v", r)
	}
	if r.Searches != 0 || r.Nodes != 0 {
		t.Errorf("nodes %d from an evaluator that does not count them", r.Nodes)
	}
}

// newGameDispatcher is a fakeDispatcher that counts the calculations'
// starts (NewGame), as EngineEvaluator clears its engines' hash there.
type newGameDispatcher struct {
	*fakeDispatcher
	games int
}

func (n *newGameDispatcher) NewGame(context.Context) error {
	n.games++
	return nil
}

// TestRunBenchKeepsLanesAndNewGame: the benchmark's timing wrapper keeps
// what the calculation looks for in its evaluator, so that the benchmark
// measures what `outpost ewr` calculates: the engines' lanes (Dispatch)
// and a fresh start per position (NewGame). Before, the wrapper hid both:
// the bench's first pass ran in rounds on a hash carried over from the
// previous position, and its figures differed from `outpost ewr`'s.
func TestRunBenchKeepsLanesAndNewGame(t *testing.T) {
	ev := randomEvaluator()
	nd := &newGameDispatcher{fakeDispatcher: newFakeDispatcher(ev, 2, 1)}
	r, err := RunBench(context.Background(), &Calculator{Prober: &skewedProber{}, Evaluator: nd}, DefaultParams(), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nd.games != len(BenchPositions) {
		t.Errorf("NewGame called %d times over %d positions", nd.games, len(BenchPositions))
	}
	searched := len(nd.searched[0]) + len(nd.searched[1])
	if searched == 0 || searched != r.EngineEvals {
		t.Errorf("%d positions dispatched, %d evaluations: the bench did not use the lanes", searched, r.EngineEvals)
	}
	if r.StockfishTime <= 0 {
		t.Errorf("no evaluator time counted through Dispatch: %+v", r)
	}
}

// TestSchedulerSteal: when the engines clear their hash before every
// search, an engine with nothing of its own takes the first position of
// another lane (depth-first order), and its result goes back to that lane;
// an engine with work of its own keeps to it.
func TestSchedulerSteal(t *testing.T) {
	for _, c := range []struct {
		steal bool
		want  string
	}{
		{false, "0:b 0:c 0:e - 1:a 1:d -"},
		{true, "0:b 0:c 0:e 0:a(1) 0:d(1) -"},
	} {
		r := &run{p: DefaultParams(), depth: DefaultDepth}
		s := &scheduler{r: r, steal: c.steal, inflight: make([]int, 2), ready: []readyPos{
			{EvalRequest{FEN: "a", Depth: 15}, 1, 1}, {EvalRequest{FEN: "b", Depth: 15}, 2, 0}, {EvalRequest{FEN: "c", Depth: 15}, 3, 0},
			{EvalRequest{FEN: "d", Depth: 15}, 4, 1}, {EvalRequest{FEN: "e", Depth: 15}, 5, 0}}}
		var got []string
		for range 6 {
			req, ok := s.next(0)
			switch {
			case !ok:
				got = append(got, "-")
			case s.inflight[0] != 0:
				got = append(got, fmt.Sprintf("0:%s(%d)", req.FEN, s.inflight[0]))
			default:
				got = append(got, "0:"+req.FEN)
			}
		}
		if c.steal {
			got = got[:6]
		} else {
			got = got[:4]
			for range 3 {
				if req, ok := s.next(1); ok {
					got = append(got, "1:"+req.FEN)
				} else {
					got = append(got, "-")
				}
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("steal %v: got %q, want %q", c.steal, strings.Join(got, " "), c.want)
		}
	}
}
