//go:build cgo && linux

package syzygy

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The entry points of libfathom (Debian's libfathom1) that Outpost calls.
// tbprobe.h's tb_probe_wdl and tb_probe_root are static inline wrappers
// around the _impl functions below; the shim calls the exported ones.
typedef bool (*outpost_tb_init)(const char *);
typedef unsigned (*outpost_tb_wdl)(uint64_t, uint64_t, uint64_t, uint64_t,
	uint64_t, uint64_t, uint64_t, uint64_t, unsigned, bool);
typedef unsigned (*outpost_tb_root)(uint64_t, uint64_t, uint64_t, uint64_t,
	uint64_t, uint64_t, uint64_t, uint64_t, unsigned, unsigned, bool, unsigned *);

typedef struct {
	void *handle;
	outpost_tb_init init;
	outpost_tb_wdl wdl;
	outpost_tb_root root;
	unsigned *largest;
} outpost_fathom;

// outpost_fathom_open loads lib and resolves the entry points. It returns
// NULL on success, else dlerror's message.
static const char *outpost_fathom_open(outpost_fathom *f, const char *lib) {
	f->handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (f->handle == NULL) {
		return dlerror();
	}
	f->init = (outpost_tb_init)dlsym(f->handle, "tb_init");
	f->wdl = (outpost_tb_wdl)dlsym(f->handle, "tb_probe_wdl_impl");
	f->root = (outpost_tb_root)dlsym(f->handle, "tb_probe_root_impl");
	f->largest = (unsigned *)dlsym(f->handle, "TB_LARGEST");
	if (!f->init || !f->wdl || !f->root || !f->largest) {
		const char *e = dlerror();
		dlclose(f->handle);
		f->handle = NULL;
		return e ? e : "libfathom: missing symbol";
	}
	return NULL;
}

static bool outpost_fathom_init(outpost_fathom *f, const char *path) { return f->init(path); }
static unsigned outpost_fathom_largest(outpost_fathom *f) { return *f->largest; }

static unsigned outpost_fathom_wdl(outpost_fathom *f, const uint64_t *bb, unsigned ep, bool turn) {
	return f->wdl(bb[0], bb[1], bb[2], bb[3], bb[4], bb[5], bb[6], bb[7], ep, turn);
}

static unsigned outpost_fathom_root(outpost_fathom *f, const uint64_t *bb, unsigned rule50,
		unsigned ep, bool turn, unsigned *results) {
	return f->root(bb[0], bb[1], bb[2], bb[3], bb[4], bb[5], bb[6], bb[7], rule50, ep, turn, results);
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Available reports whether this build can load libfathom: it can, being
// a cgo build on Linux (the library itself is looked for at Open).
const Available = true

// tbMaxMoves is the size fathom requires of tb_probe_root's results
// array (TB_MAX_MOVES in tbprobe.h: 192 moves and a terminator).
const tbMaxMoves = 193

// fathom is the loaded libfathom: its entry points.
type fathom struct {
	f C.outpost_fathom
}

// loadFathom loads the library at lib (a file name dlopen searches for,
// or a path). It stays loaded for the life of the process.
func loadFathom(lib string) (*fathom, error) {
	fa := &fathom{}
	clib := C.CString(lib)
	defer C.free(unsafe.Pointer(clib))
	if msg := C.outpost_fathom_open(&fa.f, clib); msg != nil {
		return nil, fmt.Errorf("loading %s (install Debian's libfathom1): %s", lib, C.GoString(msg))
	}
	return fa, nil
}

// init (re)initialises the tables from path, fathom's ':'-separated list
// of directories; it reports false when fathom fails.
func (fa *fathom) init(path string) bool {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return bool(C.outpost_fathom_init(&fa.f, cpath))
}

// largest is the most pieces any loaded table covers (0: none found).
func (fa *fathom) largest() int { return int(C.outpost_fathom_largest(&fa.f)) }

// wdl probes the WDL table; it returns fathom's TB_RESULT_FAILED on failure.
func (fa *fathom) wdl(in *input) uint32 {
	return uint32(C.outpost_fathom_wdl(&fa.f, (*C.uint64_t)(unsafe.Pointer(&in.bb[0])),
		C.unsigned(in.ep), C.bool(in.white)))
}

// root probes the DTZ table at the root: the position's result and one
// result per legal move in results (terminated by tbResultFailed).
func (fa *fathom) root(in *input, results *[tbMaxMoves]uint32) uint32 {
	return uint32(C.outpost_fathom_root(&fa.f, (*C.uint64_t)(unsafe.Pointer(&in.bb[0])),
		C.unsigned(in.rule50), C.unsigned(in.ep), C.bool(in.white),
		(*C.unsigned)(unsafe.Pointer(&results[0]))))
}
