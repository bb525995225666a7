package analysis

import (
	"math"
	"testing"
)

func TestMoveAccuracy(t *testing.T) {
	if MoveAccuracy(50, 60) != 100 || MoveAccuracy(50, 50) != 100 {
		t.Error("no drop must be 100")
	}
	want := 103.1668100711649*math.Exp(-0.04354415386753951*10) - 3.166924740191411 + 1
	if got := MoveAccuracy(60, 50); math.Abs(got-want) > 1e-12 {
		t.Errorf("drop 10: %v, want %v", got, want)
	}
	if MoveAccuracy(100, 0) != 0 {
		t.Errorf("drop 100: %v", MoveAccuracy(100, 0))
	}
}
