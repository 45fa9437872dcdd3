#include "textflag.h"

// gramDot4x3: the register-blocked AVX2/FMA kernel of Gram (see gram.go),
// the 12 dot products of 4 columns a with 3 columns b over n float64
// documents (n a multiple of 4), 4 documents per step.
//
// Registers:
//	AX, BX, CX, DX	a[0], a[1], a[2], a[3]
//	R8, R9, R10	b[0], b[1], b[2]
//	SI		the document index q, R11 = n, DI = out
//	Y0…Y11		the accumulators: Y(4j+i) holds the 4 lanes of a[i]·b[j]
//	Y12, Y13, Y14	b0, b1, b2 at q…q+3
//	Y15		a[i] at q…q+3, one i after the other
//
// Each step loads the 3 b's once and each a once (7 loads for 12 FMAs).
// At the end each group Y(4j)…Y(4j+3) is reduced to the 4 sums of a[0…3]
// with b[j], (l0+l1)+(l2+l3) per sum, and stored to out[4j…4j+3].

// ZERO4 clears four registers.
#define ZERO4(A, B, C, D) \
	VXORPD A, A, A; \
	VXORPD B, B, B; \
	VXORPD C, C, C; \
	VXORPD D, D, D

// ROW adds a[i]·b[0…2] at q…q+3 to the accumulators B0, B1, B2, for the
// column a[i] at P.
#define ROW(P, B0, B1, B2) \
	VMOVUPD     (P)(SI*8), Y15; \
	VFMADD231PD Y12, Y15, B0; \
	VFMADD231PD Y13, Y15, B1; \
	VFMADD231PD Y14, Y15, B2

// REDUCE stores the sums of the accumulators A, B, C, D (4 lanes each) to
// OFF(DI)…OFF+24(DI): VHADDPD gives [l0+l1 of A, of B, l2+l3 of A, of B] and
// the same for C, D; the two VPERM2F128 gather the l0+l1 halves and the
// l2+l3 halves, and VADDPD adds them.
#define REDUCE(A, B, C, D, OFF) \
	VHADDPD    B, A, Y12; \
	VHADDPD    D, C, Y13; \
	VPERM2F128 $0x20, Y13, Y12, Y14; \
	VPERM2F128 $0x31, Y13, Y12, Y15; \
	VADDPD     Y15, Y14, Y14; \
	VMOVUPD    Y14, OFF(DI)

// func gramDot4x3(a *[4]*float64, b *[3]*float64, n int, out *[12]float64)
TEXT ·gramDot4x3(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ 0(SI), AX
	MOVQ 8(SI), BX
	MOVQ 16(SI), CX
	MOVQ 24(SI), DX
	MOVQ 0(DI), R8
	MOVQ 8(DI), R9
	MOVQ 16(DI), R10
	MOVQ n+16(FP), R11
	MOVQ out+24(FP), DI
	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y4, Y5, Y6, Y7)
	ZERO4(Y8, Y9, Y10, Y11)

	XORQ SI, SI
	CMPQ SI, R11
	JGE  reduce

loop:
	VMOVUPD (R8)(SI*8), Y12
	VMOVUPD (R9)(SI*8), Y13
	VMOVUPD (R10)(SI*8), Y14
	ROW(AX, Y0, Y4, Y8)
	ROW(BX, Y1, Y5, Y9)
	ROW(CX, Y2, Y6, Y10)
	ROW(DX, Y3, Y7, Y11)
	ADDQ    $4, SI
	CMPQ    SI, R11
	JLT     loop

reduce:
	REDUCE(Y0, Y1, Y2, Y3, 0)
	REDUCE(Y4, Y5, Y6, Y7, 32)
	REDUCE(Y8, Y9, Y10, Y11, 64)
	VZEROUPPER
	RET

