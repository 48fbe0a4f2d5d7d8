package atspi

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
)

// splitMessage cuts an encoded message into its header fields and body.
func splitMessage(t testing.TB, msg []byte) (header, []byte) {
	t.Helper()
	if msg[0] != 'l' || msg[3] != 1 {
		t.Fatalf("bad fixed header % x", msg[:4])
	}
	bodyLen := int(binary.LittleEndian.Uint32(msg[4:]))
	fieldsLen := int(binary.LittleEndian.Uint32(msg[12:]))
	padded := (fieldsLen + 7) &^ 7
	if 16+padded+bodyLen != len(msg) {
		t.Fatalf("message length %d, header says %d", len(msg), 16+padded+bodyLen)
	}
	return parseFields(msg[16:16+fieldsLen], false), msg[16+padded:]
}

func TestCallEncodingRoundTrips(t *testing.T) {
	cases := []struct {
		name string
		args []any
		sig  string
		read func(d *decoder) string
		want string
	}{
		{"no args", nil, "", func(d *decoder) string { return "" }, ""},
		{"uint32", []any{uint32(7)}, "u", func(d *decoder) string { return fmt.Sprint(d.uint32()) }, "7"},
		{"two ints", []any{int32(-1), int32(5)}, "ii", func(d *decoder) string { return fmt.Sprint(d.int32(), d.int32()) }, "-1 5"},
		{"int string int", []any{int32(3), "héllo", int32(6)}, "isi",
			func(d *decoder) string { return fmt.Sprintln(d.int32(), d.str(), d.int32()) }, "3 héllo 6\n"},
		{"property set", []any{"org.a11y.atspi.Value", "CurrentValue", variantDouble(4.5)}, "ssv",
			func(d *decoder) string { return fmt.Sprintln(d.str(), d.str(), d.sig(), d.float64()) },
			"org.a11y.atspi.Value CurrentValue d 4.5\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A prefix makes the message start at an unaligned offset
			// of the buffer, as in a batch.
			buf := appendCall([]byte("xyz"), 9, 0, ":1.5", "/a/b", "org.x.I", "M", tc.args)
			h, body := splitMessage(t, buf[3:])
			if h.iface != "org.x.I" || h.member != "M" || h.signature != tc.sig {
				t.Fatalf("header %+v", h)
			}
			d := &decoder{b: body}
			if got := tc.read(d); got != tc.want || d.err != nil {
				t.Fatalf("body reads %q (%v), want %q", got, d.err, tc.want)
			}
		})
	}
}

func TestErrorReplyEncoding(t *testing.T) {
	msg := appendError(nil, 3, 11, ":1.9", "org.freedesktop.DBus.Error.UnknownMethod", "no")
	h, body := splitMessage(t, msg)
	if !h.hasReply || h.replySerial != 11 || h.errorName != "org.freedesktop.DBus.Error.UnknownMethod" || h.signature != "s" {
		t.Fatalf("header %+v", h)
	}
	if s := (&decoder{b: body}).str(); s != "no" {
		t.Fatalf("body %q", s)
	}
}

// itemsReply builds a cache reply with the current signature.
func itemsReply(items [][]any) *reply {
	e := encoder{}
	e.uint32(0)
	lenAt := len(e.buf)
	e.align(8)
	start := len(e.buf)
	for _, it := range items {
		e.align(8)
		for _, ref := range it[:3] {
			r := ref.([2]string)
			e.align(8)
			e.str(r[0])
			e.str(r[1])
		}
		e.int32(it[3].(int32))
		e.int32(it[4].(int32))
		ifaces := it[5].([]string)
		e.uint32(0)
		ifStart := len(e.buf)
		for _, s := range ifaces {
			e.str(s)
		}
		binary.LittleEndian.PutUint32(e.buf[ifStart-4:], uint32(len(e.buf)-ifStart))
		e.str(it[6].(string))
		e.uint32(it[7].(uint32))
		e.str(it[8].(string))
		e.uint32(8)
		st := it[9].([2]uint32)
		e.uint32(st[0])
		e.uint32(st[1])
	}
	binary.LittleEndian.PutUint32(e.buf[lenAt-4:], uint32(len(e.buf)-start))
	return &reply{sig: itemsSig, body: e.buf}
}

