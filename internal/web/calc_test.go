package web

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// TestEvaluationsStreamed checks that every evaluation the engine reports
// reaches the progress callback once, and that the page's rule for turning
// one into a node's winrate (the side to move's winrate, flipped when the
// analysing player is not to move) gives the final trees' winrates.
func TestEvaluationsStreamed(t *testing.T) {
	ev := &testEvaluator{}
	calc := EWR{Calc: &ewr.Calculator{Prober: testProber{}, Evaluator: ev}}
	p := ewr.DefaultParams()
	p.LossThreshold = -0.5
	streamed := map[string]float64{}
	n := 0
	var maiaTrees map[string]*ewr.Node
	res, err := calc.Calculate(context.Background(), ewr.Position{Moves: []string{"e2e4", "e7e5"}}, p, func(pr Progress) {
		for _, x := range pr.Evaluated {
			n++
			streamed[x.Key] = x.Winrate
		}
		if pr.Trees != nil && pr.Phase == ewr.PhaseTrees {
			maiaTrees = pr.Trees
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != ev.n || n == 0 {
		t.Fatalf("%d evaluations streamed, the engine made %d", n, ev.n)
	}
	if maiaTrees == nil {
		t.Fatal("no Maia trees")
	}
	us := "w"
	checked := 0
	var walk func(n *ewr.Node)
	walk = func(n *ewr.Node) {
		if n.Winrate != nil {
			if wr, ok := streamed[positionKey(n.FEN)]; ok {
				if strings.Fields(n.FEN)[1] != us {
					wr = 1 - wr
				}
				if math.Abs(wr-*n.Winrate) > 1e-12 {
					t.Errorf("%s: streamed %v, final %v", n.FEN, wr, *n.Winrate)
				}
				checked++
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, tr := range res.Trees {
		walk(tr)
	}
	if checked == 0 {
		t.Error("no node checked")
	}
	// The snapshot is a copy: the calculation went on without touching it.
	pending := 0
	for _, tr := range maiaTrees {
		for _, c := range tr.Children {
			if c.Winrate == nil {
				pending++
			}
		}
	}
	if pending == 0 {
		t.Error("the Maia trees' leaves were evaluated in the snapshot")
	}
}

func TestPositionKey(t *testing.T) {
	for in, want := range map[string]string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
		"8/8/8/8/8/8/8/K6k w - -":                                     "8/8/8/8/8/8/8/K6k w - -",
		"":                                                            "",
	} {
		if got := positionKey(in); got != want {
			t.Errorf("positionKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMomentAdapter checks EWR.Moment against ewr.AnalyseMoment at the
// product defaults.
func TestMomentAdapter(t *testing.T) {
	a, _ := loadFixture(t)
	g := ewr.FromAnalysis(a)
	ply := ewr.CriticalPlies(a)[0]
	calc := &ewr.Calculator{Prober: testProber{}, Evaluator: &testEvaluator{}}
	want, err := ewr.AnalyseMoment(context.Background(), calc, g, ply, ewr.DefaultParams(), ewr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	got, err := EWR{Calc: calc}.Moment(context.Background(), g, ply, func(Progress) { events++ })
	if err != nil {
		t.Fatal(err)
	}
	if got.Played != want.Played || got.Best != want.Best || got.Rating != want.Rating || got.Label != want.Label || events == 0 {
		t.Errorf("moment %+v / %+v (%d events), want %+v / %+v", got.Played, got.Best, events, want.Played, want.Best)
	}
	if _, err := (EWR{Calc: calc}).Moment(context.Background(), g, len(g.Moves)+1, nil); err == nil || errors.Is(err, ErrUnavailable) {
		t.Errorf("ply out of range: %v", err)
	}
}

func TestLazyEWRReportsUnavailable(t *testing.T) {
	opened := 0
	l := NewLazyEWR(func() (*ewr.Calculator, func(), error) {
		opened++
		return nil, nil, errors.New("no weights")
	})
	for range 2 {
		_, err := l.Calculate(context.Background(), ewr.Position{}, ewr.DefaultParams(), nil)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "not available") || !strings.Contains(err.Error(), "no weights") {
			t.Errorf("err = %v", err)
		}
		// The game report's critical moments say the same.
		_, err = l.Moment(context.Background(), ewr.Game{Moves: []string{"e2e4"}}, 1, nil)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no weights") {
			t.Errorf("moment: err = %v", err)
		}
	}
	if opened != 1 {
		t.Errorf("opened %d times", opened)
	}
	l.Close()
}

// oneScoreSearcher is an ewr.Searcher answering +20 cp to every search.
type oneScoreSearcher struct{}

func (oneScoreSearcher) Analyse(context.Context, uci.Position, uci.Limits) (*uci.Result, error) {
	return &uci.Result{BestMove: "e2e4", Nodes: 10, Lines: []uci.Info{{MultiPV: 1, Depth: 15, HasScore: true, Score: score.CP(20)}}}, nil
}
func (oneScoreSearcher) Restart(context.Context) error { return nil }
func (oneScoreSearcher) Close() error                  { return nil }

// TestObserverKeepsEngines: the explorer's observing evaluator keeps what
// the calculation looks for in the engines — their lanes (Dispatcher) and
// whether they clear their hash each search (the settle mode needs it) —
// and notes the evaluations made through them; over an evaluator without
// engines it claims none.
func TestObserverKeepsEngines(t *testing.T) {
	ee := ewr.NewEngineEvaluator(oneScoreSearcher{}, oneScoreSearcher{})
	ee.ClearEach = true
	o := &observer{inner: ee}
	if o.Workers() != 2 || !o.ClearsEach() {
		t.Fatalf("workers %d, clears each %v", o.Workers(), o.ClearsEach())
	}
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
	sent := false
	err := o.Dispatch(context.Background(), func(int) (ewr.EvalRequest, bool) {
		if sent {
			return ewr.EvalRequest{}, false
		}
		sent = true
		return ewr.EvalRequest{FEN: fen, Depth: 15}, true
	}, func(int, ewr.EvalRequest, score.Score) {})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.take(); len(got) != 1 || got[0].Key != fen {
		t.Errorf("noted %+v", got)
	}
	plain := &observer{inner: &testEvaluator{}}
	if plain.Workers() != 0 || plain.ClearsEach() {
		t.Errorf("plain evaluator: workers %d, clears each %v", plain.Workers(), plain.ClearsEach())
	}
}
