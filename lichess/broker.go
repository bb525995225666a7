package lichess

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultBrokerURL is Lichess's external-engine broker (lila-engine), which
// serves /api/external-engine/work and /api/external-engine/{id}/analyse.
const DefaultBrokerURL = "https://engine.lichess.ovh"

// BrokerURLFor returns the broker that goes with a Lichess base URL:
// DefaultBrokerURL for lichess.org, the same host otherwise (the sandbox
// serves both).
func BrokerURLFor(lichessURL string) string {
	u, err := url.Parse(lichessURL)
	if err == nil && (u.Host == "lichess.org" || u.Host == "www.lichess.org") {
		return DefaultBrokerURL
	}
	return strings.TrimRight(lichessURL, "/")
}

// EngineWork is one analysis request as the broker hands it to a provider:
// the position (initialFen and moves, castling written king takes rook) and
// exactly one of MoveTime, Depth and Nodes.
type EngineWork struct {
	SessionID  string   `json:"sessionId"`
	Threads    int      `json:"threads"`
	Hash       int      `json:"hash"`
	MultiPV    int      `json:"multiPv"`
	Variant    string   `json:"variant"`
	InitialFEN string   `json:"initialFen"`
	Moves      []string `json:"moves"`
	MoveTime   int      `json:"movetime,omitempty"` // milliseconds
	Depth      int      `json:"depth,omitempty"`
	Nodes      int64    `json:"nodes,omitempty"`
	Deep       bool     `json:"deep,omitempty"`
}

// Check reports what is wrong with w (a clear error), or nil: a provider
// refuses such a job instead of passing it to an engine.
func (w EngineWork) Check() error {
	switch {
	case w.MultiPV < 1 || w.MultiPV > MaxEngineMultiPV:
		return fmt.Errorf("multiPv %d out of range 1..%d", w.MultiPV, MaxEngineMultiPV)
	case w.Threads < 1 || w.Threads > MaxEngineThreads:
		return fmt.Errorf("threads %d out of range 1..%d", w.Threads, MaxEngineThreads)
	case w.Hash < 1 || w.Hash > MaxEngineHashMiB:
		return fmt.Errorf("hash %d MiB out of range 1..%d", w.Hash, MaxEngineHashMiB)
	case !knownEngineVariant(w.Variant):
		return fmt.Errorf("unknown variant %q", w.Variant)
	case w.InitialFEN == "":
		return errors.New("no initialFen")
	case len(w.Moves) > MaxEngineMoves:
		return fmt.Errorf("%d moves, more than %d", len(w.Moves), MaxEngineMoves)
	}
	limits := 0
	for _, set := range []bool{w.MoveTime > 0, w.Depth > 0, w.Nodes > 0} {
		if set {
			limits++
		}
	}
	if limits != 1 || w.MoveTime < 0 || w.Depth < 0 || w.Nodes < 0 {
		return fmt.Errorf("want exactly one positive limit of movetime, depth and nodes (got movetime %d, depth %d, nodes %d)", w.MoveTime, w.Depth, w.Nodes)
	}
	return nil
}

// MaxEngineMoves is the most moves a work request may hold (lila-engine's
// Work::sanitize refuses more than 600).
const MaxEngineMoves = 600

// EngineJob is an acquired request: its id (for the upload), the work and
// the registration it was made for.
type EngineJob struct {
	ID     string         `json:"id"`
	Work   EngineWork     `json:"work"`
	Engine ExternalEngine `json:"engine"`
}

// Broker talks to the external-engine broker as a provider. It sends no
// Lichess token: the provider secret is the credential.
type Broker struct {
	base *url.URL
	hc   *http.Client
	ua   string
}

// NewBroker returns a broker client for baseURL; hc nil uses a client of its
// own (never one with a Timeout: acquiring is a long poll and an upload
// lasts as long as the search).
func NewBroker(baseURL string, hc *http.Client, userAgent string) (*Broker, error) {
	base, err := parseBaseURL("broker URL", baseURL)
	if err != nil {
		return nil, err
	}
	if hc == nil {
		hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if hc.Timeout != 0 {
		return nil, errors.New("lichess: broker: the HTTP client must have no Timeout (long polls and uploads)")
	}
	if userAgent == "" {
		userAgent = DefaultUserAgent
	}
	return &Broker{base: base, hc: hc, ua: userAgent}, nil
}

// acquireWait bounds one long poll: the broker answers within about 10 s
// (204 when nothing came), so a longer silence is a dead connection.
const acquireWait = 40 * time.Second

// Acquire waits for a request to any engine registered with secret (POST
// /api/external-engine/work, a long poll): the job, or nil when the broker
// answered 204 (nothing pending).
func (b *Broker) Acquire(ctx context.Context, secret string) (*EngineJob, error) {
	body, err := json.Marshal(map[string]string{"providerSecret": secret})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, acquireWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", b.url("/api/external-engine/work"), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("lichess: broker: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", b.ua)
	resp, err := b.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("lichess: broker: acquire: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	switch {
	case resp.StatusCode == http.StatusNoContent:
		return nil, nil
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("lichess: broker: acquire: %w", &APIError{Status: resp.StatusCode, Method: "POST", Path: "/api/external-engine/work", Message: errorMessage(data)})
	case err != nil:
		return nil, fmt.Errorf("lichess: broker: acquire: reading: %w", err)
	}
	var job EngineJob
	if err := json.Unmarshal(data, &job); err != nil {
		return nil, fmt.Errorf("lichess: broker: acquire: decoding job: %w", err)
	}
	if job.ID == "" || strings.ContainsAny(job.ID, "/?#") {
		return nil, fmt.Errorf("lichess: broker: acquire: job id %q is not an id", job.ID)
	}
	return &job, nil
}

// Submit streams a job's UCI output (POST /api/external-engine/work/{id},
// text/plain): it returns when the broker answers, which it does at
// bestmove or when the requester went away — then body's reader is closed,
// so the writer of a pipe learns to stop. A non-2xx answer is an *APIError.
func (b *Broker) Submit(ctx context.Context, id string, body io.ReadCloser) error {
	defer body.Close()
	req, err := http.NewRequestWithContext(ctx, "POST", b.url("/api/external-engine/work/"+url.PathEscape(id)), body)
	if err != nil {
		return fmt.Errorf("lichess: broker: %w", err)
	}
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("User-Agent", b.ua)
	resp, err := b.hc.Do(req)
	if err != nil {
		return fmt.Errorf("lichess: broker: submit %s: %w", id, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("lichess: broker: submit %s: %w", id, &APIError{Status: resp.StatusCode, Method: "POST", Path: "/api/external-engine/work/" + id, Message: errorMessage(data)})
	}
	return nil
}

func (b *Broker) url(path string) string {
	u := *b.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	return u.String()
}
