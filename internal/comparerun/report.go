package comparerun

import (
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
)

// Params are a run's recorded parameters; a run is resumed only with equal
// parameters.
type Params struct {
	Source SourceParams `json:"source"`
	Budget string       `json:"budget"` // "nodes 1000000"
	// BorderlineBand is the re-search band (negative: off; 0: the default,
	// analysis.DefaultBorderlineBand, and off for the games analysed by a
	// method that reproduces Lichess's engine run exactly).
	BorderlineBand float64 `json:"borderline_band"`
	// Engine is the engine command line; with a budget by period, "by
	// period" and the engines each game ran are in its games[].engine.
	Engine string `json:"engine"`
	// EngineFrom says where the engine came from when a preset is
	// involved: "the lichess-sf16 preset's engine", or "--engine, instead
	// of the lichess-sf16 preset's sf16: not the preset's engine".
	EngineFrom string `json:"engine_from,omitempty"`
	// DetectPeriod is set when each game's period was detected from its
	// evals (games[].period).
	DetectPeriod bool `json:"detect_period,omitempty"`
}

func (p Params) encode() string {
	b, _ := json.Marshal(p) // plain data: cannot fail
	return string(b)
}

// RunReport is the result of one run: the per-game figures, the aggregate
// and the trend against the user's earlier runs.
type RunReport struct {
	RunID      int64     `json:"run_id"`
	User       string    `json:"user"`
	Params     Params    `json:"params"`
	Engine     string    `json:"engine,omitempty"` // the engine's own name, when it ran
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	// Resumed is true when an interrupted run was continued; Reused games
	// came from the store, Analysed games were analysed now.
	Resumed  bool `json:"resumed"`
	Reused   int  `json:"reused"`
	Analysed int  `json:"analysed"`
	// Games has one row per game of the run, compared or not.
	Games []GameSummary `json:"games"`
	// Skipped lists games that could not be read at all.
	Skipped   []string          `json:"skipped,omitempty"`
	Aggregate *report.Aggregate `json:"aggregate"`
	Players   PlayerStats       `json:"players"`
	Headline  Headline          `json:"headline"`
	// Trend holds the headline of this run and the user's earlier finished
	// runs, newest first (not stored with the run).
	Trend []TrendRow `json:"trend,omitempty"`
}

// GameSummary is one game's comparison in brief.
type GameSummary struct {
	ID     string `json:"id"`
	White  string `json:"white"`
	Black  string `json:"black"`
	Result string `json:"result"`
	// Error says why the game was not compared.
	Error string `json:"error,omitempty"`
	// Preset is the preset chosen by date (GameRecord.Preset).
	Preset string `json:"preset,omitempty"`
	// Engine is the engine the game was analysed with (GameRecord.Engine).
	Engine string `json:"engine,omitempty"`
	// Period is the period detected from the evals (GameRecord.Period).
	Period    string                  `json:"period,omitempty"`
	Judgments analysis.JudgmentCounts `json:"judgments"`
	F1        *float64                `json:"f1"`
	EvalMAECP float64                 `json:"eval_mae_cp"`
	WhiteDiff analysis.PlayerDiff     `json:"white_diff"`
	BlackDiff analysis.PlayerDiff     `json:"black_diff"`
	Causes    map[string]int          `json:"causes,omitempty"`
}

// PlayerStats sums the per-player accuracy and ACPL differences (ours
// minus Lichess's).
type PlayerStats struct {
	All DiffStats `json:"all"`
	// User and Opponents split All by whether the player is the run's user
	// (Lichess runs only).
	User      *DiffStats `json:"user,omitempty"`
	Opponents *DiffStats `json:"opponents,omitempty"`
}

// DiffStats are mean and mean absolute differences over players.
type DiffStats struct {
	Accuracy        int     `json:"accuracy_players"`
	AccuracyMean    float64 `json:"accuracy_mean"`
	AccuracyMeanAbs float64 `json:"accuracy_mean_abs"`
	ACPL            int     `json:"acpl_players"`
	ACPLMean        float64 `json:"acpl_mean"`
	ACPLMeanAbs     float64 `json:"acpl_mean_abs"`
}

func (d *DiffStats) add(p analysis.PlayerDiff) {
	if p.AccuracyDiff != nil {
		d.Accuracy++
		d.AccuracyMean += *p.AccuracyDiff
		d.AccuracyMeanAbs += math.Abs(*p.AccuracyDiff)
	}
	if p.ACPLDiff != nil {
		d.ACPL++
		d.ACPLMean += float64(*p.ACPLDiff)
		d.ACPLMeanAbs += math.Abs(float64(*p.ACPLDiff))
	}
}

