package svgboard

import "testing"

// BenchmarkSVG measures drawing the start position with a highlight and an
// arrow.
func BenchmarkSVG(b *testing.B) {
	o := Options{Highlight: []string{"e2", "e4"}, Arrows: []Arrow{{From: "g1", To: "f3", Kind: "best"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SVG(StartFEN, o); err != nil {
			b.Fatal(err)
		}
	}
}
