package app

import (
	"os"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/models"
	"github.com/outpostchess/outpost/models/maiaengine"
)

// MaiaOption returns the factory option that gives maia-NNNN engines one
// shared Predictor (also returned, nil when unavailable), configured from [models] and the OUTPOST_* environment,
// and a function that closes it. When the runtime's files (ONNX Runtime, the
// weights) are not installed the daemon still runs: a rule naming a Maia engine then fails to build it and
// the game is played by the fallback engine (the log says why).
func MaiaOption(cfg *config.Config, log zerolog.Logger) ([]bots.Option, *models.Predictor, func()) {
	mc, err := MaiaConfig(cfg)
	if err == nil {
		var pred *models.Predictor
		if pred, err = models.NewPredictor(mc); err == nil {
			return []bots.Option{maiaengine.Register(pred)}, pred, func() { pred.Close() }
		}
	}
	log.Info().Err(err).Msg("Maia engines unavailable (run 'outpost models fetch')")
	return []bots.Option{maiaengine.Register(nil)}, nil, func() {}
}

// MaiaConfig is the Maia configuration of cfg's [models] with the OUTPOST_*
// environment applied.
func MaiaConfig(cfg *config.Config) (models.Config, error) {
	mc := models.Config{Dir: cfg.Models.Dir, Library: cfg.Models.ORTLibrary, Maia2Model: cfg.Models.Maia2Model,
		Threads: cfg.Models.Threads, Runtime: cfg.Models.Runtime}
	return mc.WithEnv(os.Getenv)
}
