package testkit

import (
	"image"
	"image/color"
)

// CountColour counts the pixels of img equal to c: how a capture test
// tells a window's own pixels from another's, or from black.
func CountColour(img *image.RGBA, c color.RGBA) int {
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				n++
			}
		}
	}
	return n
}
