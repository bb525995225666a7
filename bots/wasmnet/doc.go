// Package wasmnet recovers Stockfish's NNUE network files from a
// WebAssembly build of the engine (such as the npm package stockfish's
// single-threaded Emscripten builds), byte for byte.
//
// Emscripten puts the networks Stockfish embeds into the module's active
// data segments (section 11), split into many pieces with runs of zero bytes
// left out. Recovery is four steps, each its own function:
//
//  1. DataSegments parses the module and lists its data segments;
//  2. Memory rebuilds the initial linear memory by copying every active
//     segment to its offset (the dropped zeros are the memory's zeros);
//  3. Headers finds the networks' headers (uint32 LE version 0x7AF32F20,
//     hash, description length, description);
//  4. Recover cuts each wanted network at a header where the SHA-256 of its
//     bytes starts with the 12 hex digits of its file name
//     (nn-c288c895ea92.nnue), and checks the whole SHA-256.
//
// Only facts of the WebAssembly binary format (the module header, the
// section layout, LEB128 integers, data segment kinds 0, 1 and 2 and
// constant offset expressions) are used; no WebAssembly is run.
package wasmnet
