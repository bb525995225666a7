package postgame

import (
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/cluster"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/clusterconn"
	"github.com/outpostchess/outpost/models"
)

// FromConfig builds the daemon's post-game summariser from [summary],
// [analysis] and [cluster]; me is our account name ("" until known). When
// the configured engine is missing, our own hard engine (this binary in
// UCI mode: `outpost uci --engine hard`) analyses instead, and the log
// says so. With [cluster] url the positions go to the cluster's workers
// when the engine is one a cluster names (sf15, sf18, sf19, within the
// cluster's hash bound); otherwise the log says why (naming the key) and
// the games are analysed in-process.
func FromConfig(cfg *config.Config, me string, log zerolog.Logger) *Summariser {
	cmd, key := cfg.Summary.Engine, "summary.engine"
	if len(cmd) == 0 {
		cmd, key = cfg.Analysis.Engine, "analysis.engine"
	}
	pc := analysis.PoolConfig{Workers: 1, Threads: 1, HashMB: cfg.Analysis.HashMB}
	if d := clusterconn.New(cfg.Cluster, "", "outpost-daemon", log); d != nil {
		// [cluster] url: the game's positions go to the cluster's workers,
		// which resolve the engine name on their machines; a command line
		// is never sent to them
		if _, err := cluster.EngineFor(analysis.EngineSpec{Command: cmd, Threads: pc.Threads, HashMB: pc.HashMB}); err != nil {
			log.Error().Err(err).Msgf("%s (or analysis.hash_mb) with [cluster] url: the summaries are analysed in-process instead", key)
		} else {
			pc.Dispatcher = d
		}
	}
	if pc.Dispatcher == nil && len(cmd) > 0 {
		// engine names (sf15) are resolved here; a missing engine is
		// replaced by our own hard engine, and the log says so
		r, err := enginepath.Resolve(cmd)
		if err == nil {
			_, err = exec.LookPath(r.Command[0])
		}
		if err != nil {
			if self, serr := os.Executable(); serr == nil {
				log.Warn().Err(err).Msg("summary engine missing: our hard engine analyses the games instead")
				cmd = []string{self, "uci", "--engine", "hard"}
			}
		}
	}
	pc.Command = cmd
	s := New(pc, int64(cfg.Summary.Nodes), me)
	s.SetBound(cfg.Summary.Timeout, nil, log)
	return s
}

// WithConfigEWR adds the expected-winrate line to the summaries
// ([summary] ewr): Maia from pred, Stockfish from the summary's engine
// (one engine per CPU), within bound (0: the summary waits for the line
// up to the summary's own bound, [summary] timeout). Without Maia or Stockfish the summaries go out without the line,
// and the log says why.
func (s *Summariser) WithConfigEWR(cfg *config.Config, pred *models.Predictor, cache ewr.Cache, bound time.Duration, log zerolog.Logger) {
	if !cfg.Summary.EWR || !cfg.Summary.Enabled {
		return
	}
	if pred == nil {
		log.Warn().Msg("summary.ewr: no Maia models, the summaries go out without the expected-winrate line (install them with `outpost models fetch`)")
		return
	}
	// Stockfish 15.1 (the native build when made, else Debian's) unless
	// [summary] engine names another.
	cmd := cfg.Summary.Engine
	if len(cmd) == 0 {
		cmd = []string{enginepath.Stockfish15}
	}
	r, err := enginepath.Resolve(cmd)
	if err == nil {
		_, err = exec.LookPath(r.Command[0])
	}
	if err != nil {
		log.Warn().Err(err).Msg("summary.ewr: Stockfish not found, the summaries go out without the expected-winrate line")
		return
	}
	if r.Notice != "" {
		log.Info().Msg("summary.ewr: " + r.Notice)
	}
	cmd = r.Command
	s.WithEWR(EWROptions{Prober: ewr.NewMaiaProber(pred), Cache: cache, Engine: cmd, Workers: runtime.NumCPU(),
		Timeout: bound, Mode: cfg.Summary.EWRMode, Logger: log})
}
