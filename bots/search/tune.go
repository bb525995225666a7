package search

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// TexelPosition is one labelled training position: a FEN and the game's
// result for White (1 win, 0.5 draw, 0 loss).
type TexelPosition struct {
	FEN    string
	Result float64
}

// TuneOptions configures TuneTexel.
type TuneOptions struct {
	// Epochs of full-batch Adam (default 300).
	Epochs int
	// LearningRate is Adam's step size in centipawns (default 1).
	LearningRate float64
	// Lambda pulls every weight toward its start value: the loss gains
	// Lambda·Σ(w−w0)²/N (0: none).
	Lambda float64
	// K is the sigmoid's scale, sigmoid(K·eval/400); 0 fits it first on
	// the start weights.
	K float64
	// Freeze lists name prefixes of weights left as they are (see
	// WeightNames, e.g. "PstMg[5]" or "Mobility").
	Freeze []string
	// Progress, if set, is called after every epoch with its loss.
	Progress func(epoch int, loss float64)
}

// TuneReport describes a TuneTexel run.
type TuneReport struct {
	Positions, Params  int     // positions used, weights tuned
	K                  float64 // sigmoid scale used
	LossStart, LossEnd float64 // mean squared error before and after
	Epochs             int
}

// weightFields lists a Weights' ints in memory order (pointers into w).
func weightFields(w *Weights) (ptrs []*int, names []string) {
	v := reflect.ValueOf(w).Elem()
	var walk func(x reflect.Value, name string)
	walk = func(x reflect.Value, name string) {
		if x.Kind() == reflect.Array {
			for i := 0; i < x.Len(); i++ {
				walk(x.Index(i), fmt.Sprintf("%s[%d]", name, i))
			}
			return
		}
		ptrs = append(ptrs, x.Addr().Interface().(*int))
		names = append(names, name)
	}
	for i := 0; i < v.NumField(); i++ {
		walk(v.Field(i), v.Type().Field(i).Name)
	}
	return ptrs, names
}

// WeightNames returns the names of a Weights' ints in the order of its
// flat vector ("ValueMg[0]", "PstEg[3][17]", "TempoMg", …).
func WeightNames() []string {
	var w Weights
	_, names := weightFields(&w)
	return names
}

// isEgWeight reports whether a weight (by name) is an endgame term; the
// others are midgame terms (tapered by phase) or not linear at all.
func isEgWeight(name string) bool {
	field := name
	if i := strings.IndexByte(name, '['); i >= 0 {
		field = name[:i]
	}
	return strings.HasSuffix(field, "Eg") || field == "PassedFree" || field == "PasserKingFar" || field == "PasserKingNear"
}

// traceEntry is one weight's coefficient in a position (White's count
// minus Black's).
type traceEntry struct {
	idx  uint16
	coef int16
}

// texelSet is the traced training set: every position's linear features
// and the parts of its evaluation held constant.
type texelSet struct {
	entries          []traceEntry
	start            []int32 // position i's entries: entries[start[i]:start[i+1]]
	phase            []int8
	constMg, constEg []int32 // king-attack penalty (not linear in the weights)
	mop              []int32 // mop-up bonus
	divPos, divNeg   []int8  // drawish divisor when the score is > 0 / < 0
	result           []float32
	isEg             []bool // by weight index
}

func (ts *texelSet) len() int { return len(ts.result) }

// evalFloat is position i's evaluation (White's view) with weights p.
func (ts *texelSet) evalFloat(i int, p []float64) (score, dmg, deg float64) {
	mg, eg := float64(ts.constMg[i]), float64(ts.constEg[i])
	for _, e := range ts.entries[ts.start[i]:ts.start[i+1]] {
		if ts.isEg[e.idx] {
			eg += float64(e.coef) * p[e.idx]
		} else {
			mg += float64(e.coef) * p[e.idx]
		}
	}
	ph := float64(ts.phase[i])
	score = (mg*ph+eg*(maxPhase-ph))/maxPhase + float64(ts.mop[i])
	div := float64(ts.divPos[i])
	if score < 0 {
		div = float64(ts.divNeg[i])
	}
	return score / div, ph / maxPhase / div, (maxPhase - ph) / maxPhase / div
}

// evalInt is position i's evaluation with integer weights p computed the
// way Evaluate computes it (White's view).
func (ts *texelSet) evalInt(i int, p []int) int {
	mg, eg := int(ts.constMg[i]), int(ts.constEg[i])
	for _, e := range ts.entries[ts.start[i]:ts.start[i+1]] {
		if ts.isEg[e.idx] {
			eg += int(e.coef) * p[e.idx]
		} else {
			mg += int(e.coef) * p[e.idx]
		}
	}
	ph := int(ts.phase[i])
	score := (mg*ph+eg*(maxPhase-ph))/maxPhase + int(ts.mop[i])
	if score < 0 {
		return score / int(ts.divNeg[i])
	}
	return score / int(ts.divPos[i])
}

