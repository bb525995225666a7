package app

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/models"
)

// EWRSetupHint names the command that installs what expected winrate
// needs.
const EWRSetupHint = "install Stockfish, ONNX Runtime and the Maia weights with `make setup` (or `" + models.FetchCommand + "` for Maia alone)"

// EWRParts are `outpost analyse --ewr`'s Maia, loaded up front, and the
// Stockfish its calculator starts when there are moments to compute.
type EWRParts struct {
	pred    *models.Predictor
	engine  []string
	closers []func() error
	warn    io.Writer
}

// OpenEWRParts checks up front that everything --ewr needs is installed,
// so that a missing piece is one clear error before any analysis: the
// Stockfish of engine (a command line or an engine name; a notice about
// it goes to warn), ONNX Runtime ([models] and the environment) and the
// Maia weights of levels, which it loads.
func OpenEWRParts(cfg *config.Config, engine string, levels []int, warn io.Writer) (*EWRParts, error) {
	r, err := enginepath.Resolve(strings.Fields(engine))
	if err != nil {
		return nil, fmt.Errorf("--ewr-engine: %w", err)
	}
	if r.Notice != "" {
		fmt.Fprintf(warn, "outpost analyse: --ewr-engine: %s\n", r.Notice)
	}
	if _, err := exec.LookPath(r.Command[0]); err != nil {
		return nil, fmt.Errorf("--ewr needs Stockfish: %s not found (%s)", r.Command[0], EWRSetupHint)
	}
	mc, err := MaiaConfig(cfg)
	if err != nil {
		return nil, err
	}
	pred, err := models.NewPredictor(mc)
	if err != nil {
		return nil, fmt.Errorf("--ewr needs Maia: %w", err)
	}
	p := &EWRParts{pred: pred, engine: r.Command, closers: []func() error{pred.Close}, warn: warn}
	var names []string
	for _, lv := range levels {
		names = append(names, models.Maia1Name(lv))
	}
	if err := pred.Load(names...); err != nil {
		p.Close()
		return nil, fmt.Errorf("--ewr needs Maia: %w", err)
	}
	return p, nil
}

// Calculator starts workers Stockfish engines of hash MB and opens the
// cache at storePath ("" for none); Close stops them.
func (p *EWRParts) Calculator(ctx context.Context, workers, hash int, storePath string, log zerolog.Logger) (*ewr.Calculator, error) {
	ev, err := ewr.StartEngines(ctx, ewr.EngineConfig{Command: p.engine, Workers: workers, HashMB: hash, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("--ewr needs Stockfish: %w (%s)", err, EWRSetupHint)
	}
	p.closers = append(p.closers, ev.Close)
	var cache ewr.Cache
	if storePath != "" {
		st, err := OpenCache(ctx, storePath)
		if err != nil {
			return nil, fmt.Errorf("--ewr-store: %w", err)
		}
		p.closers = append(p.closers, st.Close)
		cache = st
	}
	return ewr.New(p.pred, ev, cache), nil
}

// Close closes the cache, the engines and Maia, saying on warn what failed
// to close.
func (p *EWRParts) Close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		if err := p.closers[i](); err != nil {
			fmt.Fprintf(p.warn, "outpost analyse: closing --ewr engines: %v\n", err)
		}
	}
	p.closers = nil
}
