package comparerun

import (
	"encoding/json"
	"fmt"

	"github.com/outpostchess/outpost/analysis"
)

// GameRecord is what a run stores for one game (RunStore.SaveRunGame's
// result, JSON): our full analysis with its comparison, or why the game
// was not compared.
type GameRecord struct {
	ID string `json:"id"`
	// White, Black and Result describe the game.
	White  string `json:"white,omitempty"`
	Black  string `json:"black,omitempty"`
	Result string `json:"result,omitempty"`
	// Error says why the game has no comparison ("" when it has one).
	Error string `json:"error,omitempty"`
	// Preset says which preset (and engine) the game was analysed with when
	// the run picks them by date, and whether that reproduces Lichess
	// exactly.
	Preset string `json:"preset,omitempty"`
	// Engine is the engine command line the game was analysed with (the
	// preset's engine by period, else the run's).
	Engine string `json:"engine,omitempty"`
	// Period is the period of Lichess's analysis detected from its evals
	// (analysis.Detection.String), with --detect-period.
	Period   string             `json:"period,omitempty"`
	Analysis *analysis.Analysis `json:"analysis,omitempty"`
}

func (r GameRecord) encode() (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("comparerun: encode game %s: %w", r.ID, err)
	}
	return string(b), nil
}

func decodeRecord(id, s string) (GameRecord, error) {
	var r GameRecord
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return GameRecord{}, fmt.Errorf("comparerun: stored game %s: %w", id, err)
	}
	if r.ID == "" {
		r.ID = id
	}
	return r, nil
}
