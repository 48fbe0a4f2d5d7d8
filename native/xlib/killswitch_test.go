//go:build cgo

package xlib

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// pressCombo presses the keys of a combination in order and releases them
// in reverse, as a person would, through XTEST on connection d.
func pressCombo(t *testing.T, d *Display, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := d.FakeKey(k, true); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := d.FakeKey(keys[i], false); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
}

func grabDefault(t *testing.T, onPress func()) *KillSwitch {
	t.Helper()
	combo, err := ParseKeyCombo(DefaultKillSwitch)
	if err != nil {
		t.Fatal(err)
	}
	k, err := GrabKillSwitch(desk.Display, combo, onPress)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Release)
	return k
}

func TestKillSwitchFiresOnTheCombinationWithAndWithoutCapsLock(t *testing.T) {
	pressed := make(chan struct{}, 8)
	grabDefault(t, func() { pressed <- struct{}{} })
	cases := []struct {
		name string
		caps bool
	}{{"plain", false}, {"caps lock on", true}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.caps {
				pressCombo(t, dpy, "Caps_Lock") // turns Caps Lock on
				defer pressCombo(t, dpy, "Caps_Lock")
			}
			time.Sleep(killDebounce) // one press per debounce window
			pressCombo(t, dpy, "Control_L", "Alt_L", "Shift_L", "Escape")
			select {
			case <-pressed:
			case <-time.After(30 * time.Second):
				t.Fatal("the kill switch did not fire")
			}
		})
	}
	// Escape alone, or with fewer modifiers, is not the kill switch: the
	// switch grabs its combination only, so another client can grab each
	// of these, and X gives the press to that client (a grabbed key goes
	// to one client), which says so: a signal, not a while without a fire.
	for _, other := range []struct {
		combo KeyCombo
		keys  []string
	}{
		{KeyCombo{Key: "Escape"}, []string{"Escape"}},
		{KeyCombo{Mods: modControl | modShift, Key: "Escape"}, []string{"Control_L", "Shift_L", "Escape"}},
	} {
		heard := make(chan struct{}, 8)
		k, err := GrabKillSwitch(desk.Display, other.combo, func() { heard <- struct{}{} })
		if err != nil {
			t.Fatalf("%v cannot be grabbed beside the kill switch: %v", other.keys, err)
		}
		pressCombo(t, dpy, other.keys...)
		select {
		case <-heard:
		case <-time.After(30 * time.Second):
			t.Fatalf("the press of %v never reached the client that grabbed it", other.keys)
		}
		k.Release()
	}
	select {
	case <-pressed:
		t.Fatal("the kill switch fired on another combination")
	default:
	}
}

func TestKillSwitchHeldByAnotherClientIsTakenAndFreedOnRelease(t *testing.T) {
	combo, _ := ParseKeyCombo(DefaultKillSwitch)
	first := grabDefault(t, func() {})
	if _, err := GrabKillSwitch(desk.Display, combo, func() {}); !errors.Is(err, ErrKillSwitchTaken) {
		t.Fatalf("a second grab = %v, want ErrKillSwitchTaken", err)
	}
	if err := ProbeKillSwitch(desk.Display, combo); !errors.Is(err, ErrKillSwitchTaken) {
		t.Fatalf("the probe while held = %v, want ErrKillSwitchTaken", err)
	}
	first.Release()
	first.Release() // twice is fine
	if err := ProbeKillSwitch(desk.Display, combo); err != nil {
		t.Fatalf("the probe after the release = %v", err)
	}
}

func TestKillSwitchRefusesAKeyWithoutAKeycode(t *testing.T) {
	for _, key := range []string{"NoSuchKeyName", "escape"} {
		combo := KeyCombo{Mods: modControl | mod1, Key: key}
		k, err := GrabKillSwitch(desk.Display, combo, func() {})
		if key == "escape" { // names are matched with a capital first letter too
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			k.Release()
			continue
		}
		if !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("%s: %v, want ErrUnknownKey", key, err)
		}
	}
}

// TestKeyEchoNamesWhatTheWatcherReports: for plain, shifted and unmapped
// characters and named keys, the echo predicted before the press is what
// the input watcher reports for it.
func TestKeyEchoNamesWhatTheWatcherReports(t *testing.T) {
	rec := newRawRecorder()
	watch(t, rec.sink)
	cases := []struct {
		name string
		key  string
		char rune
		want KeyEcho
	}{
		{"lower-case letter", "a", 0, KeyEcho{Keysym: "a"}},
		{"capital letter", "A", 0, KeyEcho{Keysym: "a", Shift: "Shift_L"}},
		{"shifted symbol", "exclam", 0, KeyEcho{Keysym: "1", Shift: "Shift_L"}},
		{"named key", "Return", 0, KeyEcho{Keysym: "Return"}},
		{"character on a spare keycode", "", 'ж', KeyEcho{Keysym: "U0436"}},
		{"shifted character", "", 'Z', KeyEcho{Keysym: "z", Shift: "Shift_L"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			echo, err := dpy.KeyEcho(c.key, c.char)
			if err != nil {
				t.Fatal(err)
			}
			if echo != c.want {
				t.Fatalf("KeyEcho = %+v, want %+v", echo, c.want)
			}
			press := func(down bool) error {
				if c.key != "" {
					return dpy.FakeKey(c.key, down)
				}
				return dpy.FakeChar(c.char, down)
			}
			if err := press(true); err != nil {
				t.Fatal(err)
			}
			if err := press(false); err != nil {
				t.Fatal(err)
			}
			var heard []string
			want := []string{echo.Keysym}
			if echo.Shift != "" {
				want = []string{echo.Shift, echo.Keysym}
			}
			for len(heard) < len(want) {
				if h := rec.next(t, 2*time.Second); h.ev.Kind == RawKeyPress {
					heard = append(heard, h.ev.Keysym)
				}
			}
			if !slices.Equal(heard, want) {
				t.Fatalf("the watcher heard presses %v, want %v", heard, want)
			}
		})
	}
	if _, err := dpy.KeyEcho("NoSuchKeyName", 0); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("KeyEcho of an unknown name = %v", err)
	}
}
