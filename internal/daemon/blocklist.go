package daemon

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/config"
)

// maxBlockListBytes bounds one block list source: a million bytes hold
// some 50,000 names, far more than the bots Lichess has online.
const maxBlockListBytes = 1 << 20

// blockListFetchTimeout bounds the read of one URL source.
const blockListFetchTimeout = 30 * time.Second

// ParseBlockList reads a block list: one Lichess username a line; blank
// lines and everything from a '#' are ignored. A line that is not a
// username is an error naming its number (the whole list is refused, so
// that a truncated or garbled download never replaces a good list).
func ParseBlockList(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(io.LimitReader(r, maxBlockListBytes+1))
	sc.Buffer(make([]byte, 0, 4096), maxBlockListBytes+1)
	read, n := 0, 0
	for sc.Scan() {
		n++
		read += len(sc.Bytes()) + 1
		if read > maxBlockListBytes+1 {
			return nil, fmt.Errorf("block list larger than %d bytes", maxBlockListBytes)
		}
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !config.ValidUsername(line) {
			return nil, fmt.Errorf("line %d: %q is not a Lichess username", n, truncateName(line))
		}
		names = append(names, line)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("block list larger than %d bytes (or a line that long)", maxBlockListBytes)
	} else if err != nil {
		return nil, fmt.Errorf("block list: %w", err)
	}
	return names, nil
}

// truncateName shortens a bad line for an error message.
func truncateName(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// blockLists holds the last good list of each [matchmaking]
// block_list_sources entry. Safe for concurrent use.
type blockLists struct {
	sources []string
	hc      *http.Client

	mu    sync.Mutex
	names map[string]map[string]bool // by source: lower-case names
}

func newBlockLists(sources []string) *blockLists {
	return &blockLists{sources: sources, hc: &http.Client{}, names: map[string]map[string]bool{}}
}

// blocked reports whether name is on any source's last good list.
func (b *blockLists) blocked(name string) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	key := strings.ToLower(name)
	for _, set := range b.names {
		if set[key] {
			return true
		}
	}
	return false
}

// refresh reads every source again; a source that fails keeps its last
// good list, and the failures are returned (one per source, naming it).
func (b *blockLists) refresh(ctx context.Context) []error {
	var errs []error
	for _, src := range b.sources {
		names, err := b.read(ctx, src)
		if err != nil {
			errs = append(errs, fmt.Errorf("block list %s: %w", src, err))
			continue
		}
		set := make(map[string]bool, len(names))
		for _, n := range names {
			set[strings.ToLower(n)] = true
		}
		b.mu.Lock()
		b.names[src] = set
		b.mu.Unlock()
	}
	return errs
}

// read fetches and parses one source: an http(s) URL or a file.
func (b *blockLists) read(ctx context.Context, src string) ([]string, error) {
	if !strings.HasPrefix(src, "http://") && !strings.HasPrefix(src, "https://") {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		return ParseBlockList(bytes.NewReader(data))
	}
	ctx, cancel := context.WithTimeout(ctx, blockListFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return ParseBlockList(resp.Body)
}

// blockListWorker reads the block list sources at start and every refresh
// interval until ctx ends, logging each source that fails (its last good
// list stays in force).
func (d *Daemon) blockListWorker(ctx context.Context) {
	every := max(d.cfg.Matchmaking.BlockListRefresh, time.Minute)
	for {
		for _, err := range d.blockLists.refresh(ctx) {
			if ctx.Err() == nil {
				d.log.Warn().Err(err).Str("component", "matchmaking").Msg("block list not read; its last good list stays in force")
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