func (d *DiffStats) finish() {
	if d.Accuracy > 0 {
		d.AccuracyMean /= float64(d.Accuracy)
		d.AccuracyMeanAbs /= float64(d.Accuracy)
	}
	if d.ACPL > 0 {
		d.ACPLMean /= float64(d.ACPL)
		d.ACPLMeanAbs /= float64(d.ACPL)
	}
}

// Headline holds a run's key figures (also the trend's columns).
type Headline struct {
	Games int `json:"games"`
	// Flagged is the number of Lichess-flagged plies; SameName the share
	// of them we judged with the same name.
	Flagged   int      `json:"flagged"`
	SameName  *float64 `json:"same_name"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	F1        *float64 `json:"f1"`
	// Agree and WithinOne are shares of all compared plies.
	Agree         *float64 `json:"agree"`
	WithinOne     *float64 `json:"within_one_grade"`
	EvalMAECP     float64  `json:"eval_mae_cp"`
	AccuracyMAE   float64  `json:"accuracy_mae"`
	ACPLMAE       float64  `json:"acpl_mae"`
	Disagreements int      `json:"disagreements"`
}

// TrendRow is one run's headline in the trend.
type TrendRow struct {
	RunID     int64     `json:"run_id"`
	StartedAt time.Time `json:"started_at"`
	Budget    string    `json:"budget"`
	Headline  Headline  `json:"headline"`
}

// summarise fills the report's games, aggregate, player stats and headline
// from the records (in order).
func (r *RunReport) summarise(records []GameRecord, user string) {
	var analyses []*analysis.Analysis
	var stats PlayerStats
	var us, them DiffStats
	for _, rec := range records {
		gs := GameSummary{ID: rec.ID, White: rec.White, Black: rec.Black, Result: rec.Result, Error: rec.Error, Preset: rec.Preset, Engine: rec.Engine, Period: rec.Period}
		a := rec.Analysis
		if a != nil {
			gs.White, gs.Black, gs.Result = a.Players.White.Name, a.Players.Black.Name, a.Result
			if r.Engine == "" {
				r.Engine = a.Engine
			}
		}
		if a != nil && a.Comparison != nil && rec.Error == "" {
			c := a.Comparison
			gs.Judgments, gs.F1, gs.EvalMAECP = c.Judgments, c.F1, c.EvalMAECP
			gs.WhiteDiff, gs.BlackDiff, gs.Causes = c.White, c.Black, c.Causes
			analyses = append(analyses, a)
			stats.All.add(c.White)
			stats.All.add(c.Black)
			if user != "" {
				for _, side := range []struct {
					name string
					diff analysis.PlayerDiff
				}{{a.Players.White.Name, c.White}, {a.Players.Black.Name, c.Black}} {
					if strings.EqualFold(side.name, user) {
						us.add(side.diff)
					} else {
						them.add(side.diff)
					}
				}
			}
		}
		r.Games = append(r.Games, gs)
	}
	stats.All.finish()
	if user != "" {
		us.finish()
		them.finish()
		stats.User, stats.Opponents = &us, &them
	}
	r.Players = stats
	r.Aggregate = report.AggregateComparisons(analyses)
	r.Headline = headline(r.Aggregate, stats.All)
}

func headline(ag *report.Aggregate, d DiffStats) Headline {
	h := Headline{AccuracyMAE: d.AccuracyMeanAbs, ACPLMAE: d.ACPLMeanAbs}
	if ag == nil {
		return h
	}
	h.Games, h.Flagged = ag.Games, ag.Judgments.Lichess
	h.SameName, h.Precision, h.Recall, h.F1 = ag.SameNameRate, ag.Precision, ag.Recall, ag.F1
	if ag.Plies > 0 {
		a := float64(ag.Agree) / float64(ag.Plies)
		w := float64(ag.WithinOneGrade) / float64(ag.Plies)
		h.Agree, h.WithinOne = &a, &w
	}
	h.EvalMAECP = ag.EvalMAECP
	h.Disagreements = ag.Disagreements
	return h
}

// trendRows reads the headlines of finished runs (newest first).
func trendRows(runs []StoredRun) []TrendRow {
	var out []TrendRow
	for _, run := range runs {
		if run.State != RunFinished {
			continue
		}
		var rep RunReport
		if err := json.Unmarshal([]byte(run.Report), &rep); err != nil {
			continue // a report from another version: left out of the trend
		}
		out = append(out, TrendRow{RunID: run.ID, StartedAt: run.StartedAt, Budget: rep.Params.Budget, Headline: rep.Headline})
	}
	return out
}
