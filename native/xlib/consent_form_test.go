package xlib

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var testMetrics = fontMetrics{charW: 9, ascent: 12, descent: 3}

func TestConsentLayoutHasEveryControlInsideTheWindowWithoutOverlaps(t *testing.T) {
	cases := []struct {
		name string
		dlg  ConsentDialog
		ids  []string
	}{
		{"apps only", ConsentDialog{Host: "h", Apps: []ConsentApp{{1, "a"}}}, []string{"app:1", "deny", "allow"}},
		{"takeover", ConsentDialog{Apps: []ConsentApp{{1, "a"}, {2, "b"}}, Takeover: true},
			[]string{"app:1", "app:2", "takeover", "deny", "allow"}},
		{"clipboard, no apps", ConsentDialog{ClipboardRead: true}, []string{"clipboard_read", "deny", "allow"}},
		{"everything", ConsentDialog{Host: strings.Repeat("H", 500), Purpose: strings.Repeat("word ", 200),
			Apps: []ConsentApp{{7, strings.Repeat("n", 300)}}, Takeover: true, ClipboardRead: true},
			[]string{"app:7", "takeover", "clipboard_read", "deny", "allow"}},
	}
	for _, c := range cases {
		f := layoutConsent(c.dlg, testMetrics)
		var ids []string
		for i, ctl := range f.controls {
			ids = append(ids, ctl.id)
			r := ctl.rect
			if r.X < 0 || r.Y < 0 || r.X+r.W > f.w || r.Y+r.H > f.h || r.W <= 0 || r.H <= 0 {
				t.Errorf("%s: %s at %+v is outside the %dx%d window", c.name, ctl.id, r, f.w, f.h)
			}
			for _, other := range f.controls[i+1:] {
				o := other.rect
				if r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H {
					t.Errorf("%s: %s and %s overlap", c.name, ctl.id, other.id)
				}
			}
			if got := f.hit(r.X+r.W/2, r.Y+r.H/2); got != ctl.id {
				t.Errorf("%s: the middle of %s hits %q", c.name, ctl.id, got)
			}
		}
		if !reflect.DeepEqual(ids, c.ids) {
			t.Errorf("%s: controls %v, want %v", c.name, ids, c.ids)
		}
		for _, tx := range f.texts {
			if w := utf8.RuneCountInString(tx.text) * testMetrics.charW; tx.x+w > f.w {
				t.Errorf("%s: text runs past the window: %q", c.name, tx.text)
			}
		}
		var l ConsentLayout
		if err := json.Unmarshal(f.layoutJSON(), &l); err != nil || len(l.Controls) != len(c.ids) {
			t.Errorf("%s: published layout %s (%v)", c.name, f.layoutJSON(), err)
		}
		if f.hit(-1, -1) != "" || f.hit(f.w/2, 1) != "" {
			t.Errorf("%s: a point outside every control hits one", c.name)
		}
	}
}

