#include "textflag.h"

// func prefetchRows(base unsafe.Pointer, idx unsafe.Pointer, n int, width int)
// Issues PREFETCHT0 for the first two cache lines of rows idx[0..n-1] of
// width bytes starting at base.
TEXT ·prefetchRows(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ width+24(FP), DX
loop:
	TESTQ CX, CX
	JEQ done
	MOVLQSX (BX), SI
	IMULQ DX, SI
	PREFETCHT0 (AX)(SI*1)
	PREFETCHT0 64(AX)(SI*1)
	ADDQ $4, BX
	DECQ CX
	JMP loop
done:
	RET

// func prefetchRows1(base unsafe.Pointer, idx unsafe.Pointer, n int, width int)
// Like prefetchRows, one cache line per row.
TEXT ·prefetchRows1(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ width+24(FP), DX
loop1:
	TESTQ CX, CX
	JEQ done1
	MOVLQSX (BX), SI
	IMULQ DX, SI
	PREFETCHT0 (AX)(SI*1)
	ADDQ $4, BX
	DECQ CX
	JMP loop1
done1:
	RET
