package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/lichess"
)

// MaxCloudPlies bounds the critical plies looked up in Lichess's cloud per
// game (two positions each, fewer when neighbours share one): the cloud
// eval API is for "a few positions here and there".
const MaxCloudPlies = 12

// CloudPosition is the cloud check of one critical ply: the judgement
// computed from Lichess's cloud evals of the positions before and after
// the move, with Lichess's rules, against ours.
type CloudPosition struct {
	Ply       int    `json:"ply"`
	SAN       string `json:"san"`
	FENBefore string `json:"fen_before"`
	FENAfter  string `json:"fen_after"`
	// Ours is our judgement ("Inaccuracy", "Mistake", "Blunder").
	Ours string `json:"ours"`
	// InCloud is false when either position is not in the cloud; Cloud,
	// the evals and Agree are then unset.
	InCloud bool `json:"in_cloud"`
	// Cloud is the judgement from the cloud evals ("none" when none).
	Cloud string `json:"cloud,omitempty"`
	// Before and After are the cloud evals (White's view); Best is the
	// cloud's best move before the move (UCI).
	Before *score.Score `json:"before,omitempty"`
	After  *score.Score `json:"after,omitempty"`
	Best   string       `json:"best,omitempty"`
	Agree  bool         `json:"agree"`
}

// CloudReport is the cloud check of a game.
type CloudReport struct {
	Positions []CloudPosition `json:"positions"`
	// Checked plies were judged from cloud evals, Agree of them like ours;
	// Missing plies had a position that is not in the cloud.
	Checked int `json:"checked"`
	Agree   int `json:"agree"`
	Missing int `json:"missing"`
	// Error, when set, is why the cloud check was skipped: the cloud
	// answered with a permanent error (Permanent).
	Error string `json:"error,omitempty"`
}

// CloudAPI is the part of the Lichess client the cloud check needs.
type CloudAPI interface {
	CloudEval(ctx context.Context, fen string, multiPV int, variant string) (*lichess.CloudEval, error)
}

// CheckCloud looks up the positions around our analysis's critical plies
// (those we judged an inaccuracy, mistake or blunder: at most
// MaxCloudPlies, the worst first) in Lichess's cloud and judges each ply
// from the cloud's evals with Lichess's rules (analysis.Judge and the
// best-move gate). A position not in the cloud (404) makes its ply
// missing; any other error (a 429 among them) stops the check.
//
// variant is the game's Lichess variant key: a Chess960 game is replayed
// with its castling rules and looked up in the Chess960 cloud.
func CheckCloud(ctx context.Context, api CloudAPI, ours *analysis.Analysis, variant string) (CloudReport, error) {
	chess960 := variant == "chess960"
	cloudVariant := ""
	if chess960 {
		cloudVariant = variant
	}
	boards, err := ours.ReplayBoards(ctx, chess960) // kept for the export's check
	if err != nil {
		return CloudReport{}, fmt.Errorf("verify: %w", err)
	}
	evals := map[string]*lichess.CloudEval{} // by FEN; nil: not in the cloud
	lookup := func(fen string) (*lichess.CloudEval, error) {
		if ev, ok := evals[fen]; ok {
			return ev, nil
		}
		ev, err := api.CloudEval(ctx, fen, 1, cloudVariant)
		if errors.Is(err, lichess.ErrNotFound) {
			ev, err = nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("verify: cloud eval of %q: %w", fen, err)
		}
		if ev != nil && len(ev.PVs) == 0 {
			ev = nil
		}
		evals[fen] = ev
		return ev, nil
	}
	var rep CloudReport
	for _, i := range criticalPlies(ours) {
		p := ours.Plies[i]
		cp := CloudPosition{Ply: p.Ply, SAN: p.SAN, Ours: p.Judgement.String(),
			FENBefore: boards[i].FEN(), FENAfter: boards[i+1].FEN()}
		before, err := lookup(cp.FENBefore)
		if err != nil {
			return rep, err
		}
		after, err := lookup(cp.FENAfter)
		if err != nil {
			return rep, err
		}
		if before != nil && after != nil {
			judgeFromCloud(&cp, i, p, before, after)
			rep.Checked++
			if cp.Agree {
				rep.Agree++
			}
		} else {
			rep.Missing++
		}
		rep.Positions = append(rep.Positions, cp)
	}
	return rep, nil
}

// judgeFromCloud fills cp from the cloud evals around ply i: Lichess's +15
// cp before the first move, the best-move gate from the cloud's first PV.
func judgeFromCloud(cp *CloudPosition, i int, p analysis.Ply, before, after *lichess.CloudEval) {
	prev, cur := cloudEval(before), cloudEval(after)
	if i == 0 {
		e := analysis.InitialEval
		prev = e
	}
	cp.Before, cp.After = &prev, &cur
	if f := strings.Fields(before.PVs[0].Moves); len(f) > 0 {
		cp.Best = f[0]
	}
	j := analysis.NoJudgement
	if !sameMove(cp.Best, p.UCI) {
		j = analysis.Judge(prev, cur, p.White()).Judgement
	}
	cp.InCloud = true
	cp.Cloud = j.Label()
	cp.Agree = j == p.Judgement
}

// cloudEval is the first PV's eval (White's view, as the cloud stores it).
func cloudEval(ev *lichess.CloudEval) score.Score {
	pv := ev.PVs[0]
	if pv.Mate != nil && *pv.Mate != 0 {
		return score.Mate(*pv.Mate)
	}
	if pv.CP != nil {
		return score.CP(*pv.CP)
	}
	return score.CP(0)
}

// sameMove compares UCI moves, reading castling written as the king taking
// its rook (e1h1, Lichess's internal form) as the standard e1g1.
func sameMove(a, b string) bool {
	norm := map[string]string{"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}
	if n, ok := norm[a]; ok {
		a = n
	}
	if n, ok := norm[b]; ok {
		b = n
	}
	return a != "" && a == b
}

// criticalPlies returns the indexes of the plies we judged, the most
// severe first (ties in game order), at most MaxCloudPlies, then sorted
// back into game order.
func criticalPlies(a *analysis.Analysis) []int {
	var out []int
	for sev := analysis.Blunder; sev >= analysis.Inaccuracy && len(out) < MaxCloudPlies; sev-- {
		for i, p := range a.Plies {
			if p.Judgement == sev && len(out) < MaxCloudPlies {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}
