package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// A headless sway (WLR_LIBINPUT_NO_DEVICES=1) has a seat with no devices,
// and a GTK window becomes active only once the compositor gives it the
// keyboard's focus: sway focuses the newest window, but with no keyboard
// no toolkit hears of it. So the sway lane gives the seat a keyboard, as
// the mutter lane does with mutter's remote-desktop API: a virtual
// keyboard (zwp_virtual_keyboard_v1, which wlroots offers every client),
// made by a tiny Wayland client kept connected for the desktop's life.
// The client speaks the Wayland wire protocol itself: the few requests it
// sends do not justify libwayland through cgo or a dependency.

// virtualKeyboard is the connection that holds the seat's keyboard.
type virtualKeyboard struct {
	conn *net.UnixConn
}

// Object ids the client allocates, in the order it creates them
// (wl_display is always 1).
const (
	wlDisplay  = 1
	wlRegistry = 2
	wlSync     = 3
	wlSeat     = 4
	vkManager  = 5
	vkKeyboard = 6
)

// usKeymap is the keymap the virtual keyboard announces: a US PC keyboard
// as xkbcommon resolves it from the system's xkb data.
const usKeymap = `xkb_keymap {
	xkb_keycodes { include "evdev+aliases(qwerty)" };
	xkb_types { include "complete" };
	xkb_compat { include "complete" };
	xkb_symbols { include "pc+us+inet(evdev)" };
};
`

// openVirtualKeyboard connects to the compositor at socket, adds a
// virtual keyboard to its seat and taps Shift, so the focused window
// hears of the keyboard at once. keymapDir holds the keymap's file for
// the moment it is sent.
func openVirtualKeyboard(socket, keymapDir string, timeout time.Duration) (*virtualKeyboard, error) {
	c, err := net.DialTimeout("unix", socket, timeout)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the compositor's socket: %w", err)
	}
	conn := c.(*net.UnixConn)
	_ = conn.SetDeadline(time.Now().Add(timeout))
	k := &virtualKeyboard{conn: conn}
	if err := k.setUp(keymapDir); err != nil {
		conn.Close()
		return nil, fmt.Errorf("sandbox: the seat's virtual keyboard: %w", err)
	}
	_ = conn.SetDeadline(time.Time{})
	// Events keep coming (the seat's capabilities change); read and drop
	// them, so the compositor never finds the client's buffer full.
	go func() { _, _ = io.Copy(io.Discard, conn) }()
	return k, nil
}

func (k *virtualKeyboard) setUp(keymapDir string) error {
	if err := k.send(wlDisplay, 1, nil, u32(wlRegistry)); err != nil { // get_registry
		return err
	}
	if err := k.send(wlDisplay, 0, nil, u32(wlSync)); err != nil { // sync
		return err
	}
	globals, err := k.globals()
	if err != nil {
		return err
	}
	for _, g := range []struct {
		iface string
		id    uint32
	}{{"wl_seat", wlSeat}, {"zwp_virtual_keyboard_manager_v1", vkManager}} {
		name, ok := globals[g.iface]
		if !ok {
			return fmt.Errorf("the compositor offers no %s", g.iface)
		}
		// wl_registry.bind(name, interface, version 1, id)
		if err := k.send(wlRegistry, 0, nil, u32(name), str(g.iface), u32(1), u32(g.id)); err != nil {
			return err
		}
	}
	if err := k.send(vkManager, 0, nil, u32(wlSeat), u32(vkKeyboard)); err != nil { // create_virtual_keyboard
		return err
	}
	f, err := os.CreateTemp(keymapDir, "keymap-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.WriteString(usKeymap + "\x00"); err != nil {
		return err
	}
	// keymap(format xkb_v1, fd, size)
	if err := k.send(vkKeyboard, 0, unix.UnixRights(int(f.Fd())), u32(1), u32(uint32(len(usKeymap)+1))); err != nil {
		return err
	}
	const keyShiftL = 42 // evdev's KEY_LEFTSHIFT
	for _, state := range []uint32{1, 0} {
		if err := k.send(vkKeyboard, 1, nil, u32(0), u32(keyShiftL), u32(state)); err != nil { // key
			return err
		}
	}
	return nil
}

// globals reads the registry's announcements up to the sync's answer and
// returns each interface's global name.
func (k *virtualKeyboard) globals() (map[string]uint32, error) {
	out := map[string]uint32{}
	head := make([]byte, 8)
	for {
		if _, err := io.ReadFull(k.conn, head); err != nil {
			return nil, err
		}
		obj, size, op := binary.LittleEndian.Uint32(head), binary.LittleEndian.Uint16(head[6:]), binary.LittleEndian.Uint16(head[4:])
		if size < 8 {
			return nil, errors.New("a malformed message from the compositor")
		}
		body := make([]byte, size-8)
		if _, err := io.ReadFull(k.conn, body); err != nil {
			return nil, err
		}
		switch {
		case obj == wlSync && op == 0: // wl_callback.done
			return out, nil
		case obj == wlDisplay && op == 0: // wl_display.error
			return nil, errors.New("the compositor refused a request")
		case obj == wlRegistry && op == 0 && len(body) >= 8: // wl_registry.global(name, interface, version)
			n := binary.LittleEndian.Uint32(body)
			l := binary.LittleEndian.Uint32(body[4:])
			if l > 0 && int(8+l) <= len(body) {
				out[string(body[8:8+l-1])] = n
			}
		}
	}
}

// send writes one request: object, opcode, arguments (already encoded)
// and any file descriptors alongside.
func (k *virtualKeyboard) send(obj uint32, op uint16, fds []byte, args ...[]byte) error {
	msg := binary.LittleEndian.AppendUint32(nil, obj)
	size := 8
	for _, a := range args {
		size += len(a)
	}
	msg = binary.LittleEndian.AppendUint32(msg, uint32(size)<<16|uint32(op))
	for _, a := range args {
		msg = append(msg, a...)
	}
	_, _, err := k.conn.WriteMsgUnix(msg, fds, nil)
	return err
}

// u32 encodes a uint, int, object or new_id argument.
func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// str encodes a string argument: its length with the NUL, the bytes, the
// NUL, padded to four bytes.
func str(s string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(s)+1))
	b = append(b, s...)
	b = append(b, 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// Close removes the keyboard from the seat, with its connection.
func (k *virtualKeyboard) Close() error { return k.conn.Close() }

// keymapFolder is where the keymap's file is written: the desktop's own
// temporary folder.
func (d *Desktop) keymapFolder() string { return filepath.Join(d.Root, "tmp") }
