// Package enginepath is the one place that locates the chess engines
// Outpost runs by name: Stockfish 15.1 (sf15: the native build made by
// setup, else Debian's package), Stockfish 16, 17.1 and 18 (sf16, sf17.1,
// sf18: the native builds of `outpost engines install NAME`), Stockfish 19 (sf19: WebAssembly under
// Node.js from the npm package) and auto (sf19 when installed, else sf15).
// Anything that is not a name — a path, a command line — is kept as it is.
//
// Where things live (each directory overridable by an environment
// variable, as the models directory is):
//
//	$OUTPOST_ENGINES_DIR (default ~/.cache/outpost/engines)
//	    stockfish-15.1/stockfish, stockfish-15.1/build.json
//	    stockfish-16/stockfish,   stockfish-16/build.json
//	    stockfish-17.1/stockfish, stockfish-17.1/build.json
//	    stockfish-18/stockfish,   stockfish-18/build.json
//	$OUTPOST_STOCKFISH19_DIR (default ~/.cache/outpost/stockfish19)
//	    stockfish-19-single.js, stockfish-19-single.wasm
//	/usr/games/stockfish (Debian's package stockfish, 15.1)
//
// A native build counts as installed when its binary and its build.json
// (written last, after the build passed its bench identity check) exist.
package enginepath
