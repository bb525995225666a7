package config

import "testing"

// BenchmarkParseExample measures loading the full example (every option and
// every knob).
func BenchmarkParseExample(b *testing.B) {
	data := Example()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, "example"); err != nil {
			b.Fatal(err)
		}
	}
}
