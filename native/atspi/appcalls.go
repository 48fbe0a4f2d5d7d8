package atspi

import "errors"

// The calls this package may send, and why there is a list at all.
//
// A reply to org.freedesktop.DBus.Properties.GetAll is built by the app's
// accessibility bridge from every property getter of an interface. When one
// getter returns nothing (Chromium's and Firefox's bridges do this for some
// Value properties), the bridge closes a dict entry whose variant was never
// written, and libdbus aborts the whole process: one GetAll kills the
// person's browser with its tabs and half-typed forms. A single
// Properties.Get of a property whose getter fails is answered with an error
// instead. So the driver never asks an app for GetAll, and more generally
// sends an app only calls that libatspi itself sends (the calls screen
// readers have made for years), each named below.
//
// batch.add and wireConn.send are the only places calls are encoded; both
// check every call against these lists first and refuse anything else
// without sending it (errCallRefused). appcalls_test.go also checks the
// package's sources statically, and that docs/native.md lists the same
// calls.

// busMember is one method of the bus daemon (org.freedesktop.DBus) the
// package calls: its own name, and the routing of the apps' events.
var busMembers = map[string]bool{
	"Hello":                      true,
	"AddMatch":                   true,
	"RemoveMatch":                true,
	"GetConnectionUnixProcessID": true,
}

// appCall is one call an app (or the AT-SPI registry) may receive: an
// interface and method, and for the Properties interface, the interface and
// name of the one property read or written.
type appCall struct {
	iface, member string
	// propIface and prop name the property of a Properties.Get or Set.
	propIface, prop string
}

const (
	propertiesIface = "org.freedesktop.DBus.Properties"
	busDaemon       = "org.freedesktop.DBus"
)

// appCalls is the written list of calls to apps. Add a row only for a call
// libatspi makes the same way (never Properties.GetAll), and list it in
// docs/native.md ("Calls the driver sends to apps").
var appCalls = []appCall{
	// The whole tree in one reply (what the read starts with).
	{iface: "org.a11y.atspi.Cache", member: "GetItems"},
	// Structure and identity, per element.
	{iface: "org.a11y.atspi.Accessible", member: "GetChildren"},
	// One child, by index: finding a place id's element again (places.go).
	{iface: "org.a11y.atspi.Accessible", member: "GetChildAtIndex"},
	{iface: "org.a11y.atspi.Accessible", member: "GetRole"},
	{iface: "org.a11y.atspi.Accessible", member: "GetState"},
	{iface: "org.a11y.atspi.Accessible", member: "GetInterfaces"},
	{iface: "org.a11y.atspi.Accessible", member: "GetAttributes"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Accessible", prop: "Name"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Accessible", prop: "Description"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Accessible", prop: "ChildCount"},
	// The app itself: its toolkit and its private socket.
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Application", prop: "ToolkitName"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Application", prop: "Version"},
	{iface: "org.a11y.atspi.Application", member: "GetApplicationBusAddress"},
	// Where an element is on screen, and bringing it there.
	{iface: "org.a11y.atspi.Component", member: "GetExtents"},
	{iface: "org.a11y.atspi.Component", member: "ScrollTo"},
	// What lies under a point, before synthetic input aimed at an element.
	{iface: "org.a11y.atspi.Component", member: "GetAccessibleAtPoint"},
	// Focusing a page field before keys are sent to its window (the
	// window_keys path; only for apps keysToWindow names).
	{iface: "org.a11y.atspi.Component", member: "GrabFocus"},
	// Tables that manage their descendants (a sheet): their size, and the
	// cells of the visible block, never their children (tables.go).
	{iface: "org.a11y.atspi.Table", member: "GetAccessibleAt"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Table", prop: "NRows"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Table", prop: "NColumns"},
	// Actions.
	{iface: "org.a11y.atspi.Action", member: "GetActions"},
	{iface: "org.a11y.atspi.Action", member: "GetName"},
	{iface: "org.a11y.atspi.Action", member: "DoAction"},
	// Text: reading, and writing into editable text.
	{iface: "org.a11y.atspi.Text", member: "GetText"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Text", prop: "CaretOffset"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Text", prop: "CharacterCount"},
	{iface: "org.a11y.atspi.EditableText", member: "InsertText"},
	{iface: "org.a11y.atspi.EditableText", member: "SetTextContents"},
	// Numeric values: each property read on its own, never GetAll.
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Value", prop: "CurrentValue"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Value", prop: "MinimumValue"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Value", prop: "MaximumValue"},
	{iface: propertiesIface, member: "Get", propIface: "org.a11y.atspi.Value", prop: "MinimumIncrement"},
	{iface: propertiesIface, member: "Set", propIface: "org.a11y.atspi.Value", prop: "CurrentValue"},
	// The registry: which event kinds the driver listens to.
	{iface: "org.a11y.atspi.Registry", member: "RegisterEvent"},
	{iface: "org.a11y.atspi.Registry", member: "DeregisterEvent"},
	{iface: "org.a11y.atspi.Registry", member: "GetRegisteredEvents"},
}

// allowedAppCalls indexes appCalls.
var allowedAppCalls = func() map[appCall]bool {
	m := make(map[appCall]bool, len(appCalls))
	for _, c := range appCalls {
		m[c] = true
	}
	return m
}()

// errCallRefused is the failure of a call that is not on the lists above:
// it was never sent. It is a bug in the driver, never the app's doing.
var errCallRefused = errors.New("atspi: call not on the list of calls the driver sends to apps; not sent")

// callAllowed reports whether the package may send this call. dest is the
// destination as the caller named it (before a private connection drops
// it): the bus daemon, the registry, or an app's bus name.
func callAllowed(dest, iface, member string, args []any) bool {
	if dest == busDaemon || iface == busDaemon {
		return dest == busDaemon && iface == busDaemon && busMembers[member]
	}
	c := appCall{iface: iface, member: member}
	if iface == propertiesIface {
		if len(args) < 2 {
			return false
		}
		pi, ok1 := args[0].(string)
		p, ok2 := args[1].(string)
		if !ok1 || !ok2 {
			return false
		}
		c.propIface, c.prop = pi, p
	}
	return allowedAppCalls[c]
}
