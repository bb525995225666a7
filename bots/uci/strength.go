package uci

import (
	"context"
	"fmt"
	"strconv"
)

// Names of the standard strength-limiting options.
const (
	OptLimitStrength = "UCI_LimitStrength"
	OptElo           = "UCI_Elo"
	OptSkillLevel    = "Skill Level"
)

// EloOptions returns the options that limit an engine declaring specs to
// elo, clamped into the engine's UCI_Elo range, and the Elo actually used.
// It fails when the engine cannot limit its strength by Elo.
func EloOptions(specs []OptionSpec, elo int) (map[string]string, int, error) {
	lim, ok1 := findOption(specs, OptLimitStrength)
	el, ok2 := findOption(specs, OptElo)
	if !ok1 || !ok2 || el.Type != OptionSpin {
		return nil, 0, fmt.Errorf("uci: engine does not offer %s and a spin %s", OptLimitStrength, OptElo)
	}
	used := min(max(elo, el.Min), el.Max)
	return map[string]string{lim.Name: "true", el.Name: strconv.Itoa(used)}, used, nil
}

// LimitElo sets UCI_LimitStrength and UCI_Elo so that the engine plays at
// about elo (clamped into the engine's declared range) and returns the Elo
// used. The options stay in force across Restart.
func (e *Engine) LimitElo(ctx context.Context, elo int) (int, error) {
	opts, used, err := EloOptions(e.Options(), elo)
	if err != nil {
		return 0, err
	}
	e.op.Lock()
	defer e.op.Unlock()
	// UCI_Elo first so that the limit never applies to a stale rating.
	for _, name := range []string{OptElo, OptLimitStrength} {
		spec, _ := e.Option(name)
		if err := e.setOption(ctx, spec.Name, opts[spec.Name]); err != nil {
			return 0, err
		}
	}
	return used, e.isReady(ctx)
}

// UnlimitStrength turns UCI_LimitStrength off when the engine offers it.
func (e *Engine) UnlimitStrength(ctx context.Context) error {
	if _, ok := e.Option(OptLimitStrength); !ok {
		return nil
	}
	e.op.Lock()
	defer e.op.Unlock()
	if err := e.setOption(ctx, OptLimitStrength, "false"); err != nil {
		return err
	}
	return e.isReady(ctx)
}

// SetSkillLevel sets Stockfish's "Skill Level" (0 weakest … 20 full
// strength), rejecting levels outside the declared range.
func (e *Engine) SetSkillLevel(ctx context.Context, level int) error {
	e.op.Lock()
	defer e.op.Unlock()
	if err := e.setOption(ctx, OptSkillLevel, strconv.Itoa(level)); err != nil {
		return err
	}
	return e.isReady(ctx)
}