func TestDecodeItems(t *testing.T) {
	r := itemsReply([][]any{
		{[2]string{":1.2", "/f"}, [2]string{":1.2", "/root"}, [2]string{":1.2", "/root"}, int32(0), int32(2),
			[]string{"org.a11y.atspi.Accessible", "org.a11y.atspi.Component"}, "Title", uint32(23), "", [2]uint32{1 << stateShowing, 1}},
		{[2]string{":1.2", "/m"}, [2]string{":1.2", "/root"}, [2]string{":1.2", "/f"}, int32(-1), int32(-1),
			[]string{"org.a11y.atspi.Accessible", "org.a11y.atspi.Action", "org.a11y.atspi.EditableText", "org.a11y.atspi.Text"},
			"Menu", uint32(33), "desc", [2]uint32{0, 0}},
	})
	items, err := decodeItems(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	f, m := items[0], items[1]
	if f.ident != ":1.2/f" || f.parentPath != "/root" || f.childCount != 2 || f.name != "Title" || RoleName(f.role) != "frame" {
		t.Fatalf("frame item %+v", f)
	}
	if !f.states.has(stateShowing) || !f.states.has(32) || f.ifaces != ifAccessible|ifComponent {
		t.Fatalf("frame states %x ifaces %b", f.states, f.ifaces)
	}
	if m.index != -1 || m.childCount != -1 || m.desc != "desc" || m.ifaces&ifEditableText == 0 || RoleName(m.role) != "menu" {
		t.Fatalf("menu item %+v", m)
	}
	// A truncated reply is an error, not a panic.
	r.body = r.body[:len(r.body)-6]
	if _, err := decodeItems(r); err == nil {
		t.Fatal("a cut reply decoded")
	}
	if _, err := decodeItems(&reply{sig: "as"}); !errors.Is(err, errItemsSig) {
		t.Fatalf("an unknown signature: %v", err)
	}
}

func TestSecureAttributes(t *testing.T) {
	cases := []struct {
		key, value string
		secure     bool
	}{
		{"text-input-type", "password", true},
		{"text-input-type", "PASSWORD", true},
		{"input-type", "password", true},
		{"type", "password", true},
		{"html-input-type", "password", true},
		{"password", "true", true},
		{"protected", "1", true},
		{"secure", "yes", true},
		{"sensitive", "false", false},
		{"text-input-type", "email", false},
		{"toolkit", "gtk", false},
		{"placeholder-text", "password", false},
	}
	for _, tc := range cases {
		if got := secureAttr(tc.key, tc.value); got != tc.secure {
			t.Errorf("%s=%s: secure %v, want %v", tc.key, tc.value, got, tc.secure)
		}
		e := encoder{}
		e.uint32(0)
		e.align(8)
		start := len(e.buf)
		e.align(8)
		e.str("toolkit")
		e.str("gtk")
		e.align(8)
		e.str(tc.key)
		e.str(tc.value)
		binary.LittleEndian.PutUint32(e.buf[0:], uint32(len(e.buf)-start))
		if got := secureAttrs(&decoder{b: e.buf}); got != tc.secure {
			t.Errorf("a{ss} with %s=%s: secure %v", tc.key, tc.value, got)
		}
	}
	if !secureAttrs(&decoder{b: []byte{9, 0, 0}}) {
		t.Error("a malformed attribute reply must count as secure")
	}
	if !secureRole("password_text") || secureRole("text") {
		t.Error("secureRole")
	}
}

func TestErrorMapping(t *testing.T) {
	peer := &wireConn{peer: true}
	bus := &wireConn{}
	stalled := &wireConn{peer: true, why: errWriteTimeout}
	cases := []struct {
		name string
		err  error
		conn *wireConn
		t    target
		kind Kind
	}{
		{"deadline", context.DeadlineExceeded, bus, targetFrame, KindNotResponding},
		{"write timeout", errWriteTimeout, peer, targetAct, KindNotResponding},
		{"stalled peer closed", errConnClosed, stalled, targetFrame, KindNotResponding},
		{"peer exited", errConnClosed, peer, targetFrame, KindGone},
		{"bus dropped", errConnClosed, bus, targetElement, KindGone},
		{"app left the bus", &dbusError{Name: "org.freedesktop.DBus.Error.ServiceUnknown"}, bus, targetAct, KindGone},
		{"frame gone", &dbusError{Name: "org.freedesktop.DBus.Error.UnknownObject"}, bus, targetFrame, KindGone},
		{"element gone", &dbusError{Name: "org.freedesktop.DBus.Error.UnknownObject"}, bus, targetElement, KindStale},
		{"element gone (GTK 4)", &dbusError{Name: "org.freedesktop.DBus.Error.UnknownMethod"}, bus, targetAct, KindStale},
		{"no reply", &dbusError{Name: "org.freedesktop.DBus.Error.NoReply"}, bus, targetAct, KindNotResponding},
		{"the bus's reply timeout", &dbusError{Name: "org.freedesktop.DBus.Error.NoReply", FromBus: true,
			Message: "Message did not receive a reply (timeout by message bus)"}, bus, targetAct, KindNotResponding},
		{"app exited mid-call", &dbusError{Name: "org.freedesktop.DBus.Error.NoReply", FromBus: true,
			Message: "Message recipient disconnected from message bus without replying"}, bus, targetAct, KindGone},
		{"an app's own NoReply claiming it left", &dbusError{Name: "org.freedesktop.DBus.Error.NoReply",
			Message: "Message recipient disconnected from message bus without replying"}, bus, targetAct, KindNotResponding},
		{"refused act", &dbusError{Name: "org.freedesktop.DBus.Error.Failed"}, bus, targetAct, KindRefused},
		{"refused read", &dbusError{Name: "org.freedesktop.DBus.Error.Failed"}, bus, targetElement, KindInternal},
		{"malformed", errShortBody, bus, targetFrame, KindInternal},
		{"coded stays", failure(KindSecure, "x"), bus, targetAct, KindSecure},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := mapErr(tc.err, tc.conn, context.Background(), tc.t)
			if e.Kind != tc.kind {
				t.Fatalf("got %s, want %s", e.Kind, tc.kind)
			}
			if de, ok := tc.err.(*dbusError); ok && de.Message != "" && e.Message == de.Message {
				t.Fatal("the app's error text reached the message")
			}
		})
	}
}

