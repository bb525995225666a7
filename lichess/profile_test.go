package lichess

import (
	"strings"
	"testing"
	"time"
)

// TestWriteProfile: the account summary `outpost account` prints, for a
// titled human with a token and for a flagged BOT without token details.
func TestWriteProfile(t *testing.T) {
	tests := []struct {
		name string
		u    User
		info *TokenInfo
		want string
	}{
		{
			name: "human",
			u: User{ID: "alice", Username: "Alice", Title: "FM", CreatedAt: time.Date(2020, 3, 4, 23, 0, 0, 0, time.UTC).UnixMilli(),
				Count: &Count{All: 10, Win: 5, Draw: 2, Loss: 3, Playing: 1},
				Perfs: map[string]PerfStats{"rapid": {Games: 4, Rating: 1900, Prov: true}, "blitz": {Games: 6, Rating: 2010}, "puzzle": {Games: 0, Rating: 1500}}},
			info: &TokenInfo{UserID: "alice", Scopes: []string{"bot:play", "challenge:write"}, Expires: time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)},
			want: "account:  Alice (id alice)\n" +
				"type:     human (Board API)\n" +
				"title:    FM\n" +
				"created:  2020-03-04\n" +
				"games:    10 (won 5, drawn 2, lost 3; playing now 1)\n" +
				"ratings:  blitz 2010 (6 games), rapid 1900? (4 games)\n" +
				"token:    scopes bot:play, challenge:write; expires 2027-01-02T03:04:05Z\n",
		},
		{
			name: "flagged bot",
			u:    User{ID: "robo", Username: "Robo", Title: "BOT", Disabled: true},
			info: &TokenInfo{UserID: "robo"},
			want: "account:  Robo (id robo)\n" +
				"type:     BOT (BOT API)\n" +
				"status:   disabled=true tosViolation=false\n" +
				"token:    scopes (none)\n",
		},
		{
			name: "no token details",
			u:    User{ID: "robo", Username: "Robo", Title: "BOT"},
			want: "account:  Robo (id robo)\n" +
				"type:     BOT (BOT API)\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			WriteProfile(&b, &tc.u, tc.info)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
