package native

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// wlFrame is a frame of app bus with path, as the bus lists it.
func wlFrame(bus, path string, pid int, title string, states ...string) atspi.Frame {
	return atspi.Frame{ID: atspi.ID(bus + "@1" + path), Bus: bus, Path: path, Pid: pid, AppName: "bus name",
		Name: title, States: states, Extents: atspi.Rect{X: 7, Y: 9, W: 640, H: 480}}
}

// The ids the Wayland source gives: one per frame, kept across listings,
// never given again; a frame that goes is forgotten unless its app only
// did not answer; hidden frames and frames without a pid are not windows;
// untitled pop-ups of a titled window are not windows, though an app's
// only, untitled, window is; the focused window comes first; the place is
// never invented.
func TestWaylandWindowIDs(t *testing.T) {
	s := newWaylandWindows(nil)
	apps := func(busy ...string) []atspi.App {
		out := []atspi.App{{Bus: ":1.1", Pid: 11}, {Bus: ":1.2", Pid: 12}}
		for i := range out {
			for _, b := range busy {
				if out[i].Bus == b {
					out[i].Err = errors.New("no answer")
				}
			}
		}
		return out
	}
	names := map[int]string{11: "Form", 12: "Calculator", 14: "Untitled"}
	form := wlFrame(":1.1", "/a/1", 11, "Form", "showing", "visible")
	dialog := wlFrame(":1.1", "/a/2", 11, "Dialog", "showing", "active")
	hidden := wlFrame(":1.1", "/a/3", 11, "Hidden")
	calc := wlFrame(":1.2", "/b/1", 12, "Calculator", "visible")
	nopid := wlFrame(":1.3", "/c/1", 0, "No pid", "showing")
	popup := wlFrame(":1.2", "/b/2", 12, "", "showing", "visible")
	untitled := wlFrame(":1.4", "/d/1", 14, "", "showing")

	type want struct {
		ids  []engine.WindowID // in list order
		gone []engine.WindowID
	}
	steps := []struct {
		name   string
		frames []atspi.Frame
		busy   []string
		want   want
	}{
		{"first listing", []atspi.Frame{form, calc, hidden, nopid, popup}, nil, want{ids: []engine.WindowID{1, 2}}},
		{"stable, a listed-twice frame once", []atspi.Frame{calc, form, form}, nil, want{ids: []engine.WindowID{1, 2}}},
		{"a new focused window first", []atspi.Frame{form, calc, dialog}, nil, want{ids: []engine.WindowID{3, 1, 2}}},
		{"a busy app keeps its windows", []atspi.Frame{calc}, []string{":1.1"}, want{ids: []engine.WindowID{3, 1, 2}}},
		{"a closed window is forgotten", []atspi.Frame{form, calc}, nil, want{ids: []engine.WindowID{1, 2}, gone: []engine.WindowID{3}}},
		{"reopened, it gets a new id", []atspi.Frame{form, calc, wlFrame(":1.1", "/a/2", 11, "Dialog", "showing")}, nil, want{ids: []engine.WindowID{1, 2, 4}}},
		{"an untitled window alone is listed, a pop-up is not", []atspi.Frame{form, calc, popup, untitled}, nil, want{ids: []engine.WindowID{1, 2, 5}, gone: []engine.WindowID{4}}},
		{"an active untitled frame is listed", []atspi.Frame{form, calc, wlFrame(":1.2", "/b/2", 12, "", "showing", "active")}, nil, want{ids: []engine.WindowID{6, 1, 2}, gone: []engine.WindowID{5}}},
	}
	for _, st := range steps {
		wins, gone := s.update(st.frames, apps(st.busy...), names)
		var ids []engine.WindowID
		for i, w := range wins {
			ids = append(ids, w.ID)
			if w.Stacking != i || w.FrameSpace != engine.WindowSpace || w.Frame != (engine.Rect{W: 640, H: 480}) || !w.OnScreen {
				t.Fatalf("%s: window %+v", st.name, w)
			}
			if w.App != names[w.Pid] {
				t.Fatalf("%s: app %q for pid %d", st.name, w.App, w.Pid)
			}
		}
		if !slices.Equal(ids, st.want.ids) || !slices.Equal(gone, st.want.gone) {
			t.Fatalf("%s: ids %v gone %v, want %v gone %v", st.name, ids, gone, st.want.ids, st.want.gone)
		}
	}
	var e *engine.Error
	if _, err := s.frame(context.Background(), 3); !errors.As(err, &e) || e.Code != engine.CodeWindowGone {
		t.Fatalf("a forgotten window reads as gone: %v", err)
	}
	if f, err := s.frame(context.Background(), 1); err != nil || f.id != form.ID || f.bus != ":1.1" || f.pid != 11 {
		t.Fatalf("window 1's frame: %+v %v", f, err)
	}
}