func TestNames(t *testing.T) {
	roles := map[uint32]string{23: "frame", 40: "password_text", 61: "text", 33: "menu", 11: "combo_box", 94: "document_text", 60: "terminal"}
	for n, want := range roles {
		if got := RoleName(n); got != want {
			t.Errorf("role %d is %q, want %q", n, got, want)
		}
	}
	if got := RoleName(100000); got != "role_100000" {
		t.Errorf("an unknown role is %q", got)
	}
	got := stateNames(1<<stateEnabled | 1<<stateShowing | 1<<17 | 1<<63)
	want := []string{"enabled", "multi_line", "showing", "state_63"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("states %q, want %q", got, want)
	}
}

func TestAddressParsing(t *testing.T) {
	cases := []struct {
		addr, network, target string
		ok                    bool
	}{
		{"unix:path=/tmp/x,guid=abc", "unix", "/tmp/x", true},
		{"unix:abstract=/tmp/dbus-1,guid=1", "unix", "@/tmp/dbus-1", true},
		{"tcp:host=a,port=1;unix:path=/run/a%2cb", "unix", "/run/a,b", true},
		{"tcp:host=a,port=1", "", "", false},
	}
	for _, tc := range cases {
		n, tg, err := parseAddress(tc.addr)
		if (err == nil) != tc.ok || n != tc.network || tg != tc.target {
			t.Errorf("%s: %s %s %v", tc.addr, n, tg, err)
		}
	}
}

