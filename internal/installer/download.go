package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Attempts is how many times Fetch asks the server for one file within one
// call: each attempt resumes where the previous one was cut, so a flaky
// connection still finishes (a later run resumes as well: the .part file
// is kept).
const Attempts = 3

// PartSuffix names an unfinished download beside its destination.
const PartSuffix = ".part"

// Download is one pinned file to fetch.
type Download struct {
	// URL is where it comes from; Dst where it goes.
	URL, Dst string
	// SHA256 is the file's pinned SHA-256 (lower-case hex), required.
	SHA256 string
	// Size is its size in bytes when known (0: unknown); a larger .part
	// is started again.
	Size int64
}

// Fetcher downloads pinned files, resumably: bytes arrive in Dst+".part"
// and a later attempt asks for the rest with an HTTP Range request; the
// file is renamed into place only once its SHA-256 is the pinned one.
type Fetcher struct {
	// Client does the requests (http.DefaultClient when nil).
	Client *http.Client
	// Log gets one line per step (nothing when nil).
	Log io.Writer
	// meters reports each transfer while it runs (nothing: the zero value).
	meters meters
}

func (f Fetcher) logf(format string, args ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format+"\n", args...)
	}
}

// Fetch makes d.Dst hold the pinned file. When it already does, nothing is
// downloaded (and it says so). Otherwise it resumes d.Dst+".part" (or
// starts it), up to Attempts requests, and checks the SHA-256: a mismatch
// removes the .part file and is an error naming both hashes.
func (f Fetcher) Fetch(ctx context.Context, d Download) error {
	if d.SHA256 == "" {
		return fmt.Errorf("installer: %s has no pinned SHA-256", d.URL)
	}
	if sum, err := FileSHA256(d.Dst); err == nil && sum == d.SHA256 {
		f.logf("%s: already there (SHA-256 checked), not downloaded", d.Dst)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(d.Dst), 0o755); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	part := d.Dst + PartSuffix
	var last error
	for attempt := 1; attempt <= Attempts; attempt++ {
		done, err := f.attempt(ctx, d, part)
		if err == nil && done {
			return f.finish(d, part)
		}
		last = err
		if ctx.Err() != nil || errors.Is(err, errPermanent) {
			break
		}
		if n, _ := partSize(part); n > 0 {
			f.logf("%s: cut at %d bytes (%v); resuming", d.URL, n, err)
		}
	}
	n, _ := partSize(part)
	return fmt.Errorf("installer: download %s: %w (%d bytes kept in %s: run again to resume)", d.URL, last, n, part)
}

// errPermanent marks answers a retry will not change (404, 403).
var errPermanent = errors.New("the server refused")

// attempt makes one request for the rest of part; done is set when part
// holds the whole file (the server said there is nothing more).
func (f Fetcher) attempt(ctx context.Context, d Download, part string) (done bool, err error) {
	off, err := partSize(part)
	if err != nil {
		return false, err
	}
	if d.Size > 0 && off > d.Size {
		f.logf("%s: %d bytes, more than the file's %d: starting again", part, off, d.Size)
		if err := os.Remove(part); err != nil {
			return false, err
		}
		off = 0
	}
	if d.Size > 0 && off == d.Size {
		return true, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.URL, nil)
	if err != nil {
		return false, err
	}
	if off > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(off, 10)+"-")
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	flags, err := f.appendMode(resp, d, off)
	if err != nil || flags == 0 {
		return flags == 0 && err == nil, err
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return false, err
	}
	have := int64(0)
	if flags&os.O_APPEND != 0 {
		have = off
	}
	total := d.Size
	if total <= 0 && resp.ContentLength > 0 {
		total = have + resp.ContentLength
	}
	p := f.meters.download("downloading "+filepath.Base(d.Dst), total, have)
	_, err = io.Copy(io.MultiWriter(p, out), resp.Body) // counted first: a test sees the count once the file grew
	p.finish()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err == nil, err
}

// appendMode reads the answer's status: the open flags for the .part file
// (append after a 206 that starts at off, truncate after a 200), or 0 when
// the server says the .part file is already whole (416).
func (f Fetcher) appendMode(resp *http.Response, d Download, off int64) (int, error) {
	switch resp.StatusCode {
	case http.StatusOK:
		if off > 0 {
			f.logf("%s: the server ignored the range request: downloading from the start", d.URL)
		}
		return os.O_CREATE | os.O_WRONLY | os.O_TRUNC, nil
	case http.StatusPartialContent:
		start, err := rangeStart(resp.Header.Get("Content-Range"))
		if err != nil || start != off {
			return 0, fmt.Errorf("%w: Content-Range %q does not start at %d", errPermanent, resp.Header.Get("Content-Range"), off)
		}
		f.logf("%s: resuming at byte %d", d.URL, off)
		return os.O_CREATE | os.O_WRONLY | os.O_APPEND, nil
	case http.StatusRequestedRangeNotSatisfiable:
		return 0, nil
	case http.StatusNotFound, http.StatusForbidden, http.StatusGone, http.StatusUnauthorized:
		return 0, fmt.Errorf("%w: HTTP %s", errPermanent, resp.Status)
	}
	return 0, fmt.Errorf("HTTP %s", resp.Status)
}

// rangeStart is the first byte of a Content-Range "bytes A-B/N".
func rangeStart(h string) (int64, error) {
	rest, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, fmt.Errorf("not a byte range")
	}
	a, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, fmt.Errorf("no '-'")
	}
	return strconv.ParseInt(a, 10, 64)
}

// finish checks part's SHA-256 and renames it to d.Dst.
func (f Fetcher) finish(d Download, part string) error {
	sum, err := FileSHA256(part)
	if err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	if sum != d.SHA256 {
		if err := os.Remove(part); err != nil {
			return fmt.Errorf("installer: %w", err)
		}
		return fmt.Errorf("installer: %s: SHA-256 %s, want the pinned %s (the download was removed)", d.URL, sum, d.SHA256)
	}
	if err := os.Rename(part, d.Dst); err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	f.logf("%s: downloaded from %s (SHA-256 checked)", d.Dst, d.URL)
	return nil
}

// partSize is the size of an unfinished download (0 when there is none).
func partSize(part string) (int64, error) {
	st, err := os.Stat(part)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// FileSHA256 is the SHA-256 of a file in lower-case hex.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
