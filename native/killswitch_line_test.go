package native

import (
	"errors"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/native/xlib"
)

// The key's line: on X11 what the grab did (or can do); in a Wayland
// session never a claim that the key works, and never a probe of it.
func TestKillSwitchLine(t *testing.T) {
	cases := []struct {
		name       string
		ks         killSwitchState
		wayland    bool
		probeErr   error
		status     string
		contains   string
		wantProbed bool
	}{
		{"x11, grabbed", killSwitchState{combo: "Ctrl+Alt+Shift+Escape", state: killGrabbed}, false, nil, "ok", "is grabbed", false},
		{"x11, taken", killSwitchState{combo: "Ctrl+Alt+Shift+Escape", state: killTaken}, false, nil, "fail", "another X client holds", false},
		{"x11, never tried, free", killSwitchState{}, false, nil, "ok", "can be grabbed", true},
		{"x11, never tried, held", killSwitchState{}, false, xlib.ErrKillSwitchTaken, "fail", "another X client", true},
		{"x11, never tried, failing", killSwitchState{}, false, errors.New("boom"), "fail", "could not be grabbed", true},
		{"wayland, grabbed on Xwayland", killSwitchState{combo: "Ctrl+Alt+Shift+Escape", state: killGrabbed}, true, nil, "fail", "nish-driver stop", false},
		{"wayland, never tried", killSwitchState{}, true, nil, "fail", "not a kill switch here", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			probed := false
			p := killSwitchLine(tc.ks, tc.wayland, func(xlib.KeyCombo) error { probed = true; return tc.probeErr })
			if p.Label != "kill switch" || p.Status != tc.status || !strings.Contains(p.Message, tc.contains) {
				t.Errorf("line = %+v, want %s containing %q", p, tc.status, tc.contains)
			}
			if probed != tc.wantProbed {
				t.Errorf("probed %v, want %v", probed, tc.wantProbed)
			}
			if tc.wayland && (strings.Contains(p.Message, "is grabbed") || strings.Contains(p.Message, "can be grabbed")) {
				t.Errorf("on Wayland the line claims the key works: %q", p.Message)
			}
		})
	}
}
