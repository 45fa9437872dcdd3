#include "textflag.h"

// The histogram kernels of buildGroup4 (see hist.go): each document adds
// its gradient pair to one bin of each of 4 features. A bin (hbin) is 24
// bytes, G and H float64 then N int64, and a feature has 256 bins (6144
// bytes). The pair (g, h) is widened from float32 to float64 once per
// document (VCVTPS2PD) and added to a bin's G and H together by one
// 128-bit add, in the same order as the Go kernels add them one by one, so
// the sums are the same bit for bit. With count, the bin's N goes up by 1;
// without (hessians of 1), H counts the documents instead.
//
// Registers:
//	DI	the histogram of the group (4 × 256 bins)
//	SI	the codes (rows of 4 bytes in hist4Seq, R15 bytes in hist4Wide)
//	BX	idx (hist4Wide)
//	DX	the gradient pairs, one per document in order
//	CX	the documents left
//	X0	the document's (g, h) in float64
//	R8…R11	bin offsets; R12, R13 the row; R14 the row to prefetch

// BIN adds X0 to (G, H) of the bin of the code at OFF(CODES) in feature
// K's bins, through the scratch register R (left holding the bin's offset
// in 8-byte words) and X.
#define BIN(CODES, OFF, K, R, X) \
	MOVBLZX     OFF(CODES), R; \
	LEAQ        (R)(R*2), R; \
	VADDPD      (K*6144)(DI)(R*8), X0, X; \
	VMOVUPD     X, (K*6144)(DI)(R*8)

// CNT adds 1 to N of the bin BIN left in R (feature K).
#define CNT(K, R) \
	INCQ (K*6144+16)(DI)(R*8)

// DOC adds the document whose 4 codes are at CODES and whose pair is at DX.
#define DOC(CODES) \
	VCVTPS2PD (DX), X0; \
	BIN(CODES, 0, 0, R8, X1); \
	BIN(CODES, 1, 1, R9, X2); \
	BIN(CODES, 2, 2, R10, X3); \
	BIN(CODES, 3, 3, R11, X4)

// DOCN is DOC with the counts.
#define DOCN(CODES) \
	DOC(CODES); \
	CNT(0, R8); \
	CNT(1, R9); \
	CNT(2, R10); \
	CNT(3, R11)

// func hist4Seq(h *hbin, codes *uint8, gh *GradPair, n int, count bool)
TEXT ·hist4Seq(SB), NOSPLIT, $0-33
	MOVQ    h+0(FP), DI
	MOVQ    codes+8(FP), SI
	MOVQ    gh+16(FP), DX
	MOVQ    n+24(FP), CX
	MOVBLZX count+32(FP), AX
	TESTQ   CX, CX
	JEQ     seqdone
	TESTQ   AX, AX
	JEQ     sequnit

seqcount:
	DOCN(SI)
	ADDQ $4, SI
	ADDQ $8, DX
	DECQ CX
	JNZ  seqcount
	JMP  seqdone

sequnit:
	DOC(SI)
	ADDQ $4, SI
	ADDQ $8, DX
	DECQ CX
	JNZ  sequnit

seqdone:
	VZEROUPPER
	RET

// ahead is how many documents ahead hist4Wide prefetches a row.
#define ahead 32

// ROWW points R13 at the codes of document idx[0] (BX) in rows R15 bytes
// wide; PREFETCHW asks for the first two cache lines of the row of
// idx[ahead]; NEXT moves on to the next document.
#define ROWW \
	MOVLQSX (BX), R12; \
	IMULQ   R15, R12; \
	LEAQ    (SI)(R12*1), R13

#define PREFETCHW \
	MOVLQSX    (ahead*4)(BX), R14; \
	IMULQ      R15, R14; \
	PREFETCHT0 (SI)(R14*1); \
	PREFETCHT0 64(SI)(R14*1)

#define NEXT \
	ADDQ $4, BX; \
	ADDQ $8, DX; \
	DECQ CX

// func hist4Wide(h *hbin, rows *uint8, width int, idx *int32, gh *GradPair, n int, count, prefetch bool)
TEXT ·hist4Wide(SB), NOSPLIT, $0-50
	MOVQ    h+0(FP), DI
	MOVQ    rows+8(FP), SI
	MOVQ    width+16(FP), R15
	MOVQ    idx+24(FP), BX
	MOVQ    gh+32(FP), DX
	MOVQ    n+40(FP), CX
	MOVBLZX count+48(FP), AX
	MOVBLZX prefetch+49(FP), R9
	TESTQ   R9, R9
	JEQ     widenopf
	TESTQ   AX, AX
	JEQ     wideunitpf

widecountpf:
	CMPQ CX, $ahead
	JLE  widecount
	PREFETCHW
	ROWW
	DOCN(R13)
	NEXT
	JMP  widecountpf

wideunitpf:
	CMPQ CX, $ahead
	JLE  wideunit
	PREFETCHW
	ROWW
	DOC(R13)
	NEXT
	JMP  wideunitpf

widenopf:
	TESTQ AX, AX
	JEQ   wideunit

widecount:
	TESTQ CX, CX
	JEQ   widedone
	ROWW
	DOCN(R13)
	NEXT
	JMP   widecount

wideunit:
	TESTQ CX, CX
	JEQ   widedone
	ROWW
	DOC(R13)
	NEXT
	JMP   wideunit

widedone:
	VZEROUPPER
	RET
