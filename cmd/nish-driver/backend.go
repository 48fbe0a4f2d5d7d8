package main

import (
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/audit"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/native"
)

// backendFlags choose the desktop the driver works on.
type backendFlags struct {
	Backend string `enum:"mock,linux" default:"linux" help:"Desktop backend: linux (this X11 session) or mock (an in-memory demo desktop)."`
	Display string `help:"X display to use instead of $DISPLAY (linux backend)."`
}

// mockConsent maps --mock-consent to how the mock's scripted person answers
// the consent dialog.
var mockConsent = map[string]mock.ConsentPolicy{
	"allow":     mock.AllowAll,
	"apps-only": mock.AllowAppsOnly,
	"deny":      mock.Deny,
	"ignore":    mock.Ignore,
}

// openBackend makes the chosen backend; the returned func releases it.
func openBackend(f backendFlags, consent string) (engine.Backend, func(), error) {
	switch f.Backend {
	case "mock":
		desk := mock.NewDemo()
		// The mock logs its calls for tests; a served demo keeps only
		// the recent ones, so a long session does not grow the process.
		desk.KeepCalls(1024)
		if consent != "" {
			policy, ok := mockConsent[consent]
			if !ok {
				return nil, nil, fmt.Errorf("unknown --mock-consent %q", consent)
			}
			desk.SetConsent(policy)
		}
		return desk, desk.Close, nil
	case "linux", "":
		return openLinux(f.Display)
	}
	return nil, nil, fmt.Errorf("unknown backend %q", f.Backend)
}

// openLinux makes the Linux (X11 + AT-SPI) backend: the live one, or the
// unavailable one that keeps why the live one could not start
// (native.OpenOrUnavailable).
func openLinux(display string) (engine.Backend, func(), error) {
	b, closeBackend := native.OpenOrUnavailable(native.Options{Display: display})
	return b, closeBackend, nil
}

// openAuditLog opens the audit log at path, or at its XDG default when path
// is empty (--audit-log of mcp and daemon).
func openAuditLog(path string) (*audit.Log, error) {
	if path == "" {
		path = audit.DefaultPath()
	}
	l, err := audit.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the audit log: %w (choose another file with --audit-log PATH)", err)
	}
	return l, nil
}
