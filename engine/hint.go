package engine

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Accessibility hints: why a window reads as its frame and little else,
// and what the person can do about it. Browsers, Electron apps, Qt apps
// and LibreOffice keep their trees off unless asked, and a model that sees
// one empty frame has no way to tell that from an empty window. The text
// is the driver's own, fixed per code; an app's name or toolkit string
// never goes into it.

// AccessibilityHint is get_window_state's accessibility_hint.
type AccessibilityHint struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Hint codes.
const (
	// HintChromiumRendererOff: a Chromium-family app (Chromium, Chrome,
	// Electron) with no web content in its tree.
	HintChromiumRendererOff = "chromium_renderer_accessibility_off"
	// HintGeckoOff: Firefox or Thunderbird with nothing below the frame.
	HintGeckoOff = "gecko_accessibility_off"
	// HintQtOff: a Qt app with nothing below the frame.
	HintQtOff = "qt_accessibility_off"
	// HintLibreOfficeOff: LibreOffice with nothing below the frame.
	HintLibreOfficeOff = "libreoffice_accessibility_off"
	// HintNotOnBus: an app of another or unknown toolkit that is not on
	// the accessibility bus (its read is the window system's frame row).
	HintNotOnBus = "app_not_on_accessibility_bus"
	// HintTreeEmpty: an app of another or unknown toolkit that is on the
	// bus and shows nothing below the frame.
	HintTreeEmpty = "accessibility_tree_empty"
)

// hintMessages is the fixed text of each hint code.
var hintMessages = map[string]string{
	HintChromiumRendererOff: "This is a Chromium-based app (Chromium, Chrome, or an Electron app such as VS Code or Slack) " +
		"and it exposes no page content to accessibility, so the window reads as its frame and little else. " +
		"Chromium builds the accessibility tree of its web content only when it is started with the switch " +
		"--force-renderer-accessibility, and a running instance cannot be switched. Fix: quit the app completely " +
		"(every window) and start it again with that switch, for example `chromium --force-renderer-accessibility` " +
		"or `code --force-renderer-accessibility`. If the app is not on the accessibility bus at all, also start it " +
		"with ACCESSIBILITY_ENABLED=1 in its environment.",
	HintGeckoOff: "This is a Gecko app (Firefox or Thunderbird) with its accessibility off, so the window reads as its " +
		"frame only. The driver turns the desktop's accessibility switch (org.a11y.Status IsEnabled) on when a " +
		"session starts, and a running Firefox usually follows it within a few seconds: read the window again. " +
		"Fix if it stays empty: quit the app and start it again with GNOME_ACCESSIBILITY=1 in its environment, " +
		"and make sure the preference accessibility.force_disabled is not set.",
	HintQtOff: "This is a Qt app with its accessibility off, so the window reads as its frame only. Fix: quit the app " +
		"and start it again with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in its environment. Qt 6 apps also follow the " +
		"desktop's accessibility switch, which the driver turns on when a session starts: read the window again first.",
	HintLibreOfficeOff: "This is LibreOffice with its accessibility off, so the window reads as its frame only. " +
		"LibreOffice exposes its tree only with its GTK 3 interface and SAL_ACCESSIBILITY_ENABLED=1. Fix: close every " +
		"LibreOffice window and start it again with SAL_USE_VCLPLUGIN=gtk3 and SAL_ACCESSIBILITY_ENABLED=1 in its " +
		"environment (Debian and Ubuntu ship that interface as the libreoffice-gtk3 package).",
	HintNotOnBus: "This app is not on the accessibility bus, so its only row is the window frame, taken from the X " +
		"server: it is not captured (the driver cannot see its secure fields), and it is acted on only in a takeover. Apps decide whether to join the bus when they " +
		"start, and the driver turns the desktop's accessibility switch on when a session starts. Fix: quit the app " +
		"and start it again. GTK apps join unless NO_AT_BRIDGE=1 is set in their environment; Qt 5 apps need " +
		"QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1.",
	HintTreeEmpty: "The app is on the accessibility bus but exposes nothing below this window's frame. It may draw " +
		"the window itself without accessibility (a game, a canvas), or its accessibility was off when it started. " +
		"Fix: quit the app and start it again now that the driver has turned the desktop's accessibility switch on.",
}

// sparseRows: a Chromium-family window with fewer rows than this and no
// document is taken as one without renderer accessibility (with it, the
// browser's own toolbar alone is over a hundred rows).
const sparseRows = 50

