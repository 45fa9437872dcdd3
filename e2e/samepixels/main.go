// Command samepixels exits 0 when two PNG files hold the same image, pixel
// for pixel, whatever their compression; e2e/goversions.sh compares plots
// with it, as Go 1.27's compress/flate packs the same pixels in other bytes.
//
//	go run ./e2e/samepixels A.png B.png
package main

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./e2e/samepixels A.png B.png")
		os.Exit(2)
	}
	a, errA := decode(os.Args[1])
	b, errB := decode(os.Args[2])
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if d := differ(a, b); d != "" {
		fmt.Fprintf(os.Stderr, "%s and %s: %s\n", os.Args[1], os.Args[2], d)
		os.Exit(1)
	}
}

func decode(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}

// differ says where a and b first differ, or "" when they do not.
func differ(a, b image.Image) string {
	if a.Bounds() != b.Bounds() {
		return fmt.Sprintf("sizes %v and %v", a.Bounds(), b.Bounds())
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return fmt.Sprintf("pixel (%d, %d) differs", x, y)
			}
		}
	}
	return ""
}
