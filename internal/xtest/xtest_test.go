//go:build cgo

package xtest

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// desk is the private desktop the package's tests run on.
var desk *sandbox.Desktop

func TestMain(m *testing.M) {
	os.Exit(sandbox.RunTests("internal/xtest", func(d *sandbox.Desktop) int {
		desk = d
		return m.Run()
	}))
}

func open(t *testing.T) *Display {
	t.Helper()
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// A plain window is what another client finds by its class and title, on
// top of the stack; once destroyed, a second destroy is an X error the
// call returns, and the connection keeps working.
func TestAPlainWindowIsSeenAndItsErrorsAreReturned(t *testing.T) {
	d, other := open(t), open(t)
	id, err := d.NewPlainWindow(PlainWindow{Frame: Rect{X: 10, Y: 20, W: 60, H: 40}, RGB: 0x336699, Class: "nish-xtest", Title: "plain · ü"})
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := other.FindByClass("nish-xtest"); err != nil || !slices.Equal(ids, []uint64{id}) {
		t.Fatalf("FindByClass = %v, %v; want [%#x]", ids, err, id)
	}
	if title, ok, err := other.TextProperty(id, "_NET_WM_NAME"); err != nil || !ok || title != "plain · ü" {
		t.Fatalf("_NET_WM_NAME = %q, %v, %v", title, ok, err)
	}
	if _, ok, err := other.TextProperty(id, "_NISH_NO_SUCH_PROPERTY"); err != nil || ok {
		t.Fatalf("a missing property: ok %v, %v", ok, err)
	}
	if i, err := other.StackIndex(id); err != nil || i < 0 {
		t.Fatalf("StackIndex = %d, %v", i, err)
	}
	if err := other.DestroyWindow(id); err != nil {
		t.Fatal(err)
	}
	var xe *XError
	if err := d.DestroyWindow(id); !errors.As(err, &xe) || xe.Code != 3 {
		t.Fatalf("destroying it again = %v, want *XError BadWindow (3)", err)
	}
	if ids, err := d.FindByClass("nish-xtest"); err != nil || len(ids) != 0 {
		t.Fatalf("after the destroy FindByClass = %v, %v", ids, err)
	}
}

// A silent owner holds the clipboard until its client goes.
func TestASilentOwnerHoldsTheClipboardUntilClosed(t *testing.T) {
	looker := open(t)
	owner, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	w, err := owner.OwnClipboardSilently()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := looker.ClipboardOwner(); err != nil || got != w {
		t.Fatalf("ClipboardOwner = %#x, %v; want %#x", got, err, w)
	}
	owner.Close()
	if got, err := looker.ClipboardOwner(); err != nil || got != 0 {
		t.Fatalf("after Close ClipboardOwner = %#x, %v; want none", got, err)
	}
	if _, err := owner.ClipboardOwner(); !errors.Is(err, ErrClosed) {
		t.Fatalf("a call after Close = %v, want ErrClosed", err)
	}
}

// HeldInput sees the keys and buttons another client holds down with
// XTEST (the driver's own package sends them here), and their release.
func TestHeldInputListsKeysAndButtonsThatAreDown(t *testing.T) {
	x := open(t)
	d, err := xlib.Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.FakeMotion(1900, 1060); err != nil { // over nothing
		t.Fatal(err)
	}
	_ = d.FakeButton(3, true)
	_ = d.FakeKey("Shift_R", true)
	_ = d.Sync()
	keys, buttons, err := x.HeldInput()
	if err != nil || !slices.Contains(keys, "Shift_R") || !slices.Equal(buttons, []int{3}) {
		t.Fatalf("while held: keys %v buttons %v err %v", keys, buttons, err)
	}
	if mask, err := x.PointerButtons(); err != nil || mask&(1<<10) == 0 {
		t.Fatalf("while held: pointer mask %#x, %v; want Button3Mask", mask, err)
	}
	if down, err := x.KeyDown("Shift_R"); err != nil || !down {
		t.Fatalf("while held: KeyDown(Shift_R) = %v, %v", down, err)
	}
	_ = d.FakeButton(3, false)
	_ = d.FakeKey("Shift_R", false)
	_ = d.Sync()
	keys, buttons, err = x.HeldInput()
	if err != nil || len(keys) != 0 || len(buttons) != 0 {
		t.Fatalf("after the release: keys %v buttons %v err %v", keys, buttons, err)
	}
}
