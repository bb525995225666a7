package search

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// randomPositions plays random legal moves from evalFENs and returns the
// positions met (legal, with a move to play).
func randomPositions(n int, seed uint64) []*board.Board {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*board.Board
	for len(out) < n {
		b, err := board.FromFEN(evalFENs[rng.IntN(len(evalFENs))])
		if err != nil {
			panic(err)
		}
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			ms := b.LegalMoves()
			if len(ms) == 0 {
				break
			}
			b.Make(ms[rng.IntN(len(ms))])
			out = append(out, b.Clone())
		}
	}
	return out
}

// TestTexelTraceReproducesEvaluate: the traced features (linear part plus
// the constant king-attack, mop-up and drawish terms) give exactly
// Evaluate's EvalPlus score on random positions, for hard's weights and a
// perturbed set.
func TestTexelTraceReproducesEvaluate(t *testing.T) {
	bs := randomPositions(3000, 1)
	var pos []TexelPosition
	for _, b := range bs {
		pos = append(pos, TexelPosition{FEN: b.FEN(), Result: 0.5})
	}
	ts, err := traceSet(pos, &hardWeights)
	if err != nil {
		t.Fatal(err)
	}
	hw := hardWeights
	ptrs, _ := weightFields(&hw)
	p := make([]int, len(ptrs))
	for i, q := range ptrs {
		p[i] = *q
	}
	j := 0
	for _, b := range bs {
		if b.InsufficientMaterial() {
			continue
		}
		want := Evaluate(b, EvalPlus)
		if b.SideToMove() == board.Black {
			want = -want
		}
		if got := ts.evalInt(j, p); got != want {
			t.Fatalf("%s: trace %d, Evaluate %d", b.FEN(), got, want)
		}
		j++
	}
	if j < 2500 {
		t.Fatalf("only %d positions traced", j)
	}
}

// TestTexelTuneSynthetic: labels made from known weights (knights worth
// 60 cp more, a bigger tempo) are fitted back from the old weights.
func TestTexelTuneSynthetic(t *testing.T) {
	bs := randomPositions(1500, 2)
	truth := ruleWeights
	truth.ValueMg[board.Knight] += 60
	truth.ValueEg[board.Knight] += 60
	truth.TempoMg += 30
	var pos []TexelPosition
	for _, b := range bs {
		e := evalWith(b, &truth)
		pos = append(pos, TexelPosition{FEN: b.FEN(), Result: sigmoid(1, float64(e))})
	}
	freeze := []string{"Pst", "Mobility", "Bishop", "Rook", "Doubled", "Isolated", "Passed", "Shield", "Threat", "Outpost", "PasserKing"}
	got, rep, err := TuneTexel(context.Background(), pos, ruleWeights, TuneOptions{K: 1, Epochs: 250, LearningRate: 2, Freeze: freeze})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LossEnd >= rep.LossStart/10 {
		t.Errorf("loss %.6f -> %.6f: not converged", rep.LossStart, rep.LossEnd)
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"knight mg", got.ValueMg[board.Knight], truth.ValueMg[board.Knight]},
		{"knight eg", got.ValueEg[board.Knight], truth.ValueEg[board.Knight]},
		{"tempo", got.TempoMg, truth.TempoMg},
	} {
		t.Logf("%s: fitted %d, truth %d (loss %.6f -> %.6f)", c.name, c.got, c.want, rep.LossStart, rep.LossEnd)
		if abs(c.got-c.want) > 10 {
			t.Errorf("%s: fitted %d, truth %d", c.name, c.got, c.want)
		}
	}
}

// evalWith is EvalPlus of b with weights w (White's view), via the trace.
func evalWith(b *board.Board, w *Weights) int {
	ts, err := traceSet([]TexelPosition{{FEN: b.FEN()}}, w)
	if err != nil || ts.len() == 0 {
		return 0
	}
	ptrs, _ := weightFields(w)
	p := make([]int, len(ptrs))
	for i, q := range ptrs {
		p[i] = *q
	}
	return ts.evalInt(0, p)
}

func TestReadTexelEPD(t *testing.T) {
	in := "# comment\n" +
		board.StartFEN + " [0.5]\n" +
		"8/8/4k3/8/8/3QK3/8/8 w - - c9 \"1-0\";\n" +
		"8/8/4k3/8/8/3QK3/8/8 b - - [0.0]\n" +
		"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 [0.9731]\n"
	ps, err := ReadTexelEPD(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 || ps[0].Result != 0.5 || ps[1].Result != 1 || ps[2].Result != 0 || ps[3].Result != 0.9731 ||
		ps[1].FEN != "8/8/4k3/8/8/3QK3/8/8 w - - 0 1" {
		t.Fatalf("got %+v", ps)
	}
	for _, bad := range []string{" [2]", " [-0.1]", " [NaN]", " [0x1p-2]x", ` c9 "0.7";`} {
		if _, err := ReadTexelEPD(strings.NewReader(board.StartFEN + bad + "\n")); err == nil {
			t.Errorf("result %q accepted", bad)
		}
	}
}

func FuzzReadTexelEPD(f *testing.F) {
	f.Add(board.StartFEN + " [0.5]")
	f.Add("8/8/4k3/8/8/3QK3/8/8 w - - c9 \"1/2-1/2\";")
	f.Add("[1.0]")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ReadTexelEPD(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, p := range ps {
			if _, err := board.FromFEN(p.FEN); err != nil {
				t.Fatalf("accepted bad FEN %q: %v", p.FEN, err)
			}
			if !(p.Result >= 0 && p.Result <= 1) {
				t.Fatalf("result %v", p.Result)
			}
		}
	})
}

