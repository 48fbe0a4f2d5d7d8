package native

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// probeBound bounds the accessibility bus probe of one doctor run.
const probeBound = 2 * time.Second

// Registry reports what this desktop offers (docs/contract.md#registry): the
// X display with its extensions (parts.go), the accessibility bus (and
// whether Qt apps can find it through the root window's AT_SPI_BUS), the
// kill switch's grab, and the probes that say what was checked. The
// capabilities follow from these parts through the engine's table.
func (b *Backend) Registry(ctx context.Context) engine.Registry {
	if b.x.Lost() {
		return b.lostRegistry()
	}
	ext := b.x.Extensions()

	reg := engine.Registry{SessionType: "x11"}
	reg.Probes = append(reg.Probes, engine.Probe{Label: "display server", Status: "ok", Message: "X11 " + b.x.Name() + " answers"})

	x11, xi, features := displayParts(ext)
	reg.Probes = append(reg.Probes, engine.Probe{Label: "X extensions", Status: statusOf(ext.XRes && ext.Composite && ext.XTest),
		Message: fmt.Sprintf("XTEST %v, XInput %d.%d, Composite %v, X-Resource %v, SHAPE %v, RandR %d.%d",
			ext.XTest, ext.XInputMajor, ext.XInputMinor, ext.Composite, ext.XRes, ext.Shape, ext.RandRMajor, ext.RandRMinor)})
	reg.Probes = append(reg.Probes, b.monitorsProbe())
	reg.Probes = append(reg.Probes, b.killSwitchProbe())

	pctx, cancel := context.WithTimeout(ctx, probeBound)
	defer cancel()
	apps, busErr := b.a.Apps(pctx)
	atspiEntry := entry(engine.PartAtspi, true, busErr == nil, doctor.ReasonAtspiBusUnreachable)
	perm := engine.Permission{Name: "accessibility", Status: "granted"}
	if busErr != nil {
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
	if busErr == nil {
		reg.Probes = append(reg.Probes, b.emptyTreeProbes(ctx)...)
	}
	reg.Backends = []engine.BackendEntry{x11, atspiEntry, xi}
	reg.Features = features
	reg.Permissions = []engine.Permission{perm, {Name: "screen_capture", Status: "not_applicable"}}
	if waylandSession(b.getenv) {
		capture, castProbe := b.castPart(ctx)
		reg = inWaylandSession(reg, b.x.Name(), b.getenv, capture, castProbe)
	}
	return reg
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
