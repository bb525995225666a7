package models

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/outpostchess/outpost/models/game"
	"github.com/outpostchess/outpost/models/maia2"
	"github.com/outpostchess/outpost/models/onnxpb"
)

// The synthetic Maia-2 model's outputs are a known function of its inputs:
//
//	logit[i] = fromW[c] for the piece of channel c on move i's from-square
//	         + toW[c]   for the piece of channel c on move i's to-square
//	         + eloSelfW(cat_self, i) + eloOppoW(cat_oppo, i)
//	value    = Σ castleW[k]·castling plane k + (0.1 + 0.005·ep square) - 0.3
//	         + 0.05·cat_self - 0.03·cat_oppo
var (
	fromW   = [12]float32{0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 9, 9, 9, 9, 9, 9}
	toW     = [12]float32{-5, -5, -5, -5, -5, -5, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2}
	castleW = [4]float32{0.1, 0.2, 0.3, 0.4}
)

func eloSelfW(cat int64, i int) float32 { return 0.01 * float32(cat) * float32(i%5) }
func eloOppoW(cat int64, i int) float32 { return -0.02 * float32(cat) * float32(i%3) }

func sqIndex(s string) int { return int(s[1]-'1')*8 + int(s[0]-'a') }

// syntheticMaia2 builds the model with the given Elo input names; valueCol
// makes the value output [batch,1] instead of [batch].
func syntheticMaia2(selfName, oppoName string, valueCol bool) []byte {
	const flat = maia2.InputSize
	w := make([]float32, flat*maia2.VocabSize)
	for i := range maia2.VocabSize {
		m := maia2.Move(i)
		from, to := sqIndex(m[0:2]), sqIndex(m[2:4])
		for c := range 12 {
			w[(c*64+from)*maia2.VocabSize+i] += fromW[c]
			w[(c*64+to)*maia2.VocabSize+i] += toW[c]
		}
	}
	es := make([]float32, maia2.EloCategories*maia2.VocabSize)
	eo := make([]float32, maia2.EloCategories*maia2.VocabSize)
	for k := range maia2.EloCategories {
		for i := range maia2.VocabSize {
			es[k*maia2.VocabSize+i] = eloSelfW(int64(k), i)
			eo[k*maia2.VocabSize+i] = eloOppoW(int64(k), i)
		}
	}
	v := make([]float32, flat)
	for s := range 64 {
		v[12*64+s] = -0.3 / 64
		for k := range 4 {
			v[(13+k)*64+s] = castleW[k] / 64
		}
		v[17*64+s] = 0.1 + 0.005*float32(s)
	}
	vs := make([]float32, maia2.EloCategories)
	vo := make([]float32, maia2.EloCategories)
	for k := range vs {
		vs[k], vo[k] = 0.05*float32(k), -0.03*float32(k)
	}
	g := &onnxpb.Graph{Name: "synthetic-maia2"}
	b := onnxpb.Dim{Param: "batch"}
	g.Inputs = []onnxpb.Value{
		{Name: maia2.BoardsName, Type: onnxpb.Float, Dims: []onnxpb.Dim{b, {Value: 18}, {Value: 8}, {Value: 8}}},
		{Name: selfName, Type: onnxpb.Int64, Dims: []onnxpb.Dim{b}},
		{Name: oppoName, Type: onnxpb.Int64, Dims: []onnxpb.Dim{b}},
	}
	g.Outputs = []onnxpb.Value{
		{Name: maia2.PolicyName, Type: onnxpb.Float, Dims: []onnxpb.Dim{b, {Value: maia2.VocabSize}}},
		{Name: maia2.SideName, Type: onnxpb.Float, Dims: []onnxpb.Dim{b, {Value: 4}}},
		{Name: maia2.ValueName, Type: onnxpb.Float, Dims: []onnxpb.Dim{b}},
	}
	if valueCol {
		g.Outputs[2].Dims = []onnxpb.Dim{b, {Value: 1}}
	}
	shape := g.Init(onnxpb.Int64Tensor("flat_shape", []int64{-1, flat}, 2))
	x := g.Op("Reshape", []string{maia2.BoardsName, shape})
	pl := g.Op("MatMul", []string{x, g.Init(onnxpb.FloatTensor("w", w, flat, maia2.VocabSize))})
	pl = g.Op("Add", []string{pl, g.Op("Gather", []string{g.Init(onnxpb.FloatTensor("es", es, maia2.EloCategories, maia2.VocabSize)), selfName}, onnxpb.Int("axis", 0))})
	g.OpTo(maia2.PolicyName, "Add", []string{pl, g.Op("Gather", []string{g.Init(onnxpb.FloatTensor("eo", eo, maia2.EloCategories, maia2.VocabSize)), oppoName}, onnxpb.Int("axis", 0))})
	g.OpTo(maia2.SideName, "MatMul", []string{x, g.Init(onnxpb.FloatTensor("side", make([]float32, flat*4), flat, 4))})
	val := g.Op("MatMul", []string{x, g.Init(onnxpb.FloatTensor("v", v, flat))})
	val = g.Op("Add", []string{val, g.Op("Gather", []string{g.Init(onnxpb.FloatTensor("vs", vs, maia2.EloCategories)), selfName}, onnxpb.Int("axis", 0))})
	val = g.Op("Add", []string{val, g.Op("Gather", []string{g.Init(onnxpb.FloatTensor("vo", vo, maia2.EloCategories)), oppoName}, onnxpb.Int("axis", 0))})
	shapeV := []int64{-1}
	if valueCol {
		shapeV = []int64{-1, 1}
	}
	g.OpTo(maia2.ValueName, "Reshape", []string{val, g.Init(onnxpb.Int64Tensor("value_shape", shapeV, int64(len(shapeV))))})
	return (&onnxpb.Model{Producer: "outpost-test", Graph: g}).Marshal()
}