func TestExtractTexelPositions(t *testing.T) {
	pgn := `[Event "Outpost match, game 1"]
[White "hard"]
[Black "hard"]
[Result "1-0"]
[Termination "checkmate"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Outpost match, game 2"]
[Result "1/2-1/2"]
[Termination "adjudicated after 200 plies"]

1. d4 d5 1/2-1/2
`
	ps, st, err := ExtractTexelPositions(context.Background(), strings.NewReader(pgn), ExtractOptions{MinPly: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 2 || st.SkippedGames != 1 || st.Positions != 7 {
		t.Fatalf("stats %+v", st)
	}
	for _, p := range ps {
		if p.Result != 1 {
			t.Errorf("label %v", p.Result)
		}
		b, _ := board.FromFEN(p.FEN)
		if b.InCheck() {
			t.Errorf("%s in check", p.FEN)
		}
	}
	// After 3... Nf6 White can take on f7: not quiet.
	for _, p := range ps {
		if strings.HasPrefix(p.FEN, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w") {
			t.Errorf("kept %s (Qxf7 wins)", p.FEN)
		}
	}
}

// TestTexelExtract is the developer's data step, run only with
// OUTPOST_TEXEL_PGN=games.pgn (comma-separated list) and
// OUTPOST_TEXEL_OUT=positions.epd.
func TestTexelExtract(t *testing.T) {
	in, out := os.Getenv("OUTPOST_TEXEL_PGN"), os.Getenv("OUTPOST_TEXEL_OUT")
	if in == "" || out == "" {
		t.Skip("set OUTPOST_TEXEL_PGN and OUTPOST_TEXEL_OUT")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	seen := map[string]bool{}
	for _, name := range strings.Split(in, ",") {
		r, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		ps, st, err := ExtractTexelPositions(context.Background(), r, ExtractOptions{})
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", name, st)
		for _, p := range ps {
			line := fmt.Sprintf("%s [%.1f]", p.FEN, p.Result)
			key := strings.Join(strings.Fields(p.FEN)[:4], " ") + line[len(line)-5:]
			if !seen[key] {
				seen[key] = true
				fmt.Fprintln(w, line)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions written to %s", len(seen), out)
}

// TestTexelTune is the developer's tuning step, run only with
// OUTPOST_TEXEL=positions.epd (OUTPOST_TEXEL_EPOCHS, _LR, _LAMBDA,
// _FREEZE=comma-separated prefixes optional): it prints the fitted
// weights as a Go literal. OUTPOST_TEXEL_HOLDOUT=0.2 trains on the first
// 80% of the positions only and logs the mean squared error on the rest
// before and after.
func TestTexelTune(t *testing.T) {
	name := os.Getenv("OUTPOST_TEXEL")
	if name == "" {
		t.Skip("set OUTPOST_TEXEL")
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ReadTexelEPD(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	num := func(k string) float64 {
		v, _ := strconv.ParseFloat(os.Getenv(k), 64)
		return v
	}
	opts := TuneOptions{Epochs: int(num("OUTPOST_TEXEL_EPOCHS")), LearningRate: num("OUTPOST_TEXEL_LR"), Lambda: num("OUTPOST_TEXEL_LAMBDA")}
	if s := os.Getenv("OUTPOST_TEXEL_FREEZE"); s != "" {
		opts.Freeze = strings.Split(s, ",")
	}
	opts.Progress = func(ep int, loss float64) {
		if ep%25 == 0 {
			t.Logf("epoch %d loss %.6f", ep, loss)
		}
	}
	var hold []TexelPosition
	if f := num("OUTPOST_TEXEL_HOLDOUT"); f > 0 && f < 1 {
		n := len(ps) - int(f*float64(len(ps)))
		ps, hold = ps[:n], ps[n:]
	}
	w, rep, err := TuneTexel(context.Background(), ps, hardWeights, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	if len(hold) > 0 {
		t.Logf("hold-out (last %d positions): MSE %.5f with the start weights, %.5f tuned",
			len(hold), texelLoss(t, hold, hardWeights, rep.K), texelLoss(t, hold, w, rep.K))
	}
	fmt.Println(FormatWeights(w))
}

// texelLoss is the mean squared error of w on ps at sigmoid scale k (a
// run with every weight frozen).
func texelLoss(t *testing.T, ps []TexelPosition, w Weights, k float64) float64 {
	t.Helper()
	_, rep, err := TuneTexel(context.Background(), ps, w, TuneOptions{K: k, Epochs: 1, Freeze: []string{""}})
	if err != nil {
		t.Fatal(err)
	}
	return rep.LossStart
}
