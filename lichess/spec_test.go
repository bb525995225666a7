package lichess

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// specDir is the Lichess OpenAPI spec in the shared reference folder.
const specDir = "../../shared/lichess-api/doc/specs"

// specJSON loads a YAML file of the spec and returns the value at the given
// key path as JSON. The test is skipped when the spec is absent.
func specJSON(t testing.TB, rel string, path ...string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(specDir, rel))
	if os.IsNotExist(err) {
		t.Skipf("spec not available: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: %v is not a mapping", rel, path)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("%s: no key %q", rel, k)
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return out
}

// exampleJSON returns the value of an examples/*.yaml file as JSON.
func exampleJSON(t testing.TB, name string) []byte {
	return specJSON(t, filepath.Join("examples", name), "value")
}

// strictUnmarshal decodes and fails the test on any error.
func strictUnmarshal(t *testing.T, name string, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
