#include "textflag.h"

// func prefetchRows(base unsafe.Pointer, idx unsafe.Pointer, n int, width int, lines int)
// Issues PREFETCHT0 for the first cache line (and the second when lines is
// 2) of rows idx[0..n-1] of width bytes starting at base.
TEXT ·prefetchRows(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), AX
	MOVQ idx+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ width+24(FP), DX
	MOVQ lines+32(FP), DI
loop:
	TESTQ CX, CX
	JEQ done
	MOVLQSX (BX), SI
	IMULQ DX, SI
	PREFETCHT0 (AX)(SI*1)
	CMPQ DI, $2
	JLT next
	PREFETCHT0 64(AX)(SI*1)
next:
	ADDQ $4, BX
	DECQ CX
	JMP loop
done:
	RET
