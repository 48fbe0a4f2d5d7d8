package native

import (
	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"

	"net"
	"path/filepath"
	"reflect"
	"testing"
)

func TestFactsDisplaySockets(t *testing.T) {
	tests := []struct {
		display string
		sockets []string
		local   bool
	}{
		{":0", []string{"/tmp/.X11-unix/X0", "@/tmp/.X11-unix/X0"}, true},
		{":12.0", []string{"/tmp/.X11-unix/X12", "@/tmp/.X11-unix/X12"}, true},
		{"unix:3", []string{"/tmp/.X11-unix/X3", "@/tmp/.X11-unix/X3"}, true},
		{"localhost:10.0", nil, false},
		{"example.org:0", nil, false},
		{"/private/tmp/launch/org.xquartz:0", []string{"/private/tmp/launch/org.xquartz"}, true},
		{"garbage", nil, false},
		{":x", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.display, func(t *testing.T) {
			s, local := displaySockets(tt.display)
			if !reflect.DeepEqual(s, tt.sockets) || local != tt.local {
				t.Errorf("displaySockets(%q) = %v %v, want %v %v", tt.display, s, local, tt.sockets, tt.local)
			}
		})
	}
}

func TestFactsProbeSockets(t *testing.T) {
	dir := t.TempDir()
	listen := func(name string) string {
		p := filepath.Join(dir, name)
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		testkit.SilentServer(t, l)
		return p
	}
	bus := listen("bus")
	disp := listen("x")
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	tests := []struct {
		name    string
		display string
		env     map[string]string
		want    desktopFacts
	}{
		{"nothing set", "", map[string]string{}, desktopFacts{}},
		{"bus by address, display by path", "", map[string]string{
			"DISPLAY": disp + ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + bus + ",guid=abc",
		}, desktopFacts{Display: disp + ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}},
		{"bus by runtime dir, --display wins", disp + ":0", map[string]string{
			"DISPLAY": ":99", "XDG_RUNTIME_DIR": dir,
		}, desktopFacts{Display: disp + ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}},
		{"dead sockets", "", map[string]string{
			"DISPLAY": filepath.Join(dir, "none") + ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + filepath.Join(dir, "nobus"),
		}, desktopFacts{Display: filepath.Join(dir, "none") + ":0", DisplayLocal: true}},
		{"wayland", "", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, desktopFacts{Wayland: true, Compositor: engine.CompositorOther}},
		{"GNOME on Wayland", "", map[string]string{"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"},
			desktopFacts{Wayland: true, Compositor: engine.CompositorMutter}},
		{"KDE on Wayland", "", map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"},
			desktopFacts{Wayland: true, Compositor: engine.CompositorKWin}},
		{"sway", "", map[string]string{"WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/user/1000/sway-ipc.sock"},
			desktopFacts{Wayland: true, Compositor: engine.CompositorWlroots}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gatherFacts(tt.display, env(tt.env)); got != tt.want {
				t.Errorf("gatherFacts = %+v, want %+v", got, tt.want)
			}
		})
	}
}
