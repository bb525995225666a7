// Package htmlreport renders analysed games as HTML: an evaluation graph like
// Lichess's (inline SVG), the players' accuracy and judgement counts, the
// move list in which every move opens its position (and, for a judged move,
// the engine's best line) on an SVG board, the expected winrate at the
// critical moments when computed (GameEWR, WriteEWR: the position before
// each move with the played and the best practical move, both expected
// winrates and their confidence), and the comparison with Lichess's own
// analysis when there is one.
//
// Write produces one self-contained file (inline CSS, JavaScript and SVG;
// nothing is fetched); Game renders one game's fragment for the web console,
// which serves Styles and Script as static assets instead.
package htmlreport
