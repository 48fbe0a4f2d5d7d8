package native

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// TestToolkitFamily: each family atspi reads from a ToolkitName is one of
// the engine's (atspi's TestFamilyOf holds the names).
func TestToolkitFamily(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Chromium", engine.ToolkitChromium},
		{"Gecko", engine.ToolkitGecko},
		{"Qt", engine.ToolkitQt},
		{"VCL", engine.ToolkitLibreOffice},
		{"GTK", engine.ToolkitGTK},
		{"Something else", ""},
	}
	for _, tt := range tests {
		if got := toolkitFamily(tt.name); got != tt.want {
			t.Errorf("toolkitFamily(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The most telling mapped file wins: LibreOffice, Firefox and Chromium
// map GTK too, and Chromium may map Qt for its Qt theme.
func TestMapsToolkit(t *testing.T) {
	const (
		gtk      = "7f1c2a000000-7f1c2a100000 r-xp 00000000 08:01 123 /usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32\n"
		qt       = "7f1c2b000000-7f1c2b100000 r-xp 00000000 08:01 124 /usr/lib/x86_64-linux-gnu/libQt5Core.so.5.15.8\n"
		xul      = "7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 125 /usr/lib/firefox-esr/libxul.so\n"
		icu      = "7f1c2d000000-7f1c2d100000 r--p 00000000 08:01 126 /usr/lib/chromium/icudtl.dat\n"
		lo       = "7f1c2e000000-7f1c2e100000 r-xp 00000000 08:01 127 /usr/lib/libreoffice/program/libmergedlo.so\n"
		anon     = "7ffd1c000000-7ffd1c021000 rw-p 00000000 00:00 0 [stack]\n"
		spaceDir = "7f1c2f000000-7f1c2f100000 r--p 00000000 08:01 128 /opt/My App/resources.pak\n"
	)
	tests := []struct{ name, maps, want string }{
		{"gtk", anon + gtk, engine.ToolkitGTK},
		{"qt", gtk + qt, engine.ToolkitQt},
		{"firefox", gtk + xul, engine.ToolkitGecko},
		{"chromium with the qt shim", gtk + qt + icu, engine.ToolkitChromium},
		{"electron in a folder with a space", spaceDir + gtk, engine.ToolkitChromium},
		{"libreoffice", qt + gtk + lo, engine.ToolkitLibreOffice},
		{"nothing known", anon, ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := mapsToolkit(strings.NewReader(tt.maps)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
