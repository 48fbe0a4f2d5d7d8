package xlib

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The consent dialog's content, layout and click rules, apart from X so
// they can be read and tested on their own. consent.go draws a form and
// feeds it the window's button events.

// Limits on the untrusted text the dialog shows.
const (
	maxHostRunes    = 64
	maxAppRunes     = 48
	maxPurposeLines = 3
)

// consentArmDelay is how long after the dialog appears before a press
// counts, so a click the person aimed at something else just as the dialog
// popped up under the pointer does not answer it.
const consentArmDelay = 400 * time.Millisecond

// fontMetrics describes a fixed-width font.
type fontMetrics struct {
	charW, ascent, descent int
}

func (m fontMetrics) lineH() int { return m.ascent + m.descent }

// formText is one line of static text.
type formText struct {
	x, baseline int
	text        string
	bold, alert bool
}

// controlKind says how a control is drawn and what a click does.
type controlKind int

const (
	tickBox controlKind = iota + 1
	button
)

// formControl is a clickable part of the form.
type formControl struct {
	id       string
	kind     controlKind
	rect     Rect
	label    string
	ticked   bool
	alert    bool // drawn in the warning colour
	primary  bool // the Allow button
	pid      int  // app lines
	baseline int  // of the label
}

// consentForm is the laid-out dialog and its tick state.
type consentForm struct {
	w, h     int
	texts    []formText
	controls []formControl
	rules    []int // y of separator lines
}

// Control ids of the published layout.
const (
	idTakeover      = "takeover"
	idClipboardRead = "clipboard_read"
	idAllow         = "allow"
	idDeny          = "deny"
)

func appID(pid int) string { return "app:" + strconv.Itoa(pid) }

// layoutConsent lays the dialog out for a fixed-width font.
func layoutConsent(dlg ConsentDialog, m fontMetrics) *consentForm {
	const (
		width  = 620
		margin = 20
		boxW   = 14
	)
	f := &consentForm{w: width}
	cols := (width - 2*margin) / max(m.charW, 1)
	lh := m.lineH()
	y := margin

	// fit cuts text drawn at x to the window's inner width.
	fit := func(x int, s string) string { return cut(s, (width-margin-x)/max(m.charW, 1)) }
	text := func(x int, s string, bold, alert bool) {
		f.texts = append(f.texts, formText{x: x, baseline: y + m.ascent, text: fit(x, s), bold: bold, alert: alert})
		y += lh
	}
	text(margin, "An AI assistant asks to use apps on your screen", true, false)
	y += 8
	host := cut(plainText(dlg.Host), maxHostRunes)
	if host == "" {
		host = "(no name given)"
	}
	text(margin, "Host: "+host, false, false)
	purpose := plainText(dlg.Purpose)
	if purpose == "" {
		purpose = "(none given)"
	}
	const purposeLabel = "Purpose: "
	indent := len(purposeLabel) * m.charW
	for i, line := range wrap(purpose, cols-len(purposeLabel), maxPurposeLines) {
		if i == 0 {
			text(margin, purposeLabel+line, false, false)
		} else {
			text(margin+indent, line, false, false)
		}
	}
	y += 10

	rowH := max(lh, boxW) + 8
	row := func(id, label string, ticked, alert bool, pid int) {
		f.controls = append(f.controls, formControl{
			id: id, kind: tickBox, rect: Rect{X: margin, Y: y, W: width - 2*margin, H: rowH},
			label: fit(margin+boxW+14, label), ticked: ticked, alert: alert, pid: pid,
			baseline: y + (rowH-lh)/2 + m.ascent,
		})
		y += rowH
	}
	if len(dlg.Apps) > 0 {
		text(margin, "It may read and operate these apps (untick to leave one out):", false, false)
		y += 4
		for _, app := range dlg.Apps {
			name := cut(plainText(app.Name), maxAppRunes)
			if name == "" {
				name = "(unnamed app)"
			}
			row(appID(app.Pid), name+" (pid "+strconv.Itoa(app.Pid)+")", true, false, app.Pid)
		}
	}
	if dlg.Takeover || dlg.ClipboardRead {
		y += 6
		f.rules = append(f.rules, y)
		y += 8
	}
	if dlg.Takeover {
		row(idTakeover, "ALSO allow VISIBLE TAKEOVER", false, true, 0)
		text(margin+boxW+14, "It moves your pointer and types; a red frame shows meanwhile.", false, false)
		y += 4
	}
	if dlg.ClipboardRead {
		row(idClipboardRead, "Allow clipboard reading", false, false, 0)
	}
	y += 12
	text(margin, "Only a mouse click answers. No answer means Deny.", false, false)
	y += 10
	const btnW, btnH = 110, 32
	f.controls = append(f.controls,
		formControl{id: idDeny, kind: button, label: "Deny",
			rect: Rect{X: width - margin - 2*btnW - 14, Y: y, W: btnW, H: btnH}},
		formControl{id: idAllow, kind: button, label: "Allow", primary: true,
			rect: Rect{X: width - margin - btnW, Y: y, W: btnW, H: btnH}},
	)
	for i := range f.controls[len(f.controls)-2:] {
		c := &f.controls[len(f.controls)-2+i]
		c.baseline = y + (btnH-lh)/2 + m.ascent
	}
	y += btnH + margin
	f.h = y
	return f
}

