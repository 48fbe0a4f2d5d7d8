package native

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// A capture becomes the window's own pixels in logical size, or is
// refused: never another window's pixels.
func TestCaptureToLogical(t *testing.T) {
	grey := color.RGBA{200, 200, 200, 255}
	// window is a w x h grey window at (x, y) on a black canvas of cw x ch
	// (the shadow), its top-left pixel red to tell where it landed.
	window := func(cw, ch, x, y, w, h int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, cw, ch))
		draw.Draw(img, img.Rect, image.NewUniform(color.RGBA{0, 0, 0, 255}), image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(x, y, x+w, y+h), image.NewUniform(grey), image.Point{}, draw.Src)
		img.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
		return img
	}
	geom := engine.Rect{W: 40, H: 30}
	tests := []struct {
		name   string
		img    *image.RGBA
		refuse bool
	}{
		{"the window's size", window(40, 30, 0, 0, 40, 30), false},
		{"a shadow around it, uneven (GTK 4)", window(60, 52, 10, 8, 40, 30), false},
		{"twice the size under HiDPI", window(80, 60, 0, 0, 80, 60), false},
		{"twice the size inside a shadow", window(100, 80, 10, 6, 80, 60), false},
		{"another window's size", window(50, 30, 0, 0, 50, 30), true},
		{"another window inside a shadow", window(70, 50, 10, 10, 41, 30), true},
		{"all black", window(60, 40, 0, 0, 0, 0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toLogical(tt.img, geom)
			if tt.refuse {
				var e *engine.Error
				if !errors.As(err, &e) || e.Code != engine.CodeFocusChanged || got != nil {
					t.Fatalf("got %v, %v; want refused with focus_changed", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Bounds() != image.Rect(0, 0, 40, 30) {
				t.Fatalf("bounds %v, want the window's 40x30 at 0,0", got.Bounds())
			}
			if c := got.RGBAAt(0, 0); c.R != 255 || c.G != 0 {
				t.Fatalf("the window's top-left is %v, want its red corner", c)
			}
			if c := got.RGBAAt(39, 29); c != grey {
				t.Fatalf("the window's bottom-right is %v, want grey", c)
			}
		})
	}
}
