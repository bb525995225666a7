package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/models/modeltest"
)

func predictEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	modeltest.Config(t, 1500)
	var out, errb bytes.Buffer
	return &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}, &out, &errb
}

// TestPredictJSON runs the build's default runtime and the pure-Go one
// (every build has it) on the same position.
func TestPredictJSON(t *testing.T) {
	for _, rt := range [][]string{nil, {"--runtime", "go"}} {
		name := "default"
		if rt != nil {
			name = strings.Join(rt, "=")
		}
		t.Run(name, func(t *testing.T) { checkPredictJSON(t, rt) })
	}
}

func checkPredictJSON(t *testing.T, extra []string) {
	env, out, errb := predictEnv(t)
	args := append([]string{"predict", "--maia", "1500", "--moves", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3", "--json"}, extra...)
	if code := run(context.Background(), args, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var res struct {
		Model string    `json:"model"`
		WDL   []float64 `json:"wdl"`
		Moves []struct {
			UCI string  `json:"uci"`
			P   float64 `json:"p"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Model != "maia-1500" || len(res.WDL) != 3 || math.Abs(res.WDL[0]-0.482) > 0.003 {
		t.Errorf("model %s wdl %v", res.Model, res.WDL)
	}
	// Golden: e8g8 0.4266 (standard UCI castling); every legal move listed.
	if res.Moves[0].UCI != "e8g8" || math.Abs(res.Moves[0].P-0.4266) > 0.002 {
		t.Errorf("top move %+v", res.Moves[0])
	}
	var sum float64
	for _, m := range res.Moves {
		sum += m.P
	}
	if len(res.Moves) < 30 || math.Abs(sum-1) > 0.01 {
		t.Errorf("%d moves summing to %v", len(res.Moves), sum)
	}
}

func TestPredictText(t *testing.T) {
	env, out, errb := predictEnv(t)
	if code := run(context.Background(), []string{"predict", "--maia", "1140", "--top", "2"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "maia-1100") || !strings.HasPrefix(lines[1], "e2e4   0.6606") {
		t.Errorf("output:\n%s", out)
	}
	env, _, errb = predictEnv(t)
	if code := run(context.Background(), []string{"predict", "--moves", "e2e4 e2e4"}, env); code != 1 || !strings.Contains(errb.String(), "e2e4") {
		t.Errorf("illegal move: exit %d, %s", code, errb)
	}
	env, _, errb = predictEnv(t)
	if code := run(context.Background(), []string{"predict", "--runtime", "tensorflow"}, env); code == 0 || !strings.Contains(errb.String(), "--runtime") {
		t.Errorf("unknown runtime: exit %d, %s", code, errb)
	}
}
