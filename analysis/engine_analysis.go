package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/internal/uci"
)

// MaxAnalysedPlies is where Lichess cuts its analysis; later plies get no
// eval.
const MaxAnalysedPlies = 300

// DefaultBorderlineBand is the default distance to a threshold within which
// a judgement is re-searched deeper (and marked borderline if it stays).
const DefaultBorderlineBand = 0.03

// EngineOptions shape an engine analysis.
type EngineOptions struct {
	Budget Budget
	// BorderlineBand: plies whose delta is within this distance of a
	// threshold get both positions re-searched with Budget.Deeper(
	// RefineFactor). 0 means DefaultBorderlineBand; negative disables.
	BorderlineBand float64
	RefineFactor   int // default 4
	ChunkSize      int // see SearchOptions (default 6)
	// Progress reports positions done / total (including re-searches,
	// which extend the total).
	Progress func(done, total int)
}

// LineMaxPlies is the longest engine line written in comments (Lichess's).
const LineMaxPlies = 12

// gamePositions lists the positions of g (before each move and after the
// last), with the board of each.
type gamePositions struct {
	boards []*replay.Board
	fen    string
	moves  []string
}

func positionsOf(g *Game) (*gamePositions, error) {
	b, err := replay.New(g.StartFEN)
	if err != nil {
		return nil, err
	}
	gp := &gamePositions{fen: g.StartFEN, boards: []*replay.Board{b}}
	n := min(len(g.Moves), MaxAnalysedPlies)
	for i := 0; i < n; i++ {
		m, err := b.ParseUCI(g.Moves[i].UCI)
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
		b = b.Play(m)
		gp.boards = append(gp.boards, b)
		gp.moves = append(gp.moves, g.Moves[i].UCI)
	}
	return gp, nil
}

func (gp *gamePositions) job(k int, lim uci.Limits) Job {
	b := gp.boards[k]
	j := Job{Pos: uci.Position{FEN: gp.fen, Moves: gp.moves[:k]}, WhiteToMove: b.WhiteToMove(), Limits: lim}
	switch {
	case b.Checkmate():
		j.Skip = true // no eval, as Lichess
	case b.Stalemate():
		e := CPEval(0)
		j.Skip, j.Fixed = true, Outcome{Eval: &e}
	}
	return j
}

// AnalyseGames analyses the games with the pool's engines. Every position
// of every game is spread over the workers; borderline plies are then
// re-searched deeper. A game that cannot be analysed gets an error in errs
// (same index) and a nil analysis; the others are kept.
func (p *Pool) AnalyseGames(ctx context.Context, games []*Game, opt EngineOptions) ([]*Analysis, []error, error) {
	if opt.BorderlineBand == 0 {
		opt.BorderlineBand = DefaultBorderlineBand
	}
	if opt.RefineFactor == 0 {
		opt.RefineFactor = 4
	}
	lim := opt.Budget.Limits()
	deep := opt.Budget.Deeper(opt.RefineFactor).Limits()
	results := make([]*Analysis, len(games))
	errs := make([]error, len(games))
	pos := make([]*gamePositions, len(games))
	var jobs []Job
	type ref struct{ game, k int }
	var refs []ref
	for gi, g := range games {
		gp, err := positionsOf(g)
		if err != nil {
			errs[gi] = fmt.Errorf("analysis: game %s: %w", g.Key(), err)
			continue
		}
		pos[gi] = gp
		for k := range gp.boards {
			jobs = append(jobs, gp.job(k, lim))
			refs = append(refs, ref{gi, k})
		}
	}
	total := len(jobs)
	progress := func(done, _ int) {
		if opt.Progress != nil {
			opt.Progress(done, total)
		}
	}
	outs, err := p.Search(ctx, jobs, SearchOptions{ChunkSize: opt.ChunkSize, Progress: progress})
	if err != nil {
		return nil, nil, err
	}
	per := make([][]Outcome, len(games))
	for i, r := range refs {
		if per[r.game] == nil {
			per[r.game] = make([]Outcome, len(pos[r.game].boards))
		}
		per[r.game][r.k] = outs[i]
	}
	engine := p.EngineName() + " " + opt.Budget.String()
	build := func(gi int, borderline map[int]bool) (*Analysis, error) {
		evals := pliesFromOutcomes(games[gi], pos[gi], per[gi], borderline)
		return Build(games[gi], evals, engine)
	}
	// first pass; collect borderline plies
	var reJobs []Job
	var reRefs []ref
	queued := map[ref]bool{}
	for gi := range games {
		if pos[gi] == nil {
			continue
		}
		a, err := build(gi, nil)
		if err != nil {
			errs[gi] = err
			continue
		}
		results[gi] = a
		if opt.BorderlineBand < 0 {
			continue
		}
		for _, i := range borderlinePlies(a, opt.BorderlineBand) {
			for _, k := range []int{i, i + 1} { // positions before and after ply i+1
				r := ref{gi, k}
				if !queued[r] {
					queued[r] = true
					reJobs = append(reJobs, pos[gi].job(k, deep))
					reRefs = append(reRefs, r)
				}
			}
		}
	}
	if len(reJobs) > 0 {
		base := total
		total += len(reJobs)
		reOuts, err := p.Search(ctx, reJobs, SearchOptions{ChunkSize: 1, Progress: func(done, _ int) { progress(base+done, total) }})
		if err != nil {
			return nil, nil, err
		}
		touched := map[int]bool{}
		for i, r := range reRefs {
			per[r.game][r.k] = reOuts[i]
			touched[r.game] = true
		}
		for gi := range touched {
			a, err := build(gi, nil)
			if err != nil {
				errs[gi] = err
				results[gi] = nil
				continue
			}
			still := map[int]bool{}
			for _, i := range borderlinePlies(a, opt.BorderlineBand) {
				still[i] = true
			}
			if len(still) > 0 {
				a, err = build(gi, still)
				if err != nil {
					errs[gi] = err
					results[gi] = nil
					continue
				}
			}
			results[gi] = a
		}
	}
	return results, errs, nil
}

// borderlinePlies returns the 0-based plies whose judgeable delta lies
// within band of a threshold.
func borderlinePlies(a *Analysis, band float64) []int {
	var out []int
	for i := range a.Plies {
		p := &a.Plies[i]
		if p.Delta == nil || p.gate == GateClosed {
			continue
		}
		for _, t := range Thresholds {
			if math.Abs(*p.Delta-t) <= band {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// pliesFromOutcomes turns position outcomes into Build's per-ply input.
func pliesFromOutcomes(g *Game, gp *gamePositions, outs []Outcome, borderline map[int]bool) []PlyEval {
	evals := make([]PlyEval, len(g.Moves))
	for i := range g.Moves {
		if i+1 >= len(outs) {
			break // beyond the analysed plies
		}
		before, after := outs[i], outs[i+1]
		pe := PlyEval{Eval: after.Eval, Borderline: borderline[i]}
		switch {
		case before.BestUCI == "":
			pe.Gate = GateUnknown
		case before.BestUCI == g.Moves[i].UCI:
			pe.Gate = GateClosed
		default:
			pe.Gate = GateOpen
			pe.BestUCI = before.BestUCI
			line := before.PV
			if len(line) == 0 || line[0] != before.BestUCI {
				line = []string{before.BestUCI}
			}
			pe.Variation = gp.boards[i].LineSAN(line, LineMaxPlies)
			if len(pe.Variation) > 0 {
				pe.BestSAN = pe.Variation[0]
			}
		}
		evals[i] = pe
	}
	return evals
}