func sigmoid(k, e float64) float64 { return 1 / (1 + math.Pow(10, -k*e/400)) }

// loss is the mean squared error of sigmoid(K·eval/400) against the results.
func (ts *texelSet) loss(k float64, p []float64) float64 {
	sum := 0.0
	for i := 0; i < ts.len(); i++ {
		e, _, _ := ts.evalFloat(i, p)
		d := float64(ts.result[i]) - sigmoid(k, e)
		sum += d * d
	}
	return sum / float64(ts.len())
}

// fitK finds the K minimising the loss at p (golden-section search).
func (ts *texelSet) fitK(p []float64) float64 {
	lo, hi := 0.05, 5.0
	g := (math.Sqrt(5) - 1) / 2
	for hi-lo > 1e-4 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if ts.loss(a, p) < ts.loss(b, p) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// ReadTexelEPD reads training positions, one a line: a FEN (4 or 6
// fields) followed by the result as c9 "1-0"; / "0-1"; / "1/2-1/2"; or
// in brackets as a White score from 0 to 1 ([1.0], [0.5], [0.6414]: a
// game result or an expected score). Empty lines and lines starting with
// # are skipped.
func ReadTexelEPD(r io.Reader) ([]TexelPosition, error) {
	var out []TexelPosition
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := parseTexelLine(line)
		if err != nil {
			return nil, fmt.Errorf("search: texel epd line %d: %w", n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("search: texel epd: %w", err)
	}
	return out, nil
}

func parseTexelLine(line string) (TexelPosition, error) {
	var fen, res string
	switch {
	case strings.Contains(line, " c9 "):
		i := strings.Index(line, " c9 ")
		fen, res = line[:i], strings.Trim(strings.TrimSpace(line[i+4:]), `";`)
	case strings.HasSuffix(line, "]") && strings.LastIndexByte(line, '[') > 0:
		i := strings.LastIndexByte(line, '[')
		fen, res = strings.TrimSpace(line[:i]), line[i+1:len(line)-1]
	default:
		return TexelPosition{}, fmt.Errorf("no result in %q", line)
	}
	var v float64
	switch res {
	case "1-0", "1.0", "1":
		v = 1
	case "0-1", "0.0", "0":
		v = 0
	case "1/2-1/2", "0.5":
		v = 0.5
	default:
		// A bracketed target may be any probability: an engine's
		// evaluation turned into an expected score (docs/engines.md,
		// "tuned on Stockfish's evaluations").
		f, err := strconv.ParseFloat(res, 64)
		if err != nil || !strings.HasPrefix(line[len(fen):], " [") || !(f >= 0 && f <= 1) {
			return TexelPosition{}, fmt.Errorf("result %q (want 1-0, 0-1, 1/2-1/2 or a bracketed probability)", res)
		}
		v = f
	}
	if len(strings.Fields(fen)) == 4 {
		fen += " 0 1"
	}
	if _, err := board.FromFEN(fen); err != nil {
		return TexelPosition{}, fmt.Errorf("fen %q: %w", fen, err)
	}
	return TexelPosition{FEN: fen, Result: v}, nil
}

// TuneTexel fits w's linear weights to the positions by Texel's method:
// minimise the mean squared error between each game result and
// sigmoid(K·eval/400) of the position's EvalPlus evaluation (White's
// view), K fitted first on the start weights, by full-batch Adam on the
// traced features. The king-attack penalty (AttackerWeight,
// KingAttackScale: not linear), mop-up and the drawish scaling are held
// at their start values. Positions that are insufficient material are
// skipped. The result is rounded to integers.
func TuneTexel(ctx context.Context, positions []TexelPosition, w Weights, opts TuneOptions) (Weights, TuneReport, error) {
	ts, err := traceSet(positions, &w)
	if err != nil {
		return w, TuneReport{}, err
	}
	if ts.len() == 0 {
		return w, TuneReport{}, fmt.Errorf("search: texel: no usable positions")
	}
	if opts.Epochs == 0 {
		opts.Epochs = 300
	}
	if opts.LearningRate == 0 {
		opts.LearningRate = 1
	}
	ptrs, names := weightFields(&w)
	p0 := make([]float64, len(ptrs))
	for i, q := range ptrs {
		p0[i] = float64(*q)
	}
	free := tunableMask(names, opts.Freeze)
	rep := TuneReport{Positions: ts.len(), K: opts.K, Epochs: opts.Epochs}
	for _, f := range free {
		if f {
			rep.Params++
		}
	}
	if rep.K == 0 {
		rep.K = ts.fitK(p0)
	}
	rep.LossStart = ts.loss(rep.K, p0)
	p, err := adam(ctx, ts, p0, free, rep.K, opts)
	if err != nil {
		return w, rep, err
	}
	for i, q := range ptrs {
		if free[i] {
			*q = int(math.Round(p[i]))
		}
	}
	for i, q := range ptrs {
		p[i] = float64(*q)
	}
	rep.LossEnd = ts.loss(rep.K, p)
	return w, rep, nil
}

// tunableMask marks the weights TuneTexel may change: linear ones not
// frozen by a prefix.
func tunableMask(names, freeze []string) []bool {
	free := make([]bool, len(names))
	for i, n := range names {
		free[i] = !strings.HasPrefix(n, "AttackerWeight") && !strings.HasPrefix(n, "KingAttackScale") &&
			!strings.HasPrefix(n, "ValueMg[5]") && !strings.HasPrefix(n, "ValueEg[5]")
		for _, f := range freeze {
			if strings.HasPrefix(n, f) {
				free[i] = false
			}
		}
	}
	return free
}

// adam runs full-batch Adam from p0 on the weights marked free.
func adam(ctx context.Context, ts *texelSet, p0 []float64, free []bool, k float64, opts TuneOptions) ([]float64, error) {
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	p := append([]float64(nil), p0...)
	m, v, grad := make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	n := float64(ts.len())
	for ep := 1; ep <= opts.Epochs; ep++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("search: texel: %w", err)
		}
		clear(grad)
		sum := 0.0
		for i := 0; i < ts.len(); i++ {
			e, dmg, deg := ts.evalFloat(i, p)
			s := sigmoid(k, e)
			d := s - float64(ts.result[i])
			sum += d * d
			g := 2 * d * s * (1 - s) * math.Ln10 * k / 400
			for _, en := range ts.entries[ts.start[i]:ts.start[i+1]] {
				if ts.isEg[en.idx] {
					grad[en.idx] += g * float64(en.coef) * deg
				} else {
					grad[en.idx] += g * float64(en.coef) * dmg
				}
			}
		}
		c1, c2 := 1-math.Pow(beta1, float64(ep)), 1-math.Pow(beta2, float64(ep))
		for j := range p {
			if !free[j] {
				continue
			}
			gj := grad[j]/n + 2*opts.Lambda*(p[j]-p0[j])/n
			m[j] = beta1*m[j] + (1-beta1)*gj
			v[j] = beta2*v[j] + (1-beta2)*gj*gj
			p[j] -= opts.LearningRate * (m[j] / c1) / (math.Sqrt(v[j]/c2) + eps)
		}
		if opts.Progress != nil {
			opts.Progress(ep, sum/n)
		}
	}
	return p, nil
}

