// Package svgboard draws chess positions as self-contained SVG (no fonts or
// images to fetch beyond the system's Unicode chess glyphs) and replays
// moves into positions for the web console and the HTML reports.
package svgboard
