package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stopsock"
	"github.com/nish-driver/nish-driver/native"
)

// driverFlags are the flags mcp and daemon both take to make their driver.
type driverFlags struct {
	backendFlags
	AuditLog    string `name:"audit-log" placeholder:"PATH" help:"Audit log file (default $XDG_STATE_HOME/nish-driver/audit.jsonl)."`
	KillSwitch  string `name:"kill-switch" default:"${default_kill_switch}" placeholder:"COMBO" help:"Key combination that ends every takeover and session of this driver (modifiers shift, ctrl, alt, super, then an X key name)."`
	MockConsent string `name:"mock-consent" enum:"allow,apps-only,deny,ignore" default:"allow" help:"How the mock backend's scripted person answers the consent dialog."`
}

// wiredDriver is one engine driver on one backend, with its audit log and
// its kill switch (the key and the stop socket): what mcp serves on stdio and the daemon on its socket.
type wiredDriver struct {
	backend engine.Backend
	driver  *engine.Driver
	// release undoes the wiring, newest part first.
	release []func()
}

// wireDriver opens the backend and the audit log, makes the driver, grabs
// the kill switch and opens the stop socket that pulls it. A kill switch that cannot be grabbed (no display,
// the combination taken) is only logged; a malformed one is an error.
func wireDriver(f driverFlags, logger *slog.Logger) (_ *wiredDriver, err error) {
	w := &wiredDriver{}
	defer func() {
		if err != nil {
			w.Close()
		}
	}()
	backend, closeBackend, err := openBackend(f.backendFlags, f.MockConsent)
	if err != nil {
		return nil, err
	}
	w.backend = backend
	w.release = append(w.release, closeBackend)

	auditLog, err := openAuditLog(f.AuditLog)
	if err != nil {
		return nil, err
	}
	w.release = append(w.release, func() { auditLog.Close() })

	d := engine.New(engine.Options{Backend: backend, Audit: auditLog})
	w.driver = d
	releaseKillSwitch, err := native.GrabKillSwitchOn(backend, f.KillSwitch, func() { d.KillSwitch() })
	if errors.Is(err, native.ErrBadKillSwitch) {
		return nil, fmt.Errorf("--kill-switch: %w", err)
	} else if err != nil {
		logger.Warn("the kill switch is not active; nish-driver doctor says why", "kill_switch", f.KillSwitch)
	}
	w.release = append(w.release, releaseKillSwitch)
	w.release = append(w.release, listenForStop(d, logger))
	return w, nil
}

// listenForStop opens this driver's stop socket, so that `nish-driver stop`
// pulls the same kill switch as the key (on Wayland, the only one). A
// socket that cannot be made is logged, like a key that cannot be grabbed:
// the driver still serves.
func listenForStop(d *engine.Driver, logger *slog.Logger) (release func()) {
	dir, err := stopsock.Dir()
	if err == nil {
		var l *stopsock.Listener
		if l, err = stopsock.Listen(dir, d.KillSwitch, logger); err == nil {
			return l.Close
		}
	}
	logger.Warn("nish-driver stop cannot reach this driver", "error", err.Error())
	return func() {}
}

// Close releases the kill switch, the audit log and the backend.
func (w *wiredDriver) Close() {
	for i := len(w.release) - 1; i >= 0; i-- {
		w.release[i]()
	}
	w.release = nil
}
