package app

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/lichess/provider"
	"github.com/outpostchess/outpost/models"
)

// Provider is what RunProvider needs besides the context.
type Provider struct {
	Config *config.Config
	Token  lichess.Token
	Logger zerolog.Logger
	// OnJob is called after each job (tests).
	OnJob func(provider.JobRecord)
}

// ProviderFiles returns the secrets file and the job log of cfg's
// [provider] (beside [store] path unless set).
func ProviderFiles(cfg *config.Config) (secrets, jobs string) {
	dir := filepath.Dir(cfg.Store.Path)
	secrets, jobs = cfg.Provider.SecretFile, cfg.Provider.JobLog
	if secrets == "" {
		secrets = filepath.Join(dir, "provider-secrets.json")
	}
	if jobs == "" {
		jobs = filepath.Join(dir, "provider-jobs.json")
	}
	return secrets, jobs
}

// RunProvider runs `outpost provider`: registers [provider]'s engines for
// the token's user and serves their jobs until ctx ends.
func RunProvider(ctx context.Context, p Provider) error {
	cfg, log := p.Config, p.Logger
	client, err := lichess.New(daemon.ClientOptions(cfg, cfg.Lichess.URL, p.Token, log))
	if err != nil {
		return err
	}
	defer client.Close()
	if _, err := client.CheckToken(ctx, "engine:read", "engine:write"); err != nil {
		return fmt.Errorf("provider: %w", err)
	}
	brokerURL := cfg.Provider.BrokerURL
	if brokerURL == "" {
		brokerURL = lichess.BrokerURLFor(cfg.Lichess.URL)
	}
	broker, err := lichess.NewBroker(brokerURL, nil, "")
	if err != nil {
		return err
	}
	secretsPath, jobLog := ProviderFiles(cfg)
	secrets, err := provider.LoadSecrets(secretsPath)
	if err != nil {
		return err
	}
	engines, closeEngines, err := ProviderEngines(cfg, log)
	if err != nil {
		return err
	}
	defer closeEngines()
	prov, err := provider.New(provider.Options{Client: client, Broker: broker, Engines: engines, Secrets: secrets,
		JobLog: jobLog, Logger: log, OnJob: p.OnJob})
	if err != nil {
		return err
	}
	log.Info().Str("broker", brokerURL).Int("engines", len(engines)).Msg("provider: serving")
	return prov.Serve(ctx)
}

// ProviderEngines builds the slots of cfg's [provider] engines; the
// returned function closes the shared Maia predictor.
func ProviderEngines(cfg *config.Config, log zerolog.Logger) ([]provider.Engine, func(), error) {
	pc := cfg.Provider
	threads, hash := pc.MaxThreads, pc.MaxHash
	if threads == 0 {
		threads = runtime.NumCPU()
	}
	if hash == 0 {
		hash = config.ProviderDefaultMaxHash
	}
	var out []provider.Engine
	var pred *models.Predictor
	closeAll := func() {
		if pred != nil {
			_ = pred.Close()
		}
	}
	for _, name := range pc.Engines {
		e, err := providerEngine(cfg, name, threads, hash, &pred, log)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		out = append(out, e)
	}
	return out, closeAll, nil
}

func providerEngine(cfg *config.Config, name string, threads, hash int, pred **models.Predictor, log zerolog.Logger) (provider.Engine, error) {
	if level, ok := strings.CutPrefix(name, "maia-"); ok {
		n, err := strconv.Atoi(level)
		if err != nil {
			return nil, fmt.Errorf("provider: engine %q: %w", name, err)
		}
		if *pred == nil {
			mc, err := MaiaConfig(cfg)
			if err == nil {
				*pred, err = models.NewPredictor(mc)
			}
			if err != nil {
				return nil, fmt.Errorf("provider: engine %s: Maia is not available (run 'outpost setup'): %w", name, err)
			}
		}
		return provider.NewMaiaEngine(*pred, n)
	}
	word := name
	if word == "stockfish" {
		word = bestNative()
	}
	r, err := enginepath.Resolve([]string{word})
	if err != nil {
		return nil, fmt.Errorf("provider: engine %s: %w", name, err)
	}
	if !r.Native {
		log.Warn().Str("engine", name).Str("runs", r.Label).Msg("provider: not a native build; run 'outpost setup --build' for the fastest Stockfish")
	}
	return provider.NewUCIEngine(provider.UCIOptions{Name: r.Label + " (Outpost)", MaxThreads: threads, MaxHash: hash,
		Idle: cfg.Provider.IdleTimeout, Engine: uci.Config{Path: r.Command[0], Args: r.Command[1:], Logger: log}, Logger: log})
}

// bestNative is the newest native Stockfish built here, else sf15 (which
// falls back to Debian's package).
func bestNative() string {
	names := enginepath.NativeNames()
	for i := len(names) - 1; i >= 0; i-- {
		if r, err := enginepath.Resolve([]string{names[i]}); err == nil && r.Native {
			return names[i]
		}
	}
	return enginepath.Stockfish15
}

// ProviderStatus is the web console's reader of what `outpost provider`
// (with the same configuration) registered and served: its job log.
func ProviderStatus(cfg *config.Config) func(context.Context) (*provider.Status, error) {
	_, jobs := ProviderFiles(cfg)
	return func(context.Context) (*provider.Status, error) { return provider.ReadStatus(jobs) }
}
