package svgboard

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// square is the side of one square in SVG user units; the board is 8×square
// plus nothing else (coordinates are drawn inside the edge squares).
const square = 45

// Arrow is an arrow drawn from one square to another ("e2", "e4"). Kind
// selects its colour: "best" (green), "played" (orange) or anything else
// (blue).
type Arrow struct {
	From, To string
	Kind     string
}

// Options shape one drawing.
type Options struct {
	// Flip draws the board from Black's side.
	Flip bool
	// Highlight lists squares ("e2") to tint, e.g. the last move.
	Highlight []string
	// Arrows are drawn over the pieces.
	Arrows []Arrow
	// Label is the accessible name of the drawing ("Position after 12. Nf3").
	Label string
	// Class is added to the svg element's class attribute.
	Class string
}

// glyph is the filled Unicode glyph of each piece kind; both colours use the
// filled form and are told apart by fill and outline.
var glyph = map[byte]string{'k': "\u265a", 'q': "\u265b", 'r': "\u265c", 'b': "\u265d", 'n': "\u265e", 'p': "\u265f"}

// pieceName names each piece kind for the accessible description.
var pieceName = map[byte]string{'k': "king", 'q': "queen", 'r': "rook", 'b': "bishop", 'n': "knight", 'p': "pawn"}

// arrowColour maps an arrow kind to its colour (chosen to stay visible on
// both square colours and to differ for colour-blind readers by lightness).
func arrowColour(kind string) string {
	switch kind {
	case "best":
		return "#1b7f3b"
	case "played":
		return "#c2410c"
	}
	return "#1d4ed8"
}

// SVG draws the position of a FEN (only its placement field is needed; the
// rest is ignored) as an <svg> element. It returns an error naming the
// defect when the placement is malformed or an option names a bad square.
// Long: the board, the pieces, the highlights and the arrows drawn in order into one element.
func SVG(fen string, o Options) (string, error) {
	grid, err := ParsePlacement(fen)
	if err != nil {
		return "", err
	}
	hl := make(map[int]bool, len(o.Highlight))
	for _, s := range o.Highlight {
		i, err := squareIndex(s)
		if err != nil {
			return "", fmt.Errorf("board: highlight: %w", err)
		}
		hl[i] = true
	}
	var b strings.Builder
	label := o.Label
	if label == "" {
		label = "Chess position"
	}
	class := "board"
	if o.Class != "" {
		class += " " + o.Class
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="%s" viewBox="0 0 %d %d" role="img" aria-label="%s" data-fen="%s">`,
		html.EscapeString(class), 8*square, 8*square, html.EscapeString(label), html.EscapeString(fen))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(label+": "+Describe(grid)))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f0d9b5"/>`, 8*square, 8*square)
	// Dark squares as one path.
	b.WriteString(`<path fill="#b58863" d="`)
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			if (r+f)%2 == 1 {
				fmt.Fprintf(&b, "M%d %dh%dv%dh-%dz", f*square, r*square, square, square, square)
			}
		}
	}
	b.WriteString(`"/>`)
	for i := 0; i < 64; i++ {
		if hl[i] {
			x, y := o.xy(i)
			fmt.Fprintf(&b, `<rect class="hl" x="%d" y="%d" width="%d" height="%d" fill="#cdd26a" fill-opacity="0.75"/>`, x, y, square, square)
		}
	}
	// Coordinates.
	for k := 0; k < 8; k++ {
		file, rank := k, 7-k
		if o.Flip {
			file, rank = 7-k, k
		}
		fill := "#b58863"
		if k%2 == 1 {
			fill = "#f0d9b5"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="9" font-family="sans-serif" fill="%s">%c</text>`, k*square+square-8, 8*square-3, fill, 'a'+file)
		fill2 := "#f0d9b5"
		if k%2 == 1 {
			fill2 = "#b58863"
		}
		fmt.Fprintf(&b, `<text x="2" y="%d" font-size="9" font-family="sans-serif" fill="%s">%d</text>`, k*square+10, fill2, rank+1)
	}
	for i := 0; i < 64; i++ {
		p := grid[i]
		if p == 0 {
			continue
		}
		x, y := o.xy(i)
		lower := p | 0x20
		fill, stroke := "#ffffff", "#1a1a1a"
		if p == lower {
			fill, stroke = "#1a1a1a", "#f5f5f5"
		}
		fmt.Fprintf(&b, `<text class="pc" x="%d" y="%d" text-anchor="middle" font-size="38" font-family="'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols2',serif" fill="%s" stroke="%s" stroke-width="1.2" data-piece="%c">%s</text>`,
			x+square/2, y+square-8, fill, stroke, p, glyph[lower])
	}
	for _, a := range o.Arrows {
		if err := o.arrow(&b, a); err != nil {
			return "", err
		}
	}
	b.WriteString(`</svg>`)
	return b.String(), nil
}

// xy returns the top-left corner of square index i (a1 = 0, h8 = 63).
func (o Options) xy(i int) (int, int) {
	f, r := i%8, i/8
	if o.Flip {
		return (7 - f) * square, r * square
	}
	return f * square, (7 - r) * square
}

func (o Options) arrow(b *strings.Builder, a Arrow) error {
	from, err := squareIndex(a.From)
	if err != nil {
		return fmt.Errorf("board: arrow: %w", err)
	}
	to, err := squareIndex(a.To)
	if err != nil {
		return fmt.Errorf("board: arrow: %w", err)
	}
	if from == to {
		return nil
	}
	x0, y0 := o.xy(from)
	x1, y1 := o.xy(to)
	fx, fy := float64(x0+square/2), float64(y0+square/2)
	tx, ty := float64(x1+square/2), float64(y1+square/2)
	dx, dy := tx-fx, ty-fy
	n := math.Hypot(dx, dy)
	ux, uy := dx/n, dy/n
	head := 16.0
	// Shaft ends where the head begins.
	sx, sy := tx-ux*head, ty-uy*head
	col := arrowColour(a.Kind)
	fmt.Fprintf(b, `<g class="arrow arrow-%s" opacity="0.8"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="7" stroke-linecap="round"/>`,
		html.EscapeString(a.Kind), fx, fy, sx, sy, col)
	px, py := -uy, ux
	fmt.Fprintf(b, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"/></g>`,
		tx, ty, sx+px*10, sy+py*10, sx-px*10, sy-py*10, col)
	return nil
}

