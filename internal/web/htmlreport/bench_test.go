package htmlreport

import (
	"io"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

// BenchmarkWrite measures rendering the fixture game (43 plies, 14 judged)
// as a self-contained HTML report.
func BenchmarkWrite(b *testing.B) {
	a := loadFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, []*analysis.Analysis{a}); err != nil {
			b.Fatal(err)
		}
	}
}
