//go:build amd64 && !purego

#include "textflag.h"

// func dot4x2SIMD(s *[8]float32, w0, w1, w2, w3, c0, c1 *float32, n int)
//
// Y0..Y7 accumulate w0·c0, w0·c1, w1·c0, w1·c1, w2·c0, w2·c1, w3·c0, w3·c1
// eight lanes at a time; the lanes are then summed with two rounds of
// horizontal adds and one add of the 128-bit halves, giving the eight dot
// products in order.
TEXT ·dot4x2SIMD(SB), NOSPLIT, $0-64
	MOVQ w0+8(FP), AX
	MOVQ w1+16(FP), BX
	MOVQ w2+24(FP), CX
	MOVQ w3+32(FP), DX
	MOVQ c0+40(FP), SI
	MOVQ c1+48(FP), DI
	MOVQ n+56(FP), R8
	SHLQ $2, R8
	XORQ R9, R9
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

loop:
	VMOVUPS (SI)(R9*1), Y8
	VMOVUPS (DI)(R9*1), Y9
	VMOVUPS (AX)(R9*1), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VMOVUPS (BX)(R9*1), Y11
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VMOVUPS (CX)(R9*1), Y12
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VMOVUPS (DX)(R9*1), Y13
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $32, R9
	CMPQ R9, R8
	JLT  loop

	VHADDPS Y1, Y0, Y8
	VHADDPS Y3, Y2, Y9
	VHADDPS Y5, Y4, Y10
	VHADDPS Y7, Y6, Y11
	VHADDPS Y9, Y8, Y8
	VHADDPS Y11, Y10, Y10
	VEXTRACTF128 $1, Y8, X9
	VADDPS X9, X8, X8
	VEXTRACTF128 $1, Y10, X11
	VADDPS X11, X10, X10
	MOVQ s+0(FP), R10
	VMOVUPS X8, (R10)
	VMOVUPS X10, 16(R10)
	VZEROUPPER
	RET
