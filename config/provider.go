package config

import (
	"strings"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models"
)

// ProviderConfig is the [provider] section: what `outpost provider` serves
// as Lichess external engines. Zero values take the defaults below.
type ProviderConfig struct {
	// Engines are the slots: a Stockfish name ("stockfish" — the best
	// native build here —, "sf15", "sf16", "sf17.1", "sf18") or
	// "maia-1100" … "maia-1900". Default: DefaultProviderEngines.
	Engines []string `toml:"engines"`
	// MaxThreads and MaxHash (MiB) are a Stockfish registration's limits
	// (0: the machine's cores, and 512).
	MaxThreads int `toml:"max_threads"`
	MaxHash    int `toml:"max_hash"`
	// IdleTimeout shuts a Stockfish down after that long without a job
	// (default 5m).
	IdleTimeout time.Duration `toml:"idle_timeout"`
	// BrokerURL is the engine broker ("": engine.lichess.ovh for
	// lichess.org, else the [lichess] url).
	BrokerURL string `toml:"broker_url"`
	// SecretFile holds the provider secrets, mode 0600 ("":
	// provider-secrets.json beside [store] path).
	SecretFile string `toml:"secret_file"`
	// JobLog is the status file the web console reads ("":
	// provider-jobs.json beside [store] path).
	JobLog string `toml:"job_log"`
}

// DefaultProviderEngines is what `outpost provider` serves without
// [provider] engines: the native Stockfish, and Maia at every rating.
func DefaultProviderEngines() []string {
	out := []string{"stockfish"}
	for _, level := range models.Maia1Levels {
		out = append(out, models.Maia1Name(level))
	}
	return out
}

// ProviderDefaultMaxHash is max_hash's default (MiB).
const ProviderDefaultMaxHash = 512

func (c *Config) checkProvider(ch *checker) {
	p := c.Provider
	allowed := append([]string{"stockfish"}, enginepath.NativeNames()...)
	for _, level := range models.Maia1Levels {
		allowed = append(allowed, models.Maia1Name(level))
	}
	ch.listOf("provider.engines", p.Engines, allowed, true)
	seen := map[string]bool{}
	for _, e := range p.Engines {
		if seen[e] {
			ch.fail("provider.engines", e, "named twice", "each engine once")
		}
		seen[e] = true
	}
	ch.intRangeOrZero("provider.max_threads", p.MaxThreads, 1, lichess.MaxEngineThreads, "threads", "the machine's cores")
	ch.intRangeOrZero("provider.max_hash", p.MaxHash, 1, lichess.MaxEngineHashMiB, "MiB", "512")
	ch.durRange("provider.idle_timeout", p.IdleTimeout, time.Second, 24*time.Hour)
	if p.BrokerURL != "" {
		checkServiceURL(ch, "provider.broker_url", p.BrokerURL)
	}
	for key, v := range map[string]string{"provider.secret_file": p.SecretFile, "provider.job_log": p.JobLog} {
		if strings.ContainsRune(v, 0) {
			ch.fail(key, v, "contains a NUL byte", "a file path")
		}
	}
}