// TestFamilyOf: the ToolkitName values apps give, read as their family.
// Every toolkit fact of this package reads names through it: keysToWindow
// took only "Gecko" and "Chromium" to the letter while the backend's hints
// took "Chrome", "Electron" and "Mozilla" too.
func TestFamilyOf(t *testing.T) {
	cases := []struct {
		name string
		want Family
	}{
		{"Chromium", FamilyChromium}, {"Chrome", FamilyChromium}, {"Electron", FamilyChromium},
		{"Gecko", FamilyGecko}, {"gecko", FamilyGecko}, {"Mozilla", FamilyGecko},
		{"Qt", FamilyQt}, {"qt6", FamilyQt},
		{"VCL", FamilyLibreOffice}, {"LibreOffice", FamilyLibreOffice},
		{"GTK", FamilyGTK}, {"gtk", FamilyGTK}, {"GAIL", FamilyGTK},
		{"", FamilyNone}, {"  ", FamilyNone}, {"Something else", FamilyNone},
	}
	for _, c := range cases {
		if got := FamilyOf(c.name); got != c.want {
			t.Errorf("FamilyOf(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestActsLate(t *testing.T) {
	cases := []struct {
		toolkit, version string
		want             bool
	}{
		{"GTK", "4.8.3", true},
		{"GTK", "3.24.38", false},
		{"Chromium", "148.0", true},
		{"Gecko", "140.10", true},
		{"Qt", "5.15.8", false},
		{"", "", false},
	}
	for _, tc := range cases {
		if got := actsLate(tc.toolkit, tc.version); got != tc.want {
			t.Errorf("actsLate(%q, %q) = %v, want %v", tc.toolkit, tc.version, got, tc.want)
		}
	}
}

func TestWritesText(t *testing.T) {
	for toolkit, want := range map[string]bool{"GTK": true, "Gecko": false, "gecko": false, "Chromium": true, "Qt": true, "": true} {
		if got := writesText(toolkit); got != want {
			t.Errorf("writesText(%q) = %v, want %v", toolkit, got, want)
		}
	}
}

// TestKeysToWindow: Gecko apps (Firefox, Thunderbird) and Chromium apps
// (Electron's too) take keys sent to their window alone; Chromium only
// while it believes its window holds the focus, so its typing is
// bracketed by a synthetic FocusIn and FocusOut.
func TestKeysToWindow(t *testing.T) {
	cases := []struct {
		toolkit              string
		keys, needsActiveWin bool
	}{
		{"Gecko", true, false},
		{"gecko", true, false},
		{"Chromium", true, true},
		{"chromium", true, true},
		{"Chrome", true, true},
		{"GTK", false, false},
		{"Qt", false, false},
		{"", false, false},
	}
	for _, c := range cases {
		if got := keysToWindow(c.toolkit); got != c.keys {
			t.Errorf("keysToWindow(%q) = %v, want %v", c.toolkit, got, c.keys)
		}
		if got := keysNeedActiveWindow(c.toolkit); got != c.needsActiveWin {
			t.Errorf("keysNeedActiveWindow(%q) = %v, want %v", c.toolkit, got, c.needsActiveWin)
		}
	}
}

func TestDropEmbeds(t *testing.T) {
	for in, want := range map[string]string{
		"\uFFFC\uFFFC":        "",
		"Total: \uFFFC items": "Total:  items",
		"plain":               "plain",
		"":                    "",
	} {
		if got := dropEmbeds(in); got != want {
			t.Errorf("dropEmbeds(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInsertAt(t *testing.T) {
	focused := stateSet(1 << stateFocused)
	cases := []struct {
		name   string
		states stateSet
		caret  int32
		want   int32
	}{
		{"a field nobody clicked into: the end", 0, 0, -1},
		{"a caret someone placed and left", 0, 4, 4},
		{"the focused field's caret, even at the start", focused, 0, 0},
		{"the focused field's caret", focused, 3, 3},
		{"no caret reported: the end", focused, -1, -1},
	}
	for _, tc := range cases {
		if got := insertAt(tc.states, tc.caret); got != tc.want {
			t.Errorf("%s: insertAt = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestMayListChildren(t *testing.T) {
	manages := stateSet(1 << stateManagesDescendants)
	b := Budget{MaxElements: 5000, MaxDepth: 200}
	cases := []struct {
		name   string
		count  int32
		states stateSet
		want   bool
	}{
		{"a panel", 12, 0, true},
		{"a list managing a few rows", 40, manages, true},
		{"Calc's sheet: 2^31 - 1 cells", 2147483647, manages, false},
		{"more children than the budget", 5001, 0, false},
		{"a count not known, not managing", -1, 0, true},
		{"a count not known, managing", -1, manages, false},
	}
	for _, tc := range cases {
		if got := mayListChildren(&elem{childCount: tc.count, states: tc.states}, b); got != tc.want {
			t.Errorf("%s: mayListChildren = %v, want %v", tc.name, got, tc.want)
		}
	}
}
