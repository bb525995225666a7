package comparerun

import (
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
)

// RunEngine is the engine a run starts and why.
type RunEngine struct {
	// Command is the engine name or command line, not yet resolved.
	Command []string
	// From says where the engine came from when a preset is involved:
	// "the lichess-sf16 preset's engine", or "--engine, instead of the
	// lichess-sf16 preset's sf16: not the preset's engine"; "" otherwise.
	From string
	// Preset is the preset whose own engine Command is ("" when the
	// engine is the caller's).
	Preset string
}

// PickEngine returns the engine a run with budget b starts. A preset that
// reproduces one period of Lichess's analysis names its engine
// (lichess-sf16 → sf16, analysis.Budget.Engine): that engine runs, as it
// does when by-date picks the preset, unless override is set (an explicit
// --engine), in which case cmd runs and From says it replaced the
// preset's. Any other budget runs cmd. With a budget by date each game's
// engine is picked per game (planFor) and cmd is the fallback.
func PickEngine(b analysis.Budget, cmd []string, override bool) RunEngine {
	if b.ByDate || b.Engine == "" {
		return RunEngine{Command: cmd}
	}
	name := b.Name
	if name == "" {
		name = b.String()
	}
	if override {
		return RunEngine{Command: cmd, From: fmt.Sprintf("--engine, instead of the %s preset's %s: not the preset's engine", name, b.Engine)}
	}
	return RunEngine{Command: []string{b.Engine}, From: fmt.Sprintf("the %s preset's engine, its plies not re-searched unless --borderline-band says so", name), Preset: name}
}

// Resolve resolves the engine on this machine (Engine). When the engine
// is a preset's own and is not installed, the error names the preset, the
// engine and the install command (enginepath's message), and --engine as
// the way to run another one; source names the setting ("--preset",
// "compare.preset").
func (e RunEngine) Resolve(source string, log zerolog.Logger) ([]string, error) {
	cmd, err := Engine(e.Command, log)
	if err != nil && e.Preset != "" {
		return nil, fmt.Errorf("%s %s runs its own engine %s (or name another with --engine): %w", source, e.Preset, strings.Join(e.Command, " "), err)
	}
	return cmd, err
}
