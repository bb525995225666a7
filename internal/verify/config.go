package verify

import "github.com/outpostchess/outpost/config"

// ConfigOptions returns the worker options of a [verify] section: the poll
// schedule and the cloud check (API, Store and the rest are the caller's).
func ConfigOptions(c config.VerifyConfig) Options {
	return Options{Backoff: Backoff{First: c.FirstDelay, Max: c.MaxDelay, Window: c.Window}, Cloud: c.Cloud}
}
