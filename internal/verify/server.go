package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/lichess"
)

// ExportAPI is the part of the Lichess client the server-analysis check
// needs.
type ExportAPI interface {
	ExportGame(ctx context.Context, id string, o lichess.ExportOptions) (*lichess.Game, error)
}

// exportOptions asks for the server analysis with the players' accuracy.
var exportOptions = lichess.ExportOptions{Evals: true, Accuracy: true}

// ServerReport is the comparison of our analysis with Lichess's server
// analysis of the same game.
type ServerReport struct {
	// Judgements counts the plies either analysis flagged; Agree those
	// both judged alike (the same name).
	Judgements int `json:"judgements"`
	Agree      int `json:"agree"`
	// Comparison is the full comparison, as `outpost compare` computes it.
	Comparison *analysis.Comparison `json:"comparison"`
	// Period is the period of Lichess's analysis detected from its evals
	// (analysis.Detection.String), "" when detection is off.
	Period string `json:"period,omitempty"`
}

// Detector finds the period of Lichess's analysis of a game from its evals
// (analysis.DetectPeriod with its engines).
type Detector func(ctx context.Context, g *analysis.Game) (*analysis.Detection, error)

// DetectWithEngines is the Detector that runs this machine's engines
// (analysis.DetectPeriod's defaults: each obtainable period's engine, one
// worker, 16 MB hash).
func DetectWithEngines(ctx context.Context, g *analysis.Game) (*analysis.Detection, error) {
	return analysis.DetectPeriod(ctx, g, analysis.DetectOptions{})
}

// CheckServer fetches the game's export with evals and, when Lichess has
// analysed it, compares ours with it judgement by judgement exactly as
// `outpost compare` does (analysis.Compare on Lichess's own evals and
// stated judgements). found is false when the export has no analysis yet.
// ours is compared as it is: the summary's analysis, just made, carries
// its best-move gates and previous evals (a stored one, decoded from JSON,
// does not: CheckServerDetect rebuilds it). The one Build is Lichess's.
func CheckServer(ctx context.Context, api ExportAPI, ours *analysis.Analysis) (rep ServerReport, found bool, err error) {
	return checkServer(ctx, api, ours, nil, false)
}

// CheckServerDetect is CheckServer for a stored analysis: ours is rebuilt
// from its evals first (Rebuild), so that the comparison can name the
// causes of disagreements; with a detector it also says which period's
// method gave Lichess's evals (ServerReport.Period). A detection that
// fails is reported in Period, not as the check's error.
func CheckServerDetect(ctx context.Context, api ExportAPI, ours *analysis.Analysis, detect Detector) (rep ServerReport, found bool, err error) {
	return checkServer(ctx, api, ours, detect, true)
}

func checkServer(ctx context.Context, api ExportAPI, ours *analysis.Analysis, detect Detector, rebuild bool) (rep ServerReport, found bool, err error) {
	lg, err := api.ExportGame(ctx, ours.ID, exportOptions)
	if err != nil {
		return ServerReport{}, false, fmt.Errorf("verify: export of %s: %w", ours.ID, err)
	}
	if len(lg.Analysis) == 0 {
		return ServerReport{}, false, nil
	}
	// read on our boards when we have them (the summary's analysis, or a
	// stored one the cloud check replayed) and the export's start and moves
	// are ours as written: the export is not replayed. Otherwise it is
	// (from the export's own start), and sameMoves names the first move
	// that differs.
	var boards []*replay.Board
	if startFEN(lg.InitialFEN) == startFEN(ours.FEN) && sameSAN(lg.Moves, ours) {
		boards = ours.Boards()
	}
	g, err := comparerun.ConvertGame(ctx, lg, "lichess", 1, boards)
	if err != nil {
		return ServerReport{}, false, fmt.Errorf("verify: export of %s: %w", ours.ID, err)
	}
	if g.Lichess == nil || !g.Lichess.FromLichess() {
		return ServerReport{}, false, nil
	}
	mine := ours
	if err := sameMoves(g, ours); err != nil {
		return ServerReport{}, false, err
	}
	if rebuild {
		if mine, err = Rebuild(g, ours); err != nil {
			return ServerReport{}, false, err
		}
		analysis.CountBuild(ctx)
	}
	theirs, err := analysis.BuildLichess(g)
	if err != nil {
		return ServerReport{}, false, fmt.Errorf("verify: Lichess's analysis of %s: %w", ours.ID, err)
	}
	analysis.CountBuild(ctx)
	rep = reportOf(analysis.Compare(mine, theirs, g.Lichess))
	if detect != nil {
		d, err := detect(ctx, g)
		switch {
		case ctx.Err() != nil:
			return ServerReport{}, false, ctx.Err()
		case err != nil:
			rep.Period = "not detected: " + err.Error()
		default:
			rep.Period = d.String()
		}
	}
	return rep, true, nil
}

// sameMoves checks that ours is an analysis of the export's game: the same
// plies, move by move.
func sameMoves(g *analysis.Game, ours *analysis.Analysis) error {
	if len(ours.Plies) != len(g.Moves) {
		return fmt.Errorf("verify: game %s: our analysis has %d plies, Lichess's export %d", ours.ID, len(ours.Plies), len(g.Moves))
	}
	for i, p := range ours.Plies {
		if p.UCI != g.Moves[i].UCI {
			return fmt.Errorf("verify: game %s: ply %d: our analysis has %s, Lichess's export %s", ours.ID, i+1, p.UCI, g.Moves[i].UCI)
		}
	}
	return nil
}

// startFEN is a game's start position as a FEN, the standard one when
// none is given.
func startFEN(fen string) string {
	if fen = strings.TrimSpace(fen); fen == "" {
		return replay.StandardFEN
	}
	return fen
}

// sameSAN reports whether the export's moves (SAN, space-separated) are
// our analysis's, as written.
func sameSAN(moves string, ours *analysis.Analysis) bool {
	sans := strings.Fields(moves)
	if len(sans) != len(ours.Plies) {
		return false
	}
	for i, p := range ours.Plies {
		if p.SAN != sans[i] {
			return false
		}
	}
	return true
}

// reportOf counts the flagged plies of a comparison.
func reportOf(c *analysis.Comparison) ServerReport {
	neither := c.Confusion[analysis.NoJudgement.Label()][analysis.NoJudgement.Label()]
	return ServerReport{Judgements: c.Plies - neither, Agree: c.Agree - neither, Comparison: c}
}

// Rebuild judges g's moves again from our stored analysis's evals and best
// moves (analysis.Build), so that the result carries what JSON does not
// keep (the best-move gate, the eval before each move) and Compare can
// name the causes of disagreements. The judgements are the stored ones.
func Rebuild(g *analysis.Game, ours *analysis.Analysis) (*analysis.Analysis, error) {
	if err := sameMoves(g, ours); err != nil {
		return nil, err
	}
	evals := make([]analysis.PlyEval, len(ours.Plies))
	for i, p := range ours.Plies {
		pe := analysis.PlyEval{Eval: p.Eval, Variation: p.Variation, Borderline: p.Borderline}
		if p.BestUCI != nil {
			pe.BestUCI = *p.BestUCI
			pe.Gate = analysis.GateOpen
			if *p.BestUCI == p.UCI {
				pe.Gate = analysis.GateClosed
			}
		}
		if p.BestSAN != nil {
			pe.BestSAN = *p.BestSAN
		}
		evals[i] = pe
	}
	a, err := analysis.Build(g, evals, ours.Engine)
	if err != nil {
		return nil, fmt.Errorf("verify: rebuild our analysis of %s: %w", ours.ID, err)
	}
	return a, nil
}