// expected computes the synthetic model's answer from the real board,
// independently of the encoder: the mover's pieces are "white" after
// mirroring, the opponent's "black".
func expected(t *testing.T, r Request) (map[string]float64, float64) {
	t.Helper()
	g, err := game.New(r.StartFEN, r.Moves)
	if err != nil {
		t.Fatal(err)
	}
	cur := g.Current()
	cs, co := maia2.EloCategory(r.Rating), maia2.EloCategory(r.OppRating)
	logits := map[string]float64{}
	maxL := math.Inf(-1)
	for _, m := range g.LegalMoves() {
		from, to := sqIndex(m[0:2]), sqIndex(m[2:4])
		mv := m
		if !cur.WhiteToMove {
			b := []byte(m)
			b[1], b[3] = '9'-b[1]+'0', '9'-b[3]+'0'
			mv = string(b)
		}
		i := maia2.Index(mv)
		l := float64(fromW[cur.Board[from].Kind()])
		if p := cur.Board[to]; p != game.Empty {
			l += float64(toW[6+p.Kind()])
		}
		l += float64(eloSelfW(cs, i) + eloOppoW(co, i))
		logits[m] = l
		maxL = math.Max(maxL, l)
	}
	var sum float64
	for m, l := range logits {
		logits[m] = math.Exp(l - maxL)
		sum += logits[m]
	}
	for m := range logits {
		logits[m] /= sum
	}
	c := cur.Castle
	if !cur.WhiteToMove {
		c = [4]bool{c[game.BlackKingside], c[game.BlackQueenside], c[game.WhiteKingside], c[game.WhiteQueenside]}
	}
	order := [4]int{game.WhiteKingside, game.WhiteQueenside, game.BlackKingside, game.BlackQueenside}
	v := -0.3 + 0.05*float64(cs) - 0.03*float64(co)
	for k, idx := range order {
		if c[idx] {
			v += float64(castleW[k])
		}
	}
	if g.EPCaptureLegal() {
		ep := cur.EPSquare
		if !cur.WhiteToMove {
			ep ^= 56
		}
		v += 0.1 + 0.005*float64(ep)
	}
	return logits, math.Min(1, math.Max(0, v/2+0.5))
}

func TestMaia2Synthetic(t *testing.T) {
	base := ortConfig(t)
	for _, v := range []struct {
		self, oppo string
		valueCol   bool
	}{{"elo_self", "elo_oppo", false}, {"elos_self", "elos_oppo", false}, {"elo_self", "elo_oppo", true}} {
		t.Run(fmt.Sprintf("%s/value_col=%v", v.self, v.valueCol), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "maia2.onnx")
			if err := os.WriteFile(path, syntheticMaia2(v.self, v.oppo, v.valueCol), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := base
			cfg.Maia2Model = path
			p, err := NewPredictor(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			reqs := []Request{
				{Rating: 1500, OppRating: 1500},
				{Moves: []string{"e2e4"}, Rating: 1050, OppRating: 2100},
				{StartFEN: "r3k2r/8/8/8/3p4/8/4P3/R3K2R w Qk - 0 1", Moves: []string{"e2e4"}, Rating: 1999, OppRating: 1100},
				{StartFEN: "r3k2r/p7/8/1P6/8/8/8/R3K2R b KQkq - 0 1", Moves: []string{"a7a5"}, Rating: 1725, OppRating: 1380},
				{StartFEN: "k7/8/8/8/8/8/1p6/R6K b - - 0 1", Rating: 1234, OppRating: 1900},
				{StartFEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", Rating: 2500, OppRating: 900},
			}
			for i := range reqs {
				reqs[i].Model = Maia2Name
			}
			preds, err := p.Predict(context.Background(), reqs)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range reqs {
				want, win := expected(t, r)
				pr := preds[i]
				if pr.Model != Maia2Name || pr.HasWDL {
					t.Errorf("request %d: model %s hasWDL %v", i, pr.Model, pr.HasWDL)
				}
				if len(pr.Moves) != len(want) {
					t.Fatalf("request %d: %d moves, want %d", i, len(pr.Moves), len(want))
				}
				for _, m := range pr.Moves {
					if math.Abs(m.P-want[m.UCI]) > 1e-4 {
						t.Errorf("request %d: p(%s) = %.5f, want %.5f", i, m.UCI, m.P, want[m.UCI])
					}
				}
				if math.Abs(pr.Win-win) > 1e-4 {
					t.Errorf("request %d: win %.4f, want %.4f", i, pr.Win, win)
				}
			}
		})
	}
}

func TestMaia2BadModel(t *testing.T) {
	cfg := ortConfig(t)
	path := filepath.Join(t.TempDir(), "bad.onnx")
	if err := os.WriteFile(path, syntheticMaia2("rating_a", "rating_b", false), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Maia2Model = path
	p, err := NewPredictor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.PredictOne(context.Background(), Request{Model: Maia2Name}); err == nil {
		t.Fatal("model without elo_self/elo_oppo inputs accepted")
	}
	cfg.Maia2Model = ""
	q, _ := NewPredictor(cfg)
	defer q.Close()
	if _, err := q.PredictOne(context.Background(), Request{Model: Maia2Name}); err == nil {
		t.Fatal("no Maia-2 model configured: want an error")
	}
}
