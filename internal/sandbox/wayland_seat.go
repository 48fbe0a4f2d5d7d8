package sandbox

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// A headless mutter starts with a seat that has no keyboard and no
// pointer, and a Wayland toolkit marks its window active only once the
// compositor gives it the keyboard's focus: on such a desktop no window is
// ever active, unlike any desktop a person sits at. So the Wayland lane
// gives the seat the person's devices: a session of mutter's remote-desktop
// API (org.gnome.Mutter.RemoteDesktop, which adds a virtual keyboard and
// pointer to the seat), kept open for the desktop's life. One key tap
// (Shift) makes the keyboard appear; from then on the newest window has
// the focus, as on a person's desktop. The session belongs to the bus
// connection that made it; closing the connection ends it.

const (
	remoteDesktopName  = "org.gnome.Mutter.RemoteDesktop"
	remoteDesktopPath  = "/org/gnome/Mutter/RemoteDesktop"
	remoteDesktopIface = "org.gnome.Mutter.RemoteDesktop"
	rdSessionIface     = "org.gnome.Mutter.RemoteDesktop.Session"
	keysymShiftL       = 0xffe1
)

// startSeat gives the compositor's seat the person's keyboard: mutter's
// remote-desktop session, or sway's virtual keyboard (sway_keyboard.go).
func (d *Desktop) startSeat(ctx context.Context) error {
	var seat io.Closer
	var err error
	if d.opts.Compositor == Sway {
		seat, err = openVirtualKeyboard(filepath.Join(d.vars["XDG_RUNTIME_DIR"], d.Wayland), d.keymapFolder(), d.opts.StartTimeout)
	} else {
		seat, err = d.mutterSeat(ctx)
	}
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.seat = seat
	d.mu.Unlock()
	return nil
}

// mutterSeat opens the remote-desktop session that stands for the
// person's keyboard and pointer.
func (d *Desktop) mutterSeat(ctx context.Context) (*dbus.Conn, error) {
	conn, err := dbus.Connect(d.vars["DBUS_SESSION_BUS_ADDRESS"], dbus.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("sandbox: the session bus: %w", err)
	}
	var path dbus.ObjectPath
	rd := conn.Object(remoteDesktopName, remoteDesktopPath)
	if err := rd.CallWithContext(ctx, remoteDesktopIface+".CreateSession", 0).Store(&path); err != nil {
		conn.Close()
		return nil, fmt.Errorf("sandbox: mutter's remote-desktop session (the seat's keyboard): %w", err)
	}
	s := conn.Object(remoteDesktopName, path)
	calls := []struct {
		method string
		args   []any
	}{
		{"Start", nil},
		{"NotifyKeyboardKeysym", []any{uint32(keysymShiftL), true}},
		{"NotifyKeyboardKeysym", []any{uint32(keysymShiftL), false}},
	}
	for _, c := range calls {
		if err := s.CallWithContext(ctx, rdSessionIface+"."+c.method, 0, c.args...).Err; err != nil {
			conn.Close()
			return nil, fmt.Errorf("sandbox: the seat's keyboard: %s: %w", c.method, err)
		}
	}
	return conn, nil
}

// closeSeat ends the seat's keyboard (with its connection).
func (d *Desktop) closeSeat() {
	d.mu.Lock()
	conn := d.seat
	d.seat = nil
	d.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}