// hintBound bounds the backend's answer about a window that looks empty.
const hintBound = time.Second

// HintFor decides the hint for a window of rows rows (the frame counts as
// one) that does or does not hold a document, given what the backend knows
// about it; nil when the read needs none.
func HintFor(info WindowAccessibility, rows int, hasDocument bool) *AccessibilityHint {
	code := ""
	switch {
	case info.Toolkit == ToolkitChromium && !hasDocument && rows < sparseRows:
		code = HintChromiumRendererOff
	case rows > 1:
	case info.Toolkit == ToolkitGecko:
		code = HintGeckoOff
	case info.Toolkit == ToolkitQt:
		code = HintQtOff
	case info.Toolkit == ToolkitLibreOffice:
		code = HintLibreOfficeOff
	case !info.OnBus:
		code = HintNotOnBus
	default:
		code = HintTreeEmpty
	}
	if code == "" {
		return nil
	}
	msg := hintMessages[code]
	if code == HintQtOff && !info.OnBus && qtBusBroken(info.QtBus) {
		msg += " " + qtBusHint
	}
	return &AccessibilityHint{Code: code, Message: msg}
}

// looksEmpty: a read that may need a hint. Anything else costs no call.
func looksEmpty(t *Tree) bool {
	if t.Truncated {
		return false
	}
	return len(t.Nodes) <= 1 || (len(t.Nodes) < sparseRows && !hasDocument(t))
}

// hasDocument reports whether a read holds a document element (a web
// page, an editor's document).
func hasDocument(t *Tree) bool {
	for i := range t.Nodes {
		if strings.HasPrefix(t.Nodes[i].Role, "document") {
			return true
		}
	}
	return false
}

// accessibilityHint asks the backend about a window whose read looks
// empty and returns the hint it needs, if any. A backend that fails to say,
// or does not answer within the bound, gives no hint.
func (d *Driver) accessibilityHint(ctx context.Context, t *Tree) *AccessibilityHint {
	if !looksEmpty(t) {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, hintBound)
	defer cancel()
	info, err := d.backend.WindowAccessibility(cctx, t.Window)
	if err != nil {
		return nil
	}
	return HintFor(info, len(t.Nodes), hasDocument(t))
}

// hintText is the hint as the text block shows it, after the tree.
func hintText(h *AccessibilityHint) string {
	return "\n--- accessibility hint ---\n" + h.Code + ": " + h.Message
}

// EmptyTreeProbe is the doctor's line about one running app whose window
// reads as its frame. The app's name is untrusted: it is escaped, cut and
// quoted, and kept out of the fix, which is the hint's fixed text.
func EmptyTreeProbe(app string, pid int, h AccessibilityHint) Probe {
	return Probe{
		Label:   "empty accessibility tree",
		Status:  "fail",
		Message: fmt.Sprintf("app %s (pid %d) reads as its window frame only [%s]. %s", quote(shownName(app)), pid, h.Code, h.Message),
	}
}

// SwitchProbe is the doctor's line about the desktop's accessibility
// switch: on, off (which the driver changes when a session starts), or not
// readable (err).
func SwitchProbe(on bool, err error) Probe {
	p := Probe{Label: "accessibility switch (org.a11y.Status IsEnabled)", Status: "ok", Message: "on"}
	switch {
	case err != nil:
		p.Status, p.Message = "fail", "cannot be read: the session bus has no org.a11y.Bus, or it did not answer in time"
	case !on:
		p.Message = "off — the driver turns it on when a session starts"
	}
	return p
}

// Accessibility switch states in start_session's accessibility_switch.
const (
	SwitchOn          = "on"          // it was on already
	SwitchTurnedOn    = "turned_on"   // the driver turned it on
	SwitchUnavailable = "unavailable" // it could not be read or set in time
)

// accessibilitySwitchBound bounds turning the switch on.
const accessibilitySwitchBound = 1500 * time.Millisecond

// enableAccessibility turns the desktop's accessibility switch on, within
// its own bound, and says what happened. It never fails the caller.
func (d *Driver) enableAccessibility(ctx context.Context) string {
	cctx, cancel := context.WithTimeout(ctx, accessibilitySwitchBound)
	defer cancel()
	wasOn, err := d.backend.EnableAccessibility(cctx)
	switch {
	case err != nil:
		return SwitchUnavailable
	case wasOn:
		return SwitchOn
	}
	return SwitchTurnedOn
}
