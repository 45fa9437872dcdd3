#include "textflag.h"

// lambdaPairs4: the all-pairs loop of lambdaRank.query for one document i
// over its partners j, four at a time (AVX), with the per-document
// exponentials. Each lane computes its pair's terms with the operations
// of the Go loop, in the same order (or mirrored where that is exact:
// |a − b| = |b − a|, a + b = b + a, a·b = b·a), and the four pairs' terms
// are then added to i's sums and the query's Σλ one lane after the other,
// in the order of j, so the result is the Go loop's bit for bit. A pair
// of equal labels adds −0 to a running "+=" sum and subtracts +0 from a
// "−=" one: both leave any value as it was, where the Go loop skips it;
// four such partners in a row are skipped here too.
//
// Frame: 96 bytes for the three vectors of terms whose lanes are added in
// order (slAdd at 0, hAdd at 32, l2 at 64).
//
// Registers:
//	AX	the constants (lambdaConsts: broadcast vectors, see lambda_amd64.go)
//	SI, BX, DX, R8	s, gain, e and label of the partners (float64, rank order)
//	R9	their discounts
//	R10, R11	lam, hes of the partners
//	CX	partners left (a multiple of 4)
//	X12, X13, X14	i's λ sum, hessian sum, and the query's Σλ
//	R12	norm (divide |ΔNDCG| by 0.01 + |Δs|)

// Offsets of the lambdaConsts fields (32 bytes each).
#define cS 0
#define cGain 32
#define cE 64
#define cL 96
#define cDisc 128
#define cInv 160
#define cNegSigma 192
#define cSigma2 224
#define cAbs 256
#define cSign 288
#define cHundredth 320
#define cOne 352
#define cNegZero 384

// func lambdaPairs4(c *lambdaConsts, s, gain, e, l, disc, lam, hes *float64, n int, norm bool, sums *[3]float64)
TEXT ·lambdaPairs4(SB), NOSPLIT, $96-88
	MOVQ    c+0(FP), AX
	MOVQ    s+8(FP), SI
	MOVQ    gain+16(FP), BX
	MOVQ    e+24(FP), DX
	MOVQ    l+32(FP), R8
	MOVQ    disc+40(FP), R9
	MOVQ    lam+48(FP), R10
	MOVQ    hes+56(FP), R11
	MOVQ    n+64(FP), CX
	MOVBLZX norm+72(FP), R12
	MOVQ    sums+80(FP), R13
	VMOVSD  0(R13), X12
	VMOVSD  8(R13), X13
	VMOVSD  16(R13), X14
	TESTQ   CX, CX
	JEQ     done

loop:
	// valid (Y1): l_j ≠ l_i; up (Y2): l_j < l_i, i the better labelled.
	VMOVUPD (R8), Y0
	VCMPPD  $4, cL(AX), Y0, Y1
	VCMPPD  $1, cL(AX), Y0, Y2
	// Four partners of i's label add nothing: on to the next four.
	VMOVMSKPD Y1, R14
	TESTQ     R14, R14
	JEQ       next

	// delta (Y3) = |gain_j − gain_i| · |disc_j − disc_i| · inv
	VMOVUPD (BX), Y3
	VSUBPD  cGain(AX), Y3, Y3
	VANDPD  cAbs(AX), Y3, Y3
	VMOVUPD (R9), Y4
	VSUBPD  cDisc(AX), Y4, Y4
	VANDPD  cAbs(AX), Y4, Y4
	VMULPD  Y4, Y3, Y3
	VMULPD  cInv(AX), Y3, Y3
	TESTQ   R12, R12
	JEQ     nonorm
	// delta /= 0.01 + |s_j − s_i|
	VMOVUPD (SI), Y4
	VSUBPD  cS(AX), Y4, Y4
	VANDPD  cAbs(AX), Y4, Y4
	VADDPD  cHundredth(AX), Y4, Y4
	VDIVPD  Y4, Y3, Y3

nonorm:
	// t (Y5) = 1 / (e_i + e_j); eh (Y6) and el (Y7): e of the better and
	// the worse labelled of the two.
	VMOVUPD   (DX), Y4
	VADDPD    cE(AX), Y4, Y5
	VMOVUPD   cOne(AX), Y6
	VDIVPD    Y5, Y6, Y5
	VMOVUPD   cE(AX), Y8
	VBLENDVPD Y2, Y8, Y4, Y6
	VBLENDVPD Y2, Y4, Y8, Y7

	// p (Y7) = el·t, q (Y6) = eh·t
	VMULPD Y5, Y7, Y7
	VMULPD Y5, Y6, Y6

	// l (Y8) = −σ·p·delta; h (Y9) = σ²·p·q·delta
	VMULPD cNegSigma(AX), Y7, Y8
	VMULPD Y3, Y8, Y8
	VMULPD cSigma2(AX), Y7, Y9
	VMULPD Y6, Y9, Y9
	VMULPD Y3, Y9, Y9

	// sl (Y10) = l when up, −l when not
	VXORPD    cSign(AX), Y8, Y10
	VBLENDVPD Y2, Y8, Y10, Y10

	// The pairs of equal labels: −0 to add, +0 to subtract.
	VMOVUPD   cNegZero(AX), Y11
	VBLENDVPD Y1, Y10, Y11, Y4 // slAdd
	VXORPD    Y15, Y15, Y15
	VBLENDVPD Y1, Y10, Y15, Y5 // slSub
	VBLENDVPD Y1, Y9, Y11, Y6  // hAdd
	VADDPD    Y8, Y8, Y7       // 2·l
	VBLENDVPD Y1, Y7, Y15, Y7  // l2

	// lam_j −= sl, hes_j += h
	VMOVUPD (R10), Y0
	VSUBPD  Y5, Y0, Y0
	VMOVUPD Y0, (R10)
	VMOVUPD (R11), Y0
	VADDPD  Y6, Y0, Y0
	VMOVUPD Y0, (R11)

	// i's sums and Σλ, lane after lane.
	VMOVUPD Y4, 0(SP)
	VMOVUPD Y6, 32(SP)
	VMOVUPD Y7, 64(SP)
	VADDSD  0(SP), X12, X12
	VADDSD  32(SP), X13, X13
	VSUBSD  64(SP), X14, X14
	VADDSD  8(SP), X12, X12
	VADDSD  40(SP), X13, X13
	VSUBSD  72(SP), X14, X14
	VADDSD  16(SP), X12, X12
	VADDSD  48(SP), X13, X13
	VSUBSD  80(SP), X14, X14
	VADDSD  24(SP), X12, X12
	VADDSD  56(SP), X13, X13
	VSUBSD  88(SP), X14, X14

next:
	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $32, DX
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	SUBQ $4, CX
	JNZ  loop

done:
	VMOVSD X12, 0(R13)
	VMOVSD X13, 8(R13)
	VMOVSD X14, 16(R13)
	VZEROUPPER
	RET
