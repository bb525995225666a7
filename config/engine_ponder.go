package config

import "strings"

// PonderTypes lists the engine types that can ponder (think on the
// opponent's time): external UCI engines ("go ponder") and the built-in
// searchers. easy, knobs and maia choose a move without a search worth
// continuing, so "ponder = true" on them is rejected.
func PonderTypes() []string { return []string{EngineUCI, EngineMedium, EngineHard} }

// checkEnginePonder rejects engines.NAME.ponder on an engine type that
// cannot ponder.
func (c *Config) checkEnginePonder(ch *checker, name string, e EngineConfig) {
	if !e.Ponder {
		return
	}
	for _, t := range PonderTypes() {
		if e.Type == t {
			return
		}
	}
	ch.fail(joinKey(joinKey("engines", name), "ponder"), true,
		"an engine of type "+e.Type+" does not search, so it cannot ponder",
		"false, or an engine of type "+strings.Join(PonderTypes(), ", "))
}
