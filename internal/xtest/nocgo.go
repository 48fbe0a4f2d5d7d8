//go:build !cgo

package xtest

import "time"

// Without cgo there is no X client: Open and StartWM return ErrNotBuilt,
// and the methods below exist only so that packages using this one still
// compile.

// Display is a connection to an X display; without cgo there is none.
type Display struct{}

// CHeapInUse returns ErrNotBuilt in a build without cgo.
func CHeapInUse() (uint64, error) { return 0, ErrNotBuilt }

// Open returns ErrNotBuilt in a build without cgo.
func Open(display string) (*Display, error) { return nil, ErrNotBuilt }

func (d *Display) Close() error                                 { return ErrNotBuilt }
func (d *Display) NewPlainWindow(p PlainWindow) (uint64, error) { return 0, ErrNotBuilt }
func (d *Display) DestroyWindow(id uint64) error                { return ErrNotBuilt }
func (d *Display) UnmapWindow(id uint64) error                  { return ErrNotBuilt }
func (d *Display) MoveWindow(id uint64, x, y int) error         { return ErrNotBuilt }
func (d *Display) KillClient(id uint64) error                   { return ErrNotBuilt }
func (d *Display) SendSyntheticClick(id uint64, x, y int) error { return ErrNotBuilt }
func (d *Display) SendDeleteWindow(id uint64) error             { return ErrNotBuilt }
func (d *Display) StackIndex(id uint64) (int, error)            { return -1, ErrNotBuilt }
func (d *Display) FindByClass(class string) ([]uint64, error)   { return nil, ErrNotBuilt }
func (d *Display) InputShapeRects(id uint64) (int, error)       { return 0, ErrNotBuilt }
func (d *Display) RootWindows(name string) ([]uint64, error)    { return nil, ErrNotBuilt }
func (d *Display) HeldInput() ([]string, []int, error)          { return nil, nil, ErrNotBuilt }
func (d *Display) PointerButtons() (uint, error)                { return 0, ErrNotBuilt }
func (d *Display) KeyDown(name string) (bool, error)            { return false, ErrNotBuilt }
func (d *Display) ClipboardOwner() (uint64, error)              { return 0, ErrNotBuilt }
func (d *Display) OwnClipboardSilently() (uint64, error)        { return 0, ErrNotBuilt }
func (d *Display) TextProperty(id uint64, name string) (string, bool, error) {
	return "", false, ErrNotBuilt
}

// WM is a window manager stand-in; without cgo there is none.
type WM struct{}

// StartWM returns ErrNotBuilt in a build without cgo.
func StartWM(display string) (*WM, error) { return nil, ErrNotBuilt }

func (wm *WM) Frame(client uint64, frame Rect, titleBar int) (uint64, error) { return 0, ErrNotBuilt }
func (wm *WM) SetClients(bottomToTop []uint64, stacking bool) error          { return ErrNotBuilt }
func (wm *WM) Activation(limit time.Duration) (uint64, error)                { return 0, ErrNotBuilt }
func (wm *WM) Close()                                                        {}
