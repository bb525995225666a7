package analysis

import (
	"errors"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
)

// TestNewPoolMissingEngine: a pool asked for an uninstalled Stockfish 19
// fails at once with the setup command in the error.
func TestNewPoolMissingEngine(t *testing.T) {
	t.Setenv(enginepath.EnvStockfish19Dir, t.TempDir())
	_, err := NewPool(t.Context(), PoolConfig{Command: []string{"sf19"}})
	if err == nil || !errors.Is(err, enginepath.ErrNotInstalled) || !strings.Contains(err.Error(), "setup") {
		t.Fatalf("err = %v", err)
	}
}
