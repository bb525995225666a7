//go:build cgo && linux

package syzygy

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>

// The entry points of libfathom (Debian's libfathom1) that Outpost calls.
// tbprobe.h's tb_probe_wdl and tb_probe_root are static inline wrappers
// around the _impl functions below; the shim calls the exported ones.
typedef bool (*outpost_tb_init)(const char *);
typedef void (*outpost_tb_free)(void);
typedef unsigned (*outpost_tb_wdl)(uint64_t, uint64_t, uint64_t, uint64_t,
	uint64_t, uint64_t, uint64_t, uint64_t, unsigned, bool);
typedef unsigned (*outpost_tb_root)(uint64_t, uint64_t, uint64_t, uint64_t,
	uint64_t, uint64_t, uint64_t, uint64_t, unsigned, unsigned, bool, unsigned *);

typedef struct {
	void *handle;
	outpost_tb_init init;
	outpost_tb_free free;
	outpost_tb_wdl wdl;
	outpost_tb_root root;
	unsigned *largest;
	FILE *quiet;
	int (*fclose)(FILE *);
} outpost_fathom;

// outpost_fathom_silence points the stderr of the namespace's own C library
// (not the process's file descriptor 2) at /dev/null: Debian's libfathom
// 1.0+git.20190811 prints "munmap: ..." from tb_free even when munmap
// succeeds. Best effort: on failure the messages stay.
static void outpost_fathom_silence(outpost_fathom *f) {
	FILE **err = (FILE **)dlsym(f->handle, "stderr");
	FILE *(*open)(const char *, const char *) =
		(FILE *(*)(const char *, const char *))dlsym(f->handle, "fopen");
	f->fclose = (int (*)(FILE *))dlsym(f->handle, "fclose");
	if (err == NULL || open == NULL || f->fclose == NULL) {
		return;
	}
	f->quiet = open("/dev/null", "w");
	if (f->quiet != NULL) {
		*err = f->quiet;
	}
}

// outpost_fathom_open loads lib in a link-map namespace of its own, so that
// each prober has its own copy of the library's global tables, and resolves
// the entry points. It returns NULL on success, else dlerror's message.
static const char *outpost_fathom_open(outpost_fathom *f, const char *lib) {
	f->handle = dlmopen(LM_ID_NEWLM, lib, RTLD_NOW | RTLD_LOCAL);
	if (f->handle == NULL) {
		return dlerror();
	}
	f->init = (outpost_tb_init)dlsym(f->handle, "tb_init");
	f->free = (outpost_tb_free)dlsym(f->handle, "tb_free");
	f->wdl = (outpost_tb_wdl)dlsym(f->handle, "tb_probe_wdl_impl");
	f->root = (outpost_tb_root)dlsym(f->handle, "tb_probe_root_impl");
	f->largest = (unsigned *)dlsym(f->handle, "TB_LARGEST");
	if (!f->init || !f->free || !f->wdl || !f->root || !f->largest) {
		const char *e = dlerror();
		dlclose(f->handle);
		f->handle = NULL;
		return e ? e : "libfathom: missing symbol";
	}
	outpost_fathom_silence(f);
	return NULL;
}

static bool outpost_fathom_init(outpost_fathom *f, const char *path) { return f->init(path); }
static unsigned outpost_fathom_largest(outpost_fathom *f) { return *f->largest; }

static void outpost_fathom_close(outpost_fathom *f) {
	if (f->handle != NULL) {
		f->free();
		if (f->quiet != NULL) {
			f->fclose(f->quiet);
			f->quiet = NULL;
		}
		dlclose(f->handle);
		f->handle = NULL;
	}
}

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
	"strings"
	"unsafe"
)

// tbMaxMoves is the size fathom requires of tb_probe_root's results
// array (TB_MAX_MOVES in tbprobe.h: 192 moves and a terminator).
const tbMaxMoves = 193

// fathom is one loaded copy of libfathom with its tables initialised.
type fathom struct {
	f C.outpost_fathom
}

// loadFathom loads the library at lib (a file name dlopen searches for,
// or a path) and initialises it with path, fathom's ':'-separated list
// of table directories.
func loadFathom(lib, path string) (*fathom, error) {
	fa := &fathom{}
	clib := C.CString(lib)
	defer C.free(unsafe.Pointer(clib))
	if msg := C.outpost_fathom_open(&fa.f, clib); msg != nil {
		text := C.GoString(msg)
		if strings.Contains(text, "cannot open shared object") {
			return nil, fmt.Errorf("loading %s (install Debian's libfathom1): %s", lib, text)
		}
		// glibc gives a process about a dozen link-map namespaces.
		return nil, fmt.Errorf("loading %s (too many tablebases open at once?): %s", lib, text)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	if !C.outpost_fathom_init(&fa.f, cpath) {
		C.outpost_fathom_close(&fa.f)
		return nil, fmt.Errorf("initialising tables in %s failed", path)
	}
	return fa, nil
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

// close frees the tables and unloads the library.
func (fa *fathom) close() { C.outpost_fathom_close(&fa.f) }
