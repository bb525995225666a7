package sfbuild

import (
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/wasmnet"
)

// Recipe is one Stockfish version to build.
type Recipe struct {
	// Engine is its enginepath name (sf15, sf18).
	Engine string
	// Version is Stockfish's version, e.g. "15.1".
	Version string
	// Archive is the source archive's file name; Prefix its top directory
	// (git archive --prefix).
	Archive, Prefix string
	// ArchiveSHA256 is the archive's SHA-256.
	ArchiveSHA256 string
	// Nets are the networks the build embeds (src/evaluate.h).
	Nets []wasmnet.Net
	// BenchArgs are the arguments after "bench"; BenchNodes the node count
	// that identifies the version (the same for every ARCH).
	BenchArgs  []string
	BenchNodes int64
}

// Stockfish15 is Stockfish 15.1 (tag sf_15.1, commit 758f9c93), the version
// of Debian's package; its network is exported from Debian's binary.
func Stockfish15() Recipe {
	return Recipe{
		Engine: enginepath.Stockfish15, Version: "15.1",
		Archive: "stockfish-15.1-src.tar.gz", Prefix: "stockfish-15.1/",
		ArchiveSHA256: "1707ffff560b8dbc21bace2fcd298b8a75a83c2c8a80c03c23cc04a97c52d67c",
		Nets: []wasmnet.Net{{Name: "nn-ad9b42354671.nnue", Size: 47_001_499,
			SHA256: "ad9b423546714137916bd38978af6fd68d7b8951bef25ff76bf43da72d6cb786"}},
		BenchArgs: []string{"16", "1", "13"}, BenchNodes: 3_467_381,
	}
}

// Stockfish18 is Stockfish 18 (tag sf_18, commit cb3d4ee9), the engine of
// Lichess's analysis from fishnet 2.13.0; its networks come from the npm
// package stockfish@18.0.8. Its default bench prints 2,050,811 nodes (the
// figure in the release commit).
func Stockfish18() Recipe {
	return Recipe{
		Engine: enginepath.Stockfish18, Version: "18",
		Archive: "stockfish-18-src.tar.gz", Prefix: "stockfish-18/",
		ArchiveSHA256: "4ddba4f5c853786aa30f49c216e56f6100e0c8226ccc5a2c827acc20d9a218e2",
		Nets: []wasmnet.Net{
			{Name: "nn-c288c895ea92.nnue", Size: 108_919_594, SHA256: "c288c895ea924429ea9092e3f36b2b3c1f00f2a3a4c759ff7e57e79e3b43e4a7"},
			{Name: "nn-37f18f62d772.nnue", Size: 3_519_630, SHA256: "37f18f62d772f3107e1d6aaca3898c130c3c86f2ab63e6555fbbca20635a899d"},
		},
		BenchNodes: 2_050_811,
	}
}

// RecipeFor returns the recipe of an engine name (sf15, sf18 in any
// spelling enginepath accepts).
func RecipeFor(name string) (Recipe, bool) {
	switch enginepath.Canonical(name) {
	case enginepath.Stockfish15:
		return Stockfish15(), true
	case enginepath.Stockfish18:
		return Stockfish18(), true
	}
	return Recipe{}, false
}

// Stockfish 18's networks in npm.
const (
	// NPMPackage holds Stockfish 18's single-threaded WebAssembly build.
	NPMPackage = "stockfish@18.0.8"
	// NPMTarball is the file `npm pack` writes for it.
	NPMTarball = "stockfish-18.0.8.tgz"
	// NPMMember is the WebAssembly module inside the tarball.
	NPMMember = "package/bin/stockfish-18-single.wasm"
)
