package native

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// probeBound bounds the accessibility bus probe of one doctor run.
const probeBound = 2 * time.Second

// Registry reports what this desktop offers (docs/contract.md#registry): the
// X display with its extensions, the accessibility bus (and whether Qt apps
// can find it through the root window's AT_SPI_BUS), the kill switch's
// grab, and each capability with the part it rests on.
func (b *Backend) Registry(ctx context.Context) engine.Registry {
	ext := b.x.Extensions()
	xiOK := ext.XInputMajor > 2 || (ext.XInputMajor == 2 && ext.XInputMinor >= 1)

	reg := engine.Registry{SessionType: "x11"}
	reg.Probes = append(reg.Probes, engine.Probe{Label: "display server", Status: "ok", Message: "X11 " + b.x.Name() + " answers"})

	x11 := engine.BackendEntry{ID: "x11", Status: "available", Required: true}
	var missing []string
	for _, e := range []struct {
		ok   bool
		name string
	}{{ext.XRes, "X-Resource"}, {ext.Composite, "Composite"}, {ext.XTest, "XTEST"}} {
		if !e.ok {
			missing = append(missing, e.name)
		}
	}
	if !ext.XRes {
		// Without XRes windows cannot be tied to their processes, and
		// consent is per process: the driver cannot work.
		x11.Status, x11.ReasonCode, x11.Action = "unavailable", doctor.ReasonXResMissing, doctor.Action(doctor.ReasonXResMissing)
	}
	reg.Probes = append(reg.Probes, engine.Probe{Label: "X extensions", Status: statusOf(len(missing) == 0),
		Message: fmt.Sprintf("XTEST %v, XInput %d.%d, Composite %v, X-Resource %v, SHAPE %v, RandR %d.%d",
			ext.XTest, ext.XInputMajor, ext.XInputMinor, ext.Composite, ext.XRes, ext.Shape, ext.RandRMajor, ext.RandRMinor)})
	reg.Probes = append(reg.Probes, b.monitorsProbe())
	reg.Probes = append(reg.Probes, b.killSwitchProbe())

	pctx, cancel := context.WithTimeout(ctx, probeBound)
	defer cancel()
	atspiEntry := engine.BackendEntry{ID: "atspi", Status: "available", Required: true}
	perm := engine.Permission{Name: "accessibility", Status: "granted"}
	if apps, err := b.a.Apps(pctx); err != nil {
		atspiEntry.Status, atspiEntry.ReasonCode, atspiEntry.Action = "unavailable", doctor.ReasonAtspiBusUnreachable, doctor.Action(doctor.ReasonAtspiBusUnreachable)
		perm = engine.Permission{Name: "accessibility", Status: "missing", ReasonCode: doctor.ReasonAtspiBusUnreachable, Action: doctor.Action(doctor.ReasonAtspiBusUnreachable)}
		reg.Probes = append(reg.Probes, engine.Probe{Label: "accessibility bus", Status: "fail", Message: "the AT-SPI bus does not answer"})
	} else {
		reg.Probes = append(reg.Probes, engine.Probe{Label: "accessibility bus", Status: "ok", Message: fmt.Sprintf("%d apps registered", len(apps))})
	}
	sctx, scancel := context.WithTimeout(ctx, probeBound)
	on, serr := b.a.AccessibilitySwitch(sctx)
	scancel()
	reg.Probes = append(reg.Probes, engine.SwitchProbe(on, serr))
	qctx, qcancel := context.WithTimeout(ctx, probeBound)
	reg.Probes = append(reg.Probes, engine.QtBusProbe(b.qtBusState(qctx)))
	qcancel()
	if atspiEntry.Status == "available" {
		reg.Probes = append(reg.Probes, b.emptyTreeProbes(ctx)...)
	}
	xi := engine.BackendEntry{ID: "xinput2", Status: "available"}
	if !xiOK {
		xi.Status, xi.ReasonCode, xi.Action = "unavailable", doctor.ReasonXInput2Missing, doctor.Action(doctor.ReasonXInput2Missing)
	}
	reg.Backends = []engine.BackendEntry{x11, atspiEntry, xi}
	reg.Permissions = []engine.Permission{perm, {Name: "screen_capture", Status: "not_applicable"}}

	avail := func(name, consent string, ok bool, reason string) engine.Capability {
		if ok {
			return engine.Capability{Name: name, Status: "available", Consent: consent}
		}
		return engine.Capability{Name: name, Status: "unavailable", ReasonCode: reason, Action: doctor.Action(reason), Consent: consent}
	}
	treeOK := atspiEntry.Status == "available"
	treeReason := atspiEntry.ReasonCode
	capReason := doctor.ReasonCompositeMissing
	reg.Capabilities = []engine.Capability{
		avail("read_tree", "session", treeOK, treeReason),
		avail("act_semantic", "session", treeOK, treeReason),
		avail("capture_window", "session", ext.Composite, capReason),
		avail("input_takeover", "takeover", takeoverReason(ext) == "", takeoverReason(ext)),
		avail("takeover_indicator", "takeover", ext.Shape, doctor.ReasonX11ExtensionMissing),
		avail("takeover_handback", "takeover", takeoverReason(ext) == "", takeoverReason(ext)),
		{Name: "list_notifications", Status: "unsupported", ReasonCode: doctor.ReasonNoPlatformAPI, Action: doctor.Action(doctor.ReasonNoPlatformAPI), Consent: "session"},
		{Name: "dismiss_notification", Status: "unsupported", ReasonCode: doctor.ReasonNoPlatformAPI, Action: doctor.Action(doctor.ReasonNoPlatformAPI), Consent: "session"},
		{Name: "invoke_notification_action", Status: "unsupported", ReasonCode: doctor.ReasonNoPlatformAPI, Action: doctor.Action(doctor.ReasonNoPlatformAPI), Consent: "session"},
		// The clipboard needs only the display connection this backend holds.
		avail("clipboard_read", "separate", true, ""),
		avail("clipboard_write", "session", true, ""),
	}
	return reg
}

// takeoverReason names why a takeover (synthetic input with hand-back) is
// off, or "" when it is possible: it needs XInput 2.1 raw events to see the
// person take over, XTEST to send input, and Shape for the click-through
// indicator.
func takeoverReason(ext xlib.Extensions) string {
	switch {
	case ext.XInputMajor < 2 || (ext.XInputMajor == 2 && ext.XInputMinor < 1):
		return doctor.ReasonXInput2Missing
	case !ext.XTest:
		return doctor.ReasonXTestMissing
	case !ext.Shape:
		return doctor.ReasonX11ExtensionMissing
	}
	return ""
}

func statusOf(ok bool) string {
	if ok {
		return "ok"
	}
	return "fail"
}

// monitorsProbe lists the monitors (RandR 1.5), each with its geometry in
// root coordinates, whether it is the primary, and its density when the
// server knows its physical size. A server that cannot list monitors is
// not a failure: the indicator then frames the whole screen.
func (b *Backend) monitorsProbe() engine.Probe {
	p := engine.Probe{Label: "monitors", Status: "ok"}
	mons, err := b.x.Monitors()
	if err != nil {
		p.Status, p.Message = "fail", "the monitors could not be read"
		return p
	}
	parts := make([]string, 0, len(mons))
	for _, m := range mons {
		parts = append(parts, m.String())
	}
	p.Message = fmt.Sprintf("%d: %s", len(mons), strings.Join(parts, "; "))
	if len(mons) > 0 && !mons[0].Listed {
		p.Message = "RandR 1.5 is missing; the whole screen counts as one monitor: " + parts[0]
	}
	return p
}
