package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// A desktop that cannot give a takeover (a Wayland session until its
// input portal is built, an X display without XInput 2.1) refuses it
// before any dialog: the dialog never offers it, start_session says why
// with the capability's reason and what to do, and nothing is sent.
func TestATakeoverTheDesktopCannotGiveIsRefusedUpFront(t *testing.T) {
	tests := []struct {
		name   string
		part   engine.Feature
		reason string
	}{
		{"a Wayland session", engine.Feature{ID: engine.PartXInput2, Status: engine.StatusUnavailable,
			ReasonCode: "wayland_portal_not_built", Action: "Takeover on Wayland is planned."}, "wayland_portal_not_built"},
		{"an X display without XInput 2.1", engine.Feature{ID: engine.PartXInput2, Status: engine.StatusUnavailable,
			ReasonCode: "xinput2_missing", Action: "Use an X server with XInput 2.1."}, "xinput2_missing"},
		{"no XTEST", engine.Feature{ID: engine.PartXTest, Status: engine.StatusUnavailable,
			ReasonCode: "xtest_missing", Action: "Use an X server with XTEST."}, "xtest_missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.desk.SetPart(tt.part)
			st := h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
			tk := st["takeover"].(map[string]any)
			if tk["on"] != false || tk["reason"] != tt.reason || tk["action"] != tt.part.Action {
				t.Fatalf("takeover = %v, want off with reason %s and the capability's action", tk, tt.reason)
			}
			reqs := h.desk.ConsentRequests()
			if len(reqs) != 1 || reqs[0].Takeover {
				t.Fatalf("consent requests %+v: want one, for the app alone, without the takeover line", reqs)
			}
			// Asking again on the granted session shows no dialog at all.
			st = h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
			if st["dialog"] == true || len(h.desk.ConsentRequests()) != 1 {
				t.Fatalf("a second ask showed a dialog: %v", st)
			}
			if tk := st["takeover"].(map[string]any); tk["on"] != false || tk["reason"] != tt.reason {
				t.Fatalf("second ask: takeover = %v", tk)
			}
			if sent := h.desk.Sent(); len(sent) != 0 {
				t.Fatalf("input sent: %v", sent)
			}
		})
	}
}

// A desktop that can give one still asks the person.
func TestATakeoverTheDesktopCanGiveIsAsked(t *testing.T) {
	h := newHarness(t, nil)
	st := h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
	if tk := st["takeover"].(map[string]any); tk["on"] != true || tk["action"] != nil {
		t.Fatalf("takeover = %v, want on", tk)
	}
	if reqs := h.desk.ConsentRequests(); len(reqs) != 1 || !reqs[0].Takeover {
		t.Fatalf("consent requests %+v: want the takeover line", reqs)
	}
}