// An app that did not answer a listing in time is asked again when none
// of its windows is known, once per listing while its first second ask is
// under askAgainFor old, never after; an app that answered, or whose
// windows are known (a busy app keeps them), is not.
func TestWaylandAskNewAppsAgain(t *testing.T) {
	s := newWaylandWindows(nil)
	now := time.Unix(1_800_000_000, 0)
	s.now = func() time.Time { return now }
	late := errors.New("no answer")
	s.update([]atspi.Frame{wlFrame(":1.1", "/a/1", 11, "Form", "showing")}, nil, nil)
	apps := []atspi.App{
		{Bus: ":1.1", Pid: 11, Err: late}, // listed before: keeps its windows
		{Bus: ":1.2", Pid: 12},            // answered
		{Bus: ":1.3", Pid: 13, Err: late}, // new and late: asked again
	}
	steps := []struct {
		name  string
		after time.Duration // since the first second ask
		want  []int
	}{
		{"first listing", 0, []int{2}},
		{"next listing", 0, []int{2}},
		{"just under the bound", askAgainFor - time.Millisecond, []int{2}},
		{"at the bound", askAgainFor, nil},
		{"long after", 10 * askAgainFor, nil},
	}
	start := now
	for _, st := range steps {
		now = start.Add(st.after)
		if got := s.toAskAgain(apps); !slices.Equal(got, st.want) {
			t.Fatalf("%s: asked again %v, want %v", st.name, got, st.want)
		}
	}
}

// An app on the bus that did not answer and has no window known is listed
// as not answering (its pid and the name it last had), not as a window;
// one that keeps windows, one that answered and one without a pid are not;
// once it answers its windows are listed and the entry is gone.
func TestWaylandListsAppsNotAnswering(t *testing.T) {
	s := newWaylandWindows(nil)
	late := errors.New("no answer")
	names := map[int]string{11: "Form", 13: "Writer"}
	form := wlFrame(":1.1", "/a/1", 11, "Form", "showing")
	writer := wlFrame(":1.3", "/c/1", 13, "Document", "showing")
	apps := []atspi.App{
		{Bus: ":1.1", Pid: 11, Err: late}, // keeps its window
		{Bus: ":1.2", Pid: 12},            // answered, no frames
		{Bus: ":1.3", Pid: 13, Err: late}, // new and silent
		{Bus: ":1.4", Err: late},          // no pid
	}
	s.update([]atspi.Frame{form}, nil, names)
	wins, _ := s.update(nil, apps, names)
	want := []engine.Window{{Pid: 13, App: "Writer", NotAnswering: true}}
	var got []engine.Window
	for _, w := range wins {
		if w.NotAnswering {
			got = append(got, w)
		} else if w.Pid != 11 {
			t.Fatalf("a window of an app without frames: %+v", w)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("not answering: %+v, want %+v", got, want)
	}
	apps[2].Err = nil
	wins, _ = s.update([]atspi.Frame{writer}, apps, names)
	for _, w := range wins {
		if w.NotAnswering || w.Pid == 13 && w.Title != "Document" {
			t.Fatalf("after it answered: %+v", wins)
		}
	}
	if !slices.ContainsFunc(wins, func(w engine.Window) bool { return w.Pid == 13 }) {
		t.Fatalf("its window once it answered is not listed: %+v", wins)
	}
}