func TestConsentFormClicks(t *testing.T) {
	dlg := ConsentDialog{Apps: []ConsentApp{{1, "a"}, {2, "b"}, {3, "c"}}, Takeover: true, ClipboardRead: true}
	cases := []struct {
		name   string
		clicks []string
		want   ConsentResult
	}{
		{"allow at once", []string{"allow"}, ConsentResult{Allowed: true, Pids: []int{1, 2, 3}}},
		{"deny", []string{"takeover", "deny"}, ConsentResult{}},
		{"untick one", []string{"app:2", "allow"}, ConsentResult{Allowed: true, Pids: []int{1, 3}}},
		{"untick and tick again", []string{"app:2", "app:2", "allow"}, ConsentResult{Allowed: true, Pids: []int{1, 2, 3}}},
		{"both capabilities", []string{"takeover", "clipboard_read", "allow"},
			ConsentResult{Allowed: true, Pids: []int{1, 2, 3}, Takeover: true, ClipboardRead: true}},
		{"untick all", []string{"app:1", "app:2", "app:3", "allow"}, ConsentResult{Allowed: true}},
	}
	for _, c := range cases {
		f := layoutConsent(dlg, testMetrics)
		var got ConsentResult
		done := false
		for i, id := range c.clicks {
			done, got = f.click(id)
			if done != (i == len(c.clicks)-1) {
				t.Fatalf("%s: click %d on %s: done %v", c.name, i, id, done)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestClickGate(t *testing.T) {
	// Each press is handled now and was made two seconds before (a loaded
	// machine): the driver's presses are judged at made, arming at now.
	now := time.Now()
	made := now.Add(-2 * time.Second)
	armed := now.Add(-time.Second)
	type ev struct {
		press     bool
		button    int
		synthetic bool
		hit       string
	}
	press := func(hit string) ev { return ev{true, 1, false, hit} }
	release := func(hit string) ev { return ev{false, 1, false, hit} }
	cases := []struct {
		name         string
		armedAt      time.Time
		driverRecent bool // a press now could be the driver's
		events       []ev
		want         []string // clicked ids, in order
	}{
		{"a click", armed, false, []ev{press("allow"), release("allow")}, []string{"allow"}},
		{"released elsewhere", armed, false, []ev{press("allow"), release("deny")}, nil},
		{"released outside", armed, false, []ev{press("allow"), release("")}, nil},
		{"right button", armed, false, []ev{{true, 3, false, "allow"}, {false, 3, false, "allow"}}, nil},
		{"synthetic press", armed, false, []ev{{true, 1, true, "allow"}, release("allow")}, nil},
		{"synthetic release", armed, false, []ev{press("allow"), {false, 1, true, "allow"}}, nil},
		{"synthetic release, then real", armed, false, []ev{press("allow"), {false, 1, true, "allow"}, release("allow")}, []string{"allow"}},
		{"not armed", time.Time{}, false, []ev{press("allow"), release("allow")}, nil},
		{"arming", now.Add(time.Second), false, []ev{press("allow"), release("allow")}, nil},
		{"made before it armed, handled after", armed, false, []ev{press("allow"), release("allow")}, []string{"allow"}},
		{"a press the driver could have made", armed, true, []ev{press("allow"), release("allow")}, nil},
		{"release without press", armed, false, []ev{release("allow")}, nil},
		{"two clicks", armed, false, []ev{press("app:1"), release("app:1"), press("allow"), release("allow")}, []string{"app:1", "allow"}},
	}
	for _, c := range cases {
		recent := c.driverRecent
		g := clickGate{armedAt: c.armedAt, driverPressRecent: func(at time.Time) bool {
			if !at.Equal(made) {
				t.Errorf("asked about a press at %v, not when it was made, %v", at, made)
			}
			return recent
		}}
		var got []string
		for _, e := range c.events {
			if e.press {
				g.press(e.button, e.synthetic, e.hit, made, now)
			} else if id := g.release(e.button, e.synthetic, e.hit); id != "" {
				got = append(got, id)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: clicked %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPlainTextCutAndWrap(t *testing.T) {
	texts := []struct{ in, want string }{
		{"plain", "plain"},
		{"  two\n\nlines\t here ", "two lines here"},
		{"bidi\u202eevil\u202c", "bidievil"},
		{"zero\u200bwidth", "zerowidth"},
		{"emoji 😀", "emoji ?"},
		{"bad \xff utf8", "bad ? utf8"},
		{"ctl\x07bell", "ctl bell"},
		{"line\u2028sep", "line sep"},
	}
	for _, c := range texts {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	cuts := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a bit too long", 10, "a bit t..."},
		{"ünïcödé text", 8, "ünïcö..."},
	}
	for _, c := range cuts {
		if got := cut(c.in, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	wraps := []struct {
		in      string
		cols, n int
		want    []string
	}{
		{"one two three", 20, 3, []string{"one two three"}},
		{"one two three four", 9, 3, []string{"one two", "three", "four"}},
		{"one two three four five six", 9, 2, []string{"one two", "three..."}},
		{"abcdefghijklmnop", 8, 3, []string{"abcdefgh", "ijklmnop"}},
	}
	for _, c := range wraps {
		if got := wrap(c.in, c.cols, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrap(%q, %d, %d) = %q, want %q", c.in, c.cols, c.n, got, c.want)
		}
	}
}
