package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/outpostchess/outpost/models"
)

func runPredict(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "predict", "--maia RATING [--start-fen FEN] [--moves \"e2e4 e7e5 …\"] [--runtime onnx|go] [--json]")
	rating := fs.Int("maia", 1500, "Maia-1 rating level (1100..1900; other ratings use the nearest level)")
	maia2 := fs.String("maia2", "", "use this Maia-2 ONNX file instead of Maia-1")
	opp := fs.Int("opp-rating", 0, "opponent rating for Maia-2 (default: --maia)")
	startFEN := fs.String("start-fen", "", "start position (default: standard start)")
	moves := fs.String("moves", "", "moves played from the start position, in UCI, space-separated")
	asJSON := fs.Bool("json", false, "print JSON: {\"model\",\"wdl\",\"moves\":[{\"uci\",\"p\"}…]}")
	top := fs.Int("top", 0, "print only the N most likely moves (text output; 0 = all)")
	runtime := fs.String("runtime", "", "inference runtime: onnx (ONNX Runtime, cgo builds) or go (pure-Go Maia-1); default: [models] runtime, else the build's")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := checkRating(fs, "maia", "opp-rating"); err != nil {
		return err
	}
	if *top < 0 {
		return fmt.Errorf("--top %d: want 0 (all moves) or more", *top)
	}
	cfg, err := models.LoadConfig()
	if err != nil {
		return err
	}
	if *runtime != "" {
		cfg.Runtime = *runtime
		if cfg, err = cfg.Resolve(); err != nil {
			return fmt.Errorf("--runtime: %w", err)
		}
	}
	req := models.Request{StartFEN: *startFEN, Moves: strings.Fields(*moves), Rating: *rating, OppRating: *opp}
	if *maia2 != "" {
		cfg.Maia2Model = *maia2
		req.Model = models.Maia2Name
	}
	pred, err := models.NewPredictor(cfg)
	if err != nil {
		return err
	}
	defer pred.Close()
	pr, err := pred.PredictOne(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return writePredictionJSON(env, pr)
	}
	if pr.HasWDL {
		fmt.Fprintf(env.Stdout, "%s  W %.3f  D %.3f  L %.3f  (side to move)\n", pr.Model, pr.WDL[0], pr.WDL[1], pr.WDL[2])
	} else {
		fmt.Fprintf(env.Stdout, "%s  win probability %.3f (side to move)\n", pr.Model, pr.Win)
	}
	if len(pr.Moves) == 0 {
		fmt.Fprintln(env.Stdout, "no legal moves (game over)")
	}
	for i, m := range pr.Moves {
		if *top > 0 && i >= *top {
			break
		}
		fmt.Fprintf(env.Stdout, "%-6s %.4f\n", m.UCI, m.P)
	}
	return nil
}

type predictJSON struct {
	Model string         `json:"model"`
	WDL   []float64      `json:"wdl,omitempty"`
	Win   *float64       `json:"win,omitempty"` // Maia-2 only
	Moves []predictMoveJ `json:"moves"`
}

type predictMoveJ struct {
	UCI string  `json:"uci"`
	P   float64 `json:"p"`
}

// round4 rounds to 4 decimals.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func writePredictionJSON(env *Env, pr models.Prediction) error {
	out := predictJSON{Model: pr.Model, Win: nil, Moves: make([]predictMoveJ, len(pr.Moves))}
	if !pr.HasWDL {
		w := round4(pr.Win)
		out.Win = &w
	} else {
		out.WDL = []float64{round4(pr.WDL[0]), round4(pr.WDL[1]), round4(pr.WDL[2])}
	}
	for i, m := range pr.Moves {
		out.Moves[i] = predictMoveJ{UCI: m.UCI, P: round4(m.P)}
	}
	enc := json.NewEncoder(env.Stdout)
	return enc.Encode(out)
}
