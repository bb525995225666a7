package sfbuild

import (
	"fmt"

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
	// NPM is where the networks come from when it is set; otherwise they
	// are exported from Debian's Stockfish (15.1).
	NPM *NPMSource
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
		NPM:        &NPMSource{Package: NPMPackage, Tarball: NPMTarball, Wasm: []string{NPMMember}},
	}
}

// Stockfish16 is Stockfish 16 (tag sf_16, commit 68e1e9b3), the engine of
// Lichess's analysis from fishnet 2.7.0 (2023-07-01); its network is a
// plain file in the npm package stockfish@16.0.0. Its default bench prints
// 2,593,605 nodes (the release commit's figure).
func Stockfish16() Recipe {
	const net = "nn-5af11540bbfe.nnue"
	return Recipe{
		Engine: enginepath.Stockfish16, Version: "16",
		Archive: "stockfish-16-src.tar.gz", Prefix: "stockfish-16/",
		ArchiveSHA256: "6deaa7d61c1729bea2ca8e7581637b2a59664616a9bb9abcbcc24786954b6c32",
		Nets: []wasmnet.Net{{Name: net, Size: 40_119_326,
			SHA256: "5af11540bbfefcb54e38c5dd000cab4b469dfa7599a1d55be5d2722c20a8929b"}},
		BenchNodes: 2_593_605,
		NPM: &NPMSource{Package: "stockfish@16.0.0", Tarball: "stockfish-16.0.0.tgz",
			Files: map[string]string{net: "package/src/" + net}},
	}
}

// Stockfish171 is Stockfish 17.1 (tag sf_17.1, commit 03e27488), the
// engine of Lichess's analysis from fishnet 2.9.5 (2025-03-30); its two
// networks are recovered from npm stockfish@17.1.0's single-threaded
// WebAssembly build, split there into six files. Its default bench prints
// 2,030,154 nodes.
func Stockfish171() Recipe {
	parts := make([]string, 6)
	for i := range parts {
		parts[i] = fmt.Sprintf("package/src/stockfish-17.1-single-a496a04-part-%d.wasm", i)
	}
	return Recipe{
		Engine: enginepath.Stockfish171, Version: "17.1",
		Archive: "stockfish-17.1-src.tar.gz", Prefix: "stockfish-17.1/",
		ArchiveSHA256: "33d2c6641c90e9f5843a14ef0df9a21d9116fc0a69ada6f111b3c61b9c32923f",
		Nets: []wasmnet.Net{
			{Name: "nn-1c0000000000.nnue", Size: 74_874_478, SHA256: "1c0000000000a67d629999d932d0c373f7450ce43cd12d0562868f4eaf9ae2ad"},
			{Name: "nn-37f18f62d772.nnue", Size: 3_519_630, SHA256: "37f18f62d772f3107e1d6aaca3898c130c3c86f2ab63e6555fbbca20635a899d"},
		},
		BenchNodes: 2_030_154,
		NPM:        &NPMSource{Package: "stockfish@17.1.0", Tarball: "stockfish-17.1.0.tgz", Wasm: parts},
	}
}

// NPMSource is an npm package holding a recipe's networks: as plain files
// (Files: net name → member) or inside a WebAssembly module (Wasm: its
// members, concatenated in order, recovered by package wasmnet).
type NPMSource struct {
	// Package is the npm spec (`npm pack` argument); Tarball the file
	// `npm pack` writes for it.
	Package, Tarball string
	Wasm             []string
	Files            map[string]string
}

// Recipes returns every recipe, oldest version first.
func Recipes() []Recipe {
	return []Recipe{Stockfish15(), Stockfish16(), Stockfish171(), Stockfish18()}
}

// RecipeFor returns the recipe of an engine name (sf15, sf16, sf17.1,
// sf18 in any spelling enginepath accepts).
func RecipeFor(name string) (Recipe, bool) {
	c := enginepath.Canonical(name)
	for _, r := range Recipes() {
		if r.Engine == c {
			return r, true
		}
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
