package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"unicode/utf8"
)

// External engines (alpha in Lichess's API): a user registers an engine that
// runs on their own machine (GET/POST /api/external-engine, GET/PUT/DELETE
// /api/external-engine/{id}, scopes engine:read and engine:write), and a
// provider holding the registration's providerSecret serves the analysis
// requests through the engine broker (Broker). The bounds below are those of
// the API's ExternalEngineRegistration (and lila's registration form).
const (
	// MinEngineNameLen and MaxEngineNameLen bound a registration's name.
	MinEngineNameLen, MaxEngineNameLen = 3, 200
	// MaxEngineThreads and MaxEngineHashMiB bound maxThreads and maxHash.
	MaxEngineThreads, MaxEngineHashMiB = 65536, 1048576
	// MinProviderSecretLen and MaxProviderSecretLen bound the provider secret.
	MinProviderSecretLen, MaxProviderSecretLen = 16, 1024
	// MaxEngineMultiPV is the most lines a request may ask for.
	MaxEngineMultiPV = 5
)

// EngineVariants are the variant names of a registration and a work
// request ("chess" covers standard chess, Chess960 and From Position).
var engineVariants = []string{"chess", "crazyhouse", "antichess", "atomic", "horde", "kingofthehill", "racingkings", "3check"}

// EngineVariants returns the variant names an external engine may support.
func EngineVariants() []string { return append([]string(nil), engineVariants...) }

// EngineRegistration is what a provider registers (or updates) for the
// token's user.
type EngineRegistration struct {
	Name           string   `json:"name"`
	MaxThreads     int      `json:"maxThreads"`
	MaxHash        int      `json:"maxHash"`
	Variants       []string `json:"variants,omitempty"`
	ProviderSecret string   `json:"providerSecret"`
	ProviderData   string   `json:"providerData,omitempty"`
}

// Validate checks the registration against the API's bounds, naming the
// field that is wrong.
func (r EngineRegistration) Validate() error {
	if n := utf8.RuneCountInString(r.Name); n < MinEngineNameLen || n > MaxEngineNameLen {
		return fmt.Errorf("external engine name %q: %d characters, want %d to %d", r.Name, n, MinEngineNameLen, MaxEngineNameLen)
	}
	if r.MaxThreads < 1 || r.MaxThreads > MaxEngineThreads {
		return fmt.Errorf("external engine %q: maxThreads %d out of range 1..%d", r.Name, r.MaxThreads, MaxEngineThreads)
	}
	if r.MaxHash < 1 || r.MaxHash > MaxEngineHashMiB {
		return fmt.Errorf("external engine %q: maxHash %d MiB out of range 1..%d", r.Name, r.MaxHash, MaxEngineHashMiB)
	}
	if n := len(r.ProviderSecret); n < MinProviderSecretLen || n > MaxProviderSecretLen {
		return fmt.Errorf("external engine %q: provider secret of %d bytes, want %d to %d", r.Name, n, MinProviderSecretLen, MaxProviderSecretLen)
	}
	for _, v := range r.Variants {
		if !knownEngineVariant(v) {
			return fmt.Errorf("external engine %q: unknown variant %q (want one of %v)", r.Name, v, engineVariants)
		}
	}
	return nil
}

func knownEngineVariant(v string) bool {
	for _, k := range engineVariants {
		if v == k {
			return true
		}
	}
	return false
}

// ExternalEngine is a registered engine as Lichess lists it. The provider
// secret is never sent back.
type ExternalEngine struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	ClientSecret string   `json:"clientSecret"`
	UserID       string   `json:"userId"`
	MaxThreads   int      `json:"maxThreads"`
	MaxHash      int      `json:"maxHash"`
	Variants     []string `json:"variants"`
	ProviderData *string  `json:"providerData"`
}

// ExternalEngines lists the token user's registered engines (GET
// /api/external-engine, scope engine:read).
func (c *Client) ExternalEngines(ctx context.Context) ([]ExternalEngine, error) {
	var out []ExternalEngine
	if err := c.call(ctx, &request{method: "GET", path: "/api/external-engine"}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// CreateExternalEngine registers a new engine (POST /api/external-engine,
// scope engine:write).
func (c *Client) CreateExternalEngine(ctx context.Context, reg EngineRegistration) (*ExternalEngine, error) {
	return c.writeEngine(ctx, "POST", "/api/external-engine", reg)
}

// UpdateExternalEngine replaces engine id's registration (PUT
// /api/external-engine/{id}, scope engine:write).
func (c *Client) UpdateExternalEngine(ctx context.Context, id string, reg EngineRegistration) (*ExternalEngine, error) {
	return c.writeEngine(ctx, "PUT", "/api/external-engine/"+url.PathEscape(id), reg)
}

// DeleteExternalEngine unregisters engine id (DELETE
// /api/external-engine/{id}, scope engine:write).
func (c *Client) DeleteExternalEngine(ctx context.Context, id string) error {
	return c.call(ctx, &request{method: "DELETE", path: "/api/external-engine/" + url.PathEscape(id)}, nil)
}

func (c *Client) writeEngine(ctx context.Context, method, path string, reg EngineRegistration) (*ExternalEngine, error) {
	if err := reg.Validate(); err != nil {
		return nil, fmt.Errorf("lichess: %w", err)
	}
	body, err := json.Marshal(reg)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s %s: %w", method, path, err)
	}
	r := &request{method: method, path: path, body: body, ctype: "application/json"}
	if method == "POST" {
		r.safety = actsOnce // a second registration is not harmless
	}
	var out ExternalEngine
	if err := c.call(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