// FormatWeights renders w as a Go composite literal (Weights{…}), the
// piece-square tables eight squares a line from a1, ready to paste as
// compiled-in defaults.
func FormatWeights(w Weights) string {
	var sb strings.Builder
	v := reflect.ValueOf(w)
	sb.WriteString("Weights{\n")
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		fmt.Fprintf(&sb, "\t%s: ", v.Type().Field(i).Name)
		writeLiteral(&sb, f, "\t")
		sb.WriteString(",\n")
	}
	sb.WriteString("}")
	return sb.String()
}

func writeLiteral(sb *strings.Builder, x reflect.Value, indent string) {
	if x.Kind() != reflect.Array {
		fmt.Fprintf(sb, "%d", x.Int())
		return
	}
	sb.WriteString(x.Type().String() + "{")
	if x.Type().Elem().Kind() == reflect.Array {
		sb.WriteString("\n")
		for i := 0; i < x.Len(); i++ {
			sb.WriteString(indent + "\t")
			writeLiteralRows(sb, x.Index(i), indent+"\t")
			sb.WriteString(",\n")
		}
		sb.WriteString(indent + "}")
		return
	}
	for i := 0; i < x.Len(); i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(sb, "%d", x.Index(i).Int())
	}
	sb.WriteString("}")
}

// writeLiteralRows writes a [64]int eight values a line.
func writeLiteralRows(sb *strings.Builder, x reflect.Value, indent string) {
	sb.WriteString("{\n")
	for i := 0; i < x.Len(); i++ {
		if i%8 == 0 {
			sb.WriteString(indent + "\t")
		}
		fmt.Fprintf(sb, "%d,", x.Index(i).Int())
		if i%8 == 7 || i == x.Len()-1 {
			sb.WriteString("\n")
		} else {
			sb.WriteString(" ")
		}
	}
	sb.WriteString(indent + "}")
}
