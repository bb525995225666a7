package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
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
	ChunkSize      int // see SearchOptions (default FishnetChunk)
	// Progress reports positions done / total (including re-searches,
	// which extend the total).
	Progress func(done, total int)
}

// LineMaxPlies is the longest engine line written in comments (Lichess's).
const LineMaxPlies = 12

// gamePositions lists the positions of g (before each move and after the
// last), with the board of each.
type gamePositions struct {
	boards   []*replay.Board
	fen      string
	moves    []string
	chess960 bool
}

// positionsOf replays g once: the boards of its first MaxAnalysedPlies
// plies, and the SAN of every move that has none (a game given in UCI
// only, as the daemon's store holds it, gets its SAN here, and its UCI
// written as the board writes it).
func positionsOf(ctx context.Context, g *Game) (*gamePositions, error) {
	CountReplay(ctx)
	b, err := replay.NewVariant(g.StartFEN, g.Chess960())
	if err != nil {
		return nil, err
	}
	gp := &gamePositions{fen: g.StartFEN, boards: []*replay.Board{b}, chess960: g.Chess960()}
	n := min(len(g.Moves), MaxAnalysedPlies)
	for i := range g.Moves {
		if i >= n && g.Moves[i].SAN != "" {
			break
		}
		m, err := b.ParseUCI(g.Moves[i].UCI)
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
		if g.Moves[i].SAN == "" {
			g.Moves[i].SAN, g.Moves[i].UCI = m.SAN, m.UCI
		}
		b = b.Play(m)
		if i < n {
			gp.boards = append(gp.boards, b)
			gp.moves = append(gp.moves, g.Moves[i].UCI)
		}
	}
	return gp, nil
}

func (gp *gamePositions) job(k int, lim uci.Limits) Job {
	b := gp.boards[k]
	j := Job{Pos: uci.Position{FEN: gp.fen, Moves: gp.moves[:k], Chess960: gp.chess960}, WhiteToMove: b.WhiteToMove(), Limits: lim}
	switch {
	case b.Checkmate():
		j.Skip = true // no eval, as Lichess
	case b.Stalemate():
		e := score.CP(0)
		j.Skip, j.Fixed = true, Outcome{Eval: &e}
	}
	return j
}

// AnalyseGames analyses the games with the pool's engines, one game after
// the other, each game's positions spread over the workers; borderline
// plies are then re-searched deeper. A game that cannot be analysed gets
// an error in errs (same index) and a nil analysis; the others are kept.
// When ctx ends, the games finished so far are returned with ctx's error.
func (p *Pool) AnalyseGames(ctx context.Context, games []*Game, opt EngineOptions) ([]*Analysis, []error, error) {
	if opt.BorderlineBand == 0 {
		opt.BorderlineBand = DefaultBorderlineBand
	}
	if opt.RefineFactor == 0 {
		opt.RefineFactor = 4
	}
	results := make([]*Analysis, len(games))
	errs := make([]error, len(games))
	pos := make([]*gamePositions, len(games))
	total := 0
	for gi, g := range games {
		gp, err := positionsOf(ctx, g)
		if err != nil {
			errs[gi] = fmt.Errorf("analysis: game %s: %w", g.Key(), err)
			continue
		}
		pos[gi] = gp
		total += len(gp.boards)
	}
	done := 0
	tracker := &progressTracker{report: opt.Progress, done: &done, total: &total}
	for gi, g := range games {
		if pos[gi] == nil {
			continue
		}
		a, err := p.analyseOne(ctx, g, pos[gi], opt, tracker)
		if err != nil {
			if ctx.Err() != nil {
				return results, errs, ctx.Err()
			}
			errs[gi] = fmt.Errorf("analysis: game %s: %w", g.Key(), err)
			continue
		}
		a.boards, a.boards960 = pos[gi].boards, pos[gi].chess960
		results[gi] = a
	}
	return results, errs, nil
}

// progressTracker turns per-search progress into overall progress.
type progressTracker struct {
	report      func(done, total int)
	done, total *int
}

func (t *progressTracker) search(extra int) func(done, total int) {
	base := *t.done
	*t.total += extra
	return func(d, _ int) {
		*t.done = base + d
		if t.report != nil {
			t.report(*t.done, *t.total)
		}
	}
}

func (p *Pool) analyseOne(ctx context.Context, g *Game, gp *gamePositions, opt EngineOptions, tr *progressTracker) (*Analysis, error) {
	// as fishnet: chunks of 5 from the game's end, each searched backwards
	// after ucinewgame and a warm-up search of the overlap position, at 6/7
	// of the node budget (fishnet up to 2.6: every position on its own)
	lim := opt.Budget.FishnetLimits()
	jobs := make([]Job, len(gp.boards))
	for k := range gp.boards {
		jobs[k] = gp.job(k, lim)
	}
	sopt := SearchOptions{ChunkSize: opt.ChunkSize, Overlap: true, Progress: tr.search(0)}
	if opt.Budget.FreshHash {
		sopt.ChunkSize, sopt.Overlap = 1, false
	}
	outs, err := p.Search(ctx, jobs, sopt)
	if err != nil {
		return nil, err
	}
	engine := p.EngineName() + " " + opt.Budget.String()
	CountBuild(ctx)
	a, err := Build(g, pliesFromOutcomes(g, gp, outs, nil), engine)
	if err != nil || opt.BorderlineBand < 0 {
		return a, err
	}
	border := borderlinePlies(a, opt.BorderlineBand)
	if len(border) == 0 {
		return a, nil
	}
	deep := opt.Budget.Deeper(opt.RefineFactor).Limits()
	var reJobs []Job
	var reK []int
	queued := map[int]bool{}
	for _, i := range border {
		for _, k := range []int{i, i + 1} { // the positions before and after ply i+1
			if !queued[k] {
				queued[k] = true
				reJobs = append(reJobs, gp.job(k, deep))
				reK = append(reK, k)
			}
		}
	}
	reOuts, err := p.Search(ctx, reJobs, SearchOptions{ChunkSize: 1, Progress: tr.search(len(reJobs))})
	if err != nil {
		return nil, err
	}
	for i, k := range reK {
		outs[k] = reOuts[i]
	}
	CountBuild(ctx)
	a, err = Build(g, pliesFromOutcomes(g, gp, outs, nil), engine)
	if err != nil {
		return nil, err
	}
	still := map[int]bool{}
	for _, i := range borderlinePlies(a, opt.BorderlineBand) {
		still[i] = true
	}
	if len(still) == 0 {
		return a, nil
	}
	CountBuild(ctx)
	return Build(g, pliesFromOutcomes(g, gp, outs, still), engine)
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
			pe.BestUCI, pe.BestSAN = before.BestUCI, g.Moves[i].SAN
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
