package doctor

// Reason codes (docs/contract.md#reason-codes): why a backend, capability or
// permission is not available. The wire value is the constant's value.
const (
	ReasonDisplayUnreachable          = "display_unreachable"
	ReasonDisplayNotLocal             = "display_not_local"
	ReasonX11ExtensionMissing         = "x11_extension_missing"
	ReasonAtspiBusUnreachable         = "atspi_bus_unreachable"
	ReasonAtspiBusNotAdvertised       = "atspi_bus_not_advertised"
	ReasonXResMissing                 = "xres_missing"
	ReasonCompositeMissing            = "composite_missing"
	ReasonXTestMissing                = "xtest_missing"
	ReasonXInput2Missing              = "xinput2_missing"
	ReasonNoPlatformAPI               = "no_platform_api"
	ReasonNotBuilt                    = "not_built"
	ReasonWaylandSessionUnsupported   = "wayland_session_unsupported"
	ReasonWaylandPortalNotBuilt       = "wayland_portal_not_built"
	ReasonPortalUnavailable           = "portal_unavailable"
	ReasonPortalScreencastDenied      = "portal_screencast_denied"
	ReasonPortalRemoteDesktopDenied   = "portal_remote_desktop_denied"
	ReasonPortalGlobalShortcutsDenied = "portal_global_shortcuts_denied"
	ReasonCompositorUnsupported       = "compositor_unsupported"
)

// actions holds, per reason, one plain sentence telling the person what to
// do. A backend may give a more precise sentence of its own; these fill in
// when it does not.
var actions = map[string]string{
	ReasonDisplayUnreachable:          "Start nish-driver from inside your graphical X11 session (or pass --display naming a running X server), then run nish-driver doctor again.",
	ReasonDisplayNotLocal:             "Run nish-driver on the same machine as the X server; displays reached over the network (for example through ssh -X) are not supported.",
	ReasonX11ExtensionMissing:         "Your X server lacks an extension nish-driver needs; use a standard Xorg or Xvfb server.",
	ReasonAtspiBusUnreachable:         "Turn on assistive technologies in your desktop's accessibility settings (this starts the accessibility bus), then sign out and in again.",
	ReasonAtspiBusNotAdvertised:       "The accessibility bus runs but your session does not announce it; install at-spi2-core and sign out and in again.",
	ReasonXResMissing:                 "Your X server lacks the X-Resource extension, so windows cannot be tied to their apps; use a standard Xorg or Xvfb server.",
	ReasonCompositeMissing:            "Your X server lacks the Composite extension, so windows cannot be captured; use a standard Xorg or Xvfb server.",
	ReasonXTestMissing:                "Your X server lacks the XTEST extension, so visible takeover is not possible; use a standard Xorg or Xvfb server.",
	ReasonXInput2Missing:              "Your X server lacks XInput 2.1, so nish-driver cannot notice when you take control back; visible takeover stays off until it has it.",
	ReasonNoPlatformAPI:               "Linux offers no way to do this; nothing to fix on your side.",
	ReasonNotBuilt:                    "This nish-driver binary was built without its native Linux desktop backend; install a release build.",
	ReasonWaylandSessionUnsupported:   "Your Wayland desktop runs no Xwayland, where nish-driver shows its consent dialog; turn Xwayland on (GNOME, KDE and sway start it by default) or choose an X11 (Xorg) session at the login screen.",
	ReasonWaylandPortalNotBuilt:       "On Wayland nish-driver reads, acts through accessibility and captures the focused window; visible takeover there is planned. For a takeover, choose an X11 (Xorg) session.",
	ReasonPortalUnavailable:           "Your desktop offers no portal service for this; install xdg-desktop-portal for your desktop.",
	ReasonPortalScreencastDenied:      "Screen sharing was not allowed; allow it for nish-driver when your desktop asks.",
	ReasonPortalRemoteDesktopDenied:   "Remote control was not allowed; allow it for nish-driver when your desktop asks.",
	ReasonPortalGlobalShortcutsDenied: "The emergency shortcut was not allowed; allow it for nish-driver when your desktop asks.",
	ReasonCompositorUnsupported:       "Your Wayland compositor lacks what nish-driver needs; use an X11 session for now.",
}

// Action is the fixed sentence for a reason code ("" for an unknown code).
func Action(reason string) string { return actions[reason] }

// Reasons lists every reason code the report can carry.
func Reasons() []string {
	return []string{
		ReasonDisplayUnreachable, ReasonDisplayNotLocal, ReasonX11ExtensionMissing,
		ReasonAtspiBusUnreachable, ReasonAtspiBusNotAdvertised, ReasonXResMissing,
		ReasonCompositeMissing, ReasonXTestMissing, ReasonXInput2Missing,
		ReasonNoPlatformAPI, ReasonNotBuilt, ReasonWaylandSessionUnsupported,
		ReasonWaylandPortalNotBuilt, ReasonPortalUnavailable, ReasonPortalScreencastDenied,
		ReasonPortalRemoteDesktopDenied, ReasonPortalGlobalShortcutsDenied, ReasonCompositorUnsupported,
	}
}
