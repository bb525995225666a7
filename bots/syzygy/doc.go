// Package syzygy probes local Syzygy endgame tablebases (WDL .rtbw and DTZ
// .rtbz files) and offers them as a move source ("syzygy") and as a WDL
// oracle for search.
//
// Probing goes through Debian's libfathom1 (Fathom, the reference Syzygy
// prober as a C library), loaded at run time with dlmopen from a small cgo
// shim: the module builds and runs without it, and Open reports a clear
// error when it is missing. Each Tables loads its own copy of the library
// in a link-map namespace of its own, because Fathom keeps its tables in
// global variables; two Tables with different directories therefore do
// not interfere. Writing a Go reader of the Syzygy format was the
// alternative; the library is the reference implementation, packaged,
// and small (47 kB), so it won.
package syzygy
