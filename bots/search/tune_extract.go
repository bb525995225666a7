package search

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// ExtractOptions configures ExtractTexelPositions.
type ExtractOptions struct {
	// MinPly skips the first plies of every game (the book opening and
	// its immediate aftermath); default 16.
	MinPly int
	// KeepAdjudicated keeps games drawn by the match's ply limit (their
	// label is noisy: often an unresolved position); default false.
	KeepAdjudicated bool
}

// ExtractStats counts what ExtractTexelPositions read and kept.
type ExtractStats struct {
	Games, SkippedGames, Positions, Kept, NotQuiet, Duplicates int
}

// ExtractTexelPositions reads PGN games (as bin/outpost match --pgn writes
// them: SAN movetext, Result and optional FEN tags) and returns their quiet
// positions labelled with the game's result: not in check, not at the
// start of the game (MinPly), with legal moves, and quiet in the sense
// that hard's quiescence search returns the static evaluation (no capture
// or promotion changes the score). Positions repeated (same placement,
// side, castling, en passant and result) are kept once.
func ExtractTexelPositions(ctx context.Context, r io.Reader, opts ExtractOptions) ([]TexelPosition, ExtractStats, error) {
	if opts.MinPly == 0 {
		opts.MinPly = 16
	}
	var st ExtractStats
	var out []TexelPosition
	seen := make(map[string]bool)
	s := &searcher{feat: AllFeatures, kind: EvalPlus, history: new([2][64][64]int32), ctx: ctx}
	err := readPGNGames(r, func(tags map[string]string, moves []string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		st.Games++
		res, ok := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[tags["Result"]]
		if !ok || (!opts.KeepAdjudicated && strings.HasPrefix(tags["Termination"], "adjudicated after")) {
			st.SkippedGames++
			return nil
		}
		fen := board.StartFEN
		if f := tags["FEN"]; f != "" {
			fen = f
		}
		b, err := board.FromFEN(fen)
		if err != nil {
			return fmt.Errorf("game %d: %w", st.Games, err)
		}
		for ply := 0; ; ply++ {
			if ply >= opts.MinPly {
				st.Positions++
				if quietPosition(s, b) {
					key := strings.Join(strings.Fields(b.FEN())[:4], " ") + tags["Result"]
					if seen[key] {
						st.Duplicates++
					} else {
						seen[key] = true
						out = append(out, TexelPosition{FEN: b.FEN(), Result: res})
						st.Kept++
					}
				} else {
					st.NotQuiet++
				}
			}
			if ply == len(moves) {
				return nil
			}
			m, err := b.ParseSAN(moves[ply])
			if err != nil {
				return fmt.Errorf("game %d ply %d: %w", st.Games, ply+1, err)
			}
			b.Make(m)
		}
	})
	if err != nil {
		return nil, st, fmt.Errorf("search: texel extract: %w", err)
	}
	return out, st, nil
}

// quietPosition reports whether b is a usable training position: not in
// check, a legal move to play, and quiescence search agreeing with the
// static evaluation.
func quietPosition(s *searcher, b *board.Board) bool {
	if b.InCheck() || !b.HasLegalMoves() || b.InsufficientMaterial() {
		return false
	}
	s.b, s.nodes, s.stopped = b, 0, false
	defer func() { s.b = nil }()
	return s.qsearch(0, -infinity, infinity) == Evaluate(b, EvalPlus)
}

// readPGNGames calls game for every game in r with its tags and SAN moves
// (move numbers, results, comments and NAGs removed).
func readPGNGames(r io.Reader, game func(tags map[string]string, moves []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	tags := map[string]string{}
	var moves []string
	inMoves := false
	flush := func() error {
		if len(tags) == 0 && len(moves) == 0 {
			return nil
		}
		err := game(tags, moves)
		tags, moves, inMoves = map[string]string{}, nil, false
		return err
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case line[0] == '[':
			if inMoves {
				if err := flush(); err != nil {
					return err
				}
			}
			k, v, ok := parsePGNTag(line)
			if ok {
				tags[k] = v
			}
		default:
			inMoves = true
			moves = appendSANTokens(moves, line)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	return flush()
}

// parsePGNTag splits [Key "Value"].
func parsePGNTag(line string) (string, string, bool) {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
	k, v, ok := strings.Cut(line, " ")
	if !ok {
		return "", "", false
	}
	v = strings.TrimSpace(v)
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", "", false
	}
	v = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
	return k, v, true
}

// appendSANTokens appends the moves of one movetext line.
func appendSANTokens(moves []string, line string) []string {
	for _, tok := range strings.Fields(line) {
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:] // "12." "12..." "12.e4"
		}
		switch {
		case tok == "", tok == "1-0", tok == "0-1", tok == "1/2-1/2", tok == "*", tok[0] == '$', tok[0] == '{', tok[len(tok)-1] == '}':
			continue
		}
		moves = append(moves, tok)
	}
	return moves
}