// squareIndex parses "e4" into 0..63 (a1 = 0).
func squareIndex(s string) (int, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, fmt.Errorf("bad square %q (want a1..h8)", s)
	}
	return int(s[1]-'1')*8 + int(s[0]-'a'), nil
}

// ParsePlacement parses the placement field of a FEN (the text before the
// first space) into 64 squares, a1 first; an empty square is 0, a piece its
// FEN letter.
func ParsePlacement(fen string) ([64]byte, error) {
	var grid [64]byte
	field, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return grid, fmt.Errorf("board: fen %q: placement has %d ranks, want 8", fen, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
			case strings.IndexByte("kqrbnpKQRBNP", c) >= 0:
				if file > 7 {
					return grid, fmt.Errorf("board: fen %q: rank %d has more than 8 squares", fen, rank+1)
				}
				grid[rank*8+file] = c
				file++
			default:
				return grid, fmt.Errorf("board: fen %q: bad placement character %q", fen, c)
			}
			if file > 8 {
				return grid, fmt.Errorf("board: fen %q: rank %d has more than 8 squares", fen, rank+1)
			}
		}
		if file != 8 {
			return grid, fmt.Errorf("board: fen %q: rank %d has %d squares, want 8", fen, rank+1, file)
		}
	}
	return grid, nil
}

// Describe lists the pieces of a grid for screen readers: "White: king e1,
// pawn e4; Black: king e8".
func Describe(grid [64]byte) string {
	var w, bl []string
	for _, kind := range []byte("kqrbnp") {
		for i := 0; i < 64; i++ {
			p := grid[i]
			if p == 0 || p|0x20 != kind {
				continue
			}
			s := pieceName[kind] + " " + string(rune('a'+i%8)) + string(rune('1'+i/8))
			if p == kind {
				bl = append(bl, s)
			} else {
				w = append(w, s)
			}
		}
	}
	return "White: " + strings.Join(w, ", ") + "; Black: " + strings.Join(bl, ", ")
}