// gramDot8x3: gramDot4x3 on 8 columns a at once with AVX-512 F and VL (see
// gram_amd64.go), bit for bit two calls of it: each ZMM accumulator holds
// two of gramDot4x3's 4-lane sums, a[i]·b[j] in its low half and
// a[i+4]·b[j] in its high half, over the same 4 documents per step.
//
// Registers:
//	AX, BX, CX, DX	a[0…3];  R12, R13, R14, R15  a[4…7]
//	R8, R9, R10	b[0…2];  SI the document index q, R11 = n, DI = out
//	Z0…Z11		the accumulators: Z(4j+i) = [a[i]·b[j] | a[i+4]·b[j]]
//	Z12, Z13, Z14	b0, b1, b2 at q…q+3, in both halves
//	Z15		[a[i] | a[i+4]] at q…q+3, one i after the other
//
// At the end the low halves (the Y registers) are reduced as gramDot4x3
// reduces them, to out[0…11]; then each high half is moved down and
// reduced the same way, to out[12…23].

// ROW8 adds [a[i] | a[i+4]]·b[0…2] at q…q+3 to B0, B1, B2.
#define ROW8(P, Q, B0, B1, B2) \
	VMOVUPD       (P)(SI*8), Y15; \
	VINSERTF64X4  $1, (Q)(SI*8), Z15, Z15; \
	VFMADD231PD   Z12, Z15, B0; \
	VFMADD231PD   Z13, Z15, B1; \
	VFMADD231PD   Z14, Z15, B2

// func gramDot8x3(a *[8]*float64, b *[3]*float64, n int, out *[24]float64)
TEXT ·gramDot8x3(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ 0(SI), AX
	MOVQ 8(SI), BX
	MOVQ 16(SI), CX
	MOVQ 24(SI), DX
	MOVQ 32(SI), R12
	MOVQ 40(SI), R13
	MOVQ 48(SI), R14
	MOVQ 56(SI), R15
	MOVQ 0(DI), R8
	MOVQ 8(DI), R9
	MOVQ 16(DI), R10
	MOVQ n+16(FP), R11
	MOVQ out+24(FP), DI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11

	XORQ SI, SI
	CMPQ SI, R11
	JGE  reduce8

loop8:
	VBROADCASTF64X4 (R8)(SI*8), Z12
	VBROADCASTF64X4 (R9)(SI*8), Z13
	VBROADCASTF64X4 (R10)(SI*8), Z14
	ROW8(AX, R12, Z0, Z4, Z8)
	ROW8(BX, R13, Z1, Z5, Z9)
	ROW8(CX, R14, Z2, Z6, Z10)
	ROW8(DX, R15, Z3, Z7, Z11)
	ADDQ $4, SI
	CMPQ SI, R11
	JLT  loop8

reduce8:
	// The high halves, kept in Z16…Z27 while the low ones are reduced
	// (REDUCE's VEX instructions reach Y0…Y15 only).
	VEXTRACTF64X4 $1, Z0, Y16
	VEXTRACTF64X4 $1, Z1, Y17
	VEXTRACTF64X4 $1, Z2, Y18
	VEXTRACTF64X4 $1, Z3, Y19
	VEXTRACTF64X4 $1, Z4, Y20
	VEXTRACTF64X4 $1, Z5, Y21
	VEXTRACTF64X4 $1, Z6, Y22
	VEXTRACTF64X4 $1, Z7, Y23
	VEXTRACTF64X4 $1, Z8, Y24
	VEXTRACTF64X4 $1, Z9, Y25
	VEXTRACTF64X4 $1, Z10, Y26
	VEXTRACTF64X4 $1, Z11, Y27
	REDUCE(Y0, Y1, Y2, Y3, 0)
	REDUCE(Y4, Y5, Y6, Y7, 32)
	REDUCE(Y8, Y9, Y10, Y11, 64)
	VMOVAPD Y16, Y0
	VMOVAPD Y17, Y1
	VMOVAPD Y18, Y2
	VMOVAPD Y19, Y3
	VMOVAPD Y20, Y4
	VMOVAPD Y21, Y5
	VMOVAPD Y22, Y6
	VMOVAPD Y23, Y7
	VMOVAPD Y24, Y8
	VMOVAPD Y25, Y9
	VMOVAPD Y26, Y10
	VMOVAPD Y27, Y11
	REDUCE(Y0, Y1, Y2, Y3, 96)
	REDUCE(Y4, Y5, Y6, Y7, 128)
	REDUCE(Y8, Y9, Y10, Y11, 160)
	VZEROUPPER
	RET
