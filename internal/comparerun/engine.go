package comparerun

import (
	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// Engine resolves the comparison engine cmd (a command line or an engine
// name; analysis.ComparisonEngine when empty) on this machine. When "auto" falls back
// to Stockfish 15.1 the notice is logged.
func Engine(cmd []string, log zerolog.Logger) ([]string, error) {
	if len(cmd) == 0 {
		cmd = analysis.ComparisonEngine()
	}
	r, err := enginepath.Resolve(cmd)
	if err != nil {
		return nil, err
	}
	if r.Notice != "" {
		log.Warn().Msg(r.Notice)
	}
	return r.Command, nil
}
