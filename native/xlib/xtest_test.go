//go:build cgo

package xlib

import (
	"errors"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

func TestFakeMotionMovesThePointer(t *testing.T) {
	for _, p := range [][2]int{{0, 0}, {123, 456}, {1919, 1079}, {960, 540}} {
		if err := dpy.FakeMotion(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
		x, y, err := dpy.Pointer()
		if err != nil || x != p[0] || y != p[1] {
			t.Errorf("after FakeMotion(%d, %d), Pointer() = %d, %d, %v", p[0], p[1], x, y, err)
		}
	}
}

func TestFakeButtonRefusesTheMiddleButtonAndUnknownOnes(t *testing.T) {
	cases := []struct {
		button int
		want   error
	}{
		{2, ErrMiddleButton},
		{0, ErrUnknownButton},
		{10, ErrUnknownButton},
		{-1, ErrUnknownButton},
	}
	for _, c := range cases {
		for _, press := range []bool{true, false} {
			if err := dpy.FakeButton(c.button, press); !errors.Is(err, c.want) {
				t.Errorf("FakeButton(%d, %v) = %v, want %v", c.button, press, err, c.want)
			}
		}
	}
}

func TestKeyNames(t *testing.T) {
	cases := []struct {
		name string
		want bool
	}{
		{"Return", true},
		{"a", true},
		{"F5", true},
		{"plus", true},
		{"Cyrillic_zhe", true}, // no keycode on a US keymap: a spare is lent
		{"NoSuchKeyName", false},
		{"", false},
	}
	for _, c := range cases {
		if got := dpy.HasKeysym(c.name); got != c.want {
			t.Errorf("HasKeysym(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if err := dpy.FakeKey("NoSuchKeyName", true); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("FakeKey of an unknown name = %v, want ErrUnknownKey", err)
	}
	if err := dpy.FakeChar(0x07, true); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("FakeChar of a control character = %v, want ErrUnknownKey", err)
	}
}

// typeInto focuses the app and types text with FakeChar.
func typeInto(t *testing.T, app *gtkApp, text string) string {
	t.Helper()
	if err := dpy.Raise(app.id); err != nil {
		t.Fatal(err)
	}
	// The keys go where the focus is; the app sees its FocusIn before them.
	testkit.Eventually(t, 30*time.Second, "the app has the focus", func() bool {
		w, err := dpy.FocusedTopLevel()
		return err == nil && w == app.id
	})
	for _, r := range text {
		for _, press := range []bool{true, false} {
			if err := dpy.FakeChar(r, press); err != nil {
				t.Fatalf("FakeChar(%q, %v): %v", r, press, err)
			}
		}
	}
	return app.lastText(5 * time.Second)
}

func TestFakeCharTypesShiftedAndUnmappedCharacters(t *testing.T) {
	app := startGTK(t, "typing", "nish-typing", Rect{X: 1400, Y: 50, W: 300, H: 60})
	want := "aZ!~ 9é€жλ"
	if got := typeInto(t, app, want); got != want {
		t.Fatalf("the entry holds %q, want %q", got, want)
	}
	// FakeKey with names: BackSpace removes the last character.
	for _, press := range []bool{true, false} {
		if err := dpy.FakeKey("BackSpace", press); err != nil {
			t.Fatal(err)
		}
	}
	if got := app.lastText(5 * time.Second); got != "aZ!~ 9é€ж" {
		t.Fatalf("after BackSpace the entry holds %q", got)
	}
	// Lent keycodes go back to having no keysym once released (after
	// spareRestoreDelay).
	var lent int
	if !testkit.Poll(spareRestoreDelay+30*time.Second, func() bool {
		_ = dpy.do(func() error { lent = len(dpy.keys.spares); return nil })
		return lent == 0
	}) {
		t.Fatalf("%d spare keycodes still lent after the release", lent)
	}
}

func TestCloseReleasesHeldKeysAndButtons(t *testing.T) {
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.FakeMotion(1900, 1060); err != nil { // over nothing
		t.Fatal(err)
	}
	if err := d.FakeButton(3, true); err != nil {
		t.Fatal(err)
	}
	if err := d.FakeKey("Shift_L", true); err != nil {
		t.Fatal(err)
	}
	d.Sync()
	const button3 = 1 << 10
	if mask, _ := xt.PointerButtons(); mask&button3 == 0 {
		t.Fatalf("button 3 is not down after the press (mask %#x)", mask)
	}
	if down, _ := xt.KeyDown("Shift_L"); !down {
		t.Fatal("Shift_L is not down after the press")
	}
	d.Close()
	if mask, _ := xt.PointerButtons(); mask&button3 != 0 {
		t.Errorf("button 3 is still down after Close (mask %#x)", mask)
	}
	if down, _ := xt.KeyDown("Shift_L"); down {
		t.Error("Shift_L is still down after Close")
	}
}
