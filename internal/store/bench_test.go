package store

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkReserveMove measures the journal write on the daemon's path from
// a game state to its move.
func BenchmarkReserveMove(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.ReserveMove(ctx, SentMove{GameID: "g", Ply: i, UCI: "e2e4"}); err != nil {
			b.Fatal(err)
		}
	}
}
