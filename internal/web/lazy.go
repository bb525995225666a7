package web

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/analysis/ewr"
)

// LazyEWR is a Calculator that starts the expected-winrate calculator
// (Maia and Stockfish) on its first request, so that the console runs, and
// answers every other page, without them. A failure to start is kept and
// said plainly on the pages (ErrUnavailable).
type LazyEWR struct {
	open func() (*ewr.Calculator, func(), error)

	once    sync.Once
	calc    *ewr.Calculator
	closeFn func()
	err     error
}

// NewLazyEWR returns a LazyEWR that starts its calculator with open (the
// calculator and the function that stops it) on first use.
func NewLazyEWR(open func() (*ewr.Calculator, func(), error)) *LazyEWR {
	return &LazyEWR{open: open}
}

// lazyEWRTimeLimit bounds one expected-winrate calculation of the console.
const lazyEWRTimeLimit = 5 * time.Minute

// get starts the calculator on first use.
func (l *LazyEWR) get() (EWR, error) {
	l.once.Do(func() { l.calc, l.closeFn, l.err = l.open() })
	if l.err != nil {
		return EWR{}, fmt.Errorf("%w (it needs the Maia models and Stockfish; see 'outpost models' and --engine): %v", ErrUnavailable, l.err)
	}
	return EWR{Calc: l.calc, TimeLimit: lazyEWRTimeLimit}, nil
}

// Calculate implements Calculator.
func (l *LazyEWR) Calculate(ctx context.Context, pos ewr.Position, p ewr.Params, progress func(Progress)) (*ewr.Result, error) {
	e, err := l.get()
	if err != nil {
		return nil, err
	}
	return e.Calculate(ctx, pos, p, progress)
}

// Moment implements Calculator.
func (l *LazyEWR) Moment(ctx context.Context, g ewr.Game, ply int, progress func(Progress)) (ewr.Moment, error) {
	e, err := l.get()
	if err != nil {
		return ewr.Moment{}, err
	}
	return e.Moment(ctx, g, ply, progress)
}

// Close stops the calculator if it was started.
func (l *LazyEWR) Close() {
	if l.closeFn != nil {
		l.closeFn()
	}
}

// ReadAccessToken reads the console's access token from the file at path
// (trimmed); "" for no path. An empty file or a token shorter than
// MinAccessTokenLen is an error naming the file.
func ReadAccessToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("access token file %s is empty", path)
	}
	if len(token) < MinAccessTokenLen {
		return "", fmt.Errorf("access token file %s: the token has %d characters: want at least %d", path, len(token), MinAccessTokenLen)
	}
	return token, nil
}
