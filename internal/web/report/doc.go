// Package report renders analysed games as HTML: an evaluation graph like
// Lichess's (inline SVG), the players' accuracy and judgement counts, the
// move list in which every move opens its position (and, for a judged move,
// the engine's best line) on an SVG board, and the comparison with Lichess's
// own analysis when there is one.
//
// Write produces one self-contained file (inline CSS, JavaScript and SVG;
// nothing is fetched); Game renders one game's fragment for the web console,
// which serves Styles and Script as static assets instead.
package report