// hit returns the id of the control at window point (x, y), or "".
func (f *consentForm) hit(x, y int) string {
	for _, c := range f.controls {
		if c.rect.Contains(x, y) {
			return c.id
		}
	}
	return ""
}

// layout is the published ConsentLayout.
func (f *consentForm) layout() ConsentLayout {
	var l ConsentLayout
	for _, c := range f.controls {
		l.Controls = append(l.Controls, ConsentControl{ID: c.id, Rect: [4]int{c.rect.X, c.rect.Y, c.rect.W, c.rect.H}})
	}
	return l
}

// layoutJSON is the property's value.
func (f *consentForm) layoutJSON() []byte {
	b, _ := json.Marshal(f.layout())
	return b
}

// click applies a counted click on a control: a tick box toggles; Allow and
// Deny end the dialog with the answer.
func (f *consentForm) click(id string) (done bool, r ConsentResult) {
	switch id {
	case idAllow:
		r.Allowed = true
		for _, c := range f.controls {
			switch {
			case c.pid != 0 && strings.HasPrefix(c.id, "app:") && c.ticked:
				r.Pids = append(r.Pids, c.pid)
			case c.id == idTakeover:
				r.Takeover = c.ticked
			case c.id == idClipboardRead:
				r.ClipboardRead = c.ticked
			}
		}
		return true, r
	case idDeny:
		return true, ConsentResult{}
	}
	for i := range f.controls {
		if f.controls[i].id == id && f.controls[i].kind == tickBox {
			f.controls[i].ticked = !f.controls[i].ticked
		}
	}
	return false, r
}

// clickGate decides which button events make a click that counts: a
// left-button press and release on the same control, neither sent with
// SendEvent, the press after the dialog was armed and not one the driver
// could have made (driverPressRecent). Keys never reach it.
type clickGate struct {
	armedAt           time.Time // zero until the dialog is on screen
	driverPressRecent func(time.Time) bool
	pressed           string // the control a counted press landed on
}

// press sees a ButtonPress on the dialog, handled now and made at at
// (eventAt). The driver's presses are compared with when it was made: one
// handled late is still the driver's. Arming is compared with the
// handling: at is read from a clock a few milliseconds coarse, and a click
// made as the dialog armed must not fall before it.
func (g *clickGate) press(button int, synthetic bool, hit string, at, now time.Time) {
	if button != 1 || synthetic {
		return
	}
	g.pressed = ""
	if g.armedAt.IsZero() || now.Before(g.armedAt) {
		return
	}
	if g.driverPressRecent != nil && g.driverPressRecent(at) {
		return
	}
	g.pressed = hit
}

// release sees a ButtonRelease and returns the control clicked, or "".
func (g *clickGate) release(button int, synthetic bool, hit string) string {
	if button != 1 || synthetic {
		return ""
	}
	p := g.pressed
	g.pressed = ""
	if p != "" && p == hit {
		return p
	}
	return ""
}

// plainText makes untrusted text safe to draw on one line: control and
// line-breaking characters become spaces, invisible formatting characters
// (bidi overrides, zero-width joiners) go, characters outside the Basic
// Multilingual Plane (which core fonts cannot draw) become '?', and runs of
// spaces shrink to one.
func plainText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "?") {
		switch {
		case unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029':
			r = ' '
		case unicode.Is(unicode.Cf, r):
			continue
		case r > 0xffff:
			r = '?'
		}
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// cut shortens s to at most n runes, ending in "..." when it was cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n <= 3 {
		return string(r[:max(n, 0)])
	}
	return strings.TrimRight(string(r[:n-3]), " ") + "..."
}

// wrap breaks s into lines of at most cols runes at spaces (cutting words
// longer than a line), at most maxLines of them, the last ending in "..."
// when text was left out.
func wrap(s string, cols, maxLines int) []string {
	cols = max(cols, 8)
	var lines []string
	words := strings.Fields(s)
	line := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case line == "" && utf8.RuneCountInString(w) > cols:
			r := []rune(w)
			lines = append(lines, string(r[:cols]))
			words[i] = string(r[cols:])
			i--
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= cols:
			line += " " + w
		default:
			lines = append(lines, line)
			line = ""
			i--
		}
		if len(lines) > maxLines {
			break
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		last := []rune(lines[maxLines-1])
		if len(last) > cols-3 {
			last = last[:cols-3]
		}
		lines[maxLines-1] = strings.TrimRight(string(last), " ") + "..."
	}
	return lines
}
