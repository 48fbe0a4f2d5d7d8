package native_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/native"
)

// The doctor compares the X root window's AT_SPI_BUS, where Qt 5 apps look
// for the accessibility bus, with the address org.a11y.Bus announces. On a
// desktop of its own (the property is changed, so no other test's desktop
// is touched): as the launcher set it, then naming another bus, then gone.
func TestDoctorChecksTheQtBusProperty(t *testing.T) {
	onDesktop(t)
	d, err := sandbox.Start(context.Background(), sandbox.Options{Screen: "640x480x24"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	vars := d.Vars()
	b, err := native.Open(native.Options{Display: d.Display, Getenv: func(k string) string { return vars[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const label = "accessibility bus for Qt apps (X root window AT_SPI_BUS): "
	steps := []struct {
		name  string
		xprop []string // how the property is changed first; nil: left as set
		want  string
	}{
		{"as the launcher set it", nil, "[ok] " + label + "the X root window's AT_SPI_BUS names the accessibility bus"},
		{"naming another bus", []string{"-root", "-f", "AT_SPI_BUS", "8s", "-set", "AT_SPI_BUS", "unix:path=/nowhere/at-spi-bus"},
			"[fail] " + label + "the X root window's AT_SPI_BUS names another bus than org.a11y.Bus announces."},
		{"removed", []string{"-root", "-remove", "AT_SPI_BUS"}, "[fail] " + label + "the X root window has no AT_SPI_BUS property."},
	}
	for _, s := range steps {
		if s.xprop != nil {
			if out, err := d.Command("xprop", s.xprop...).CombinedOutput(); err != nil {
				t.Fatalf("%s: xprop %v: %v: %s", s.name, s.xprop, err, out)
			}
		}
		text := doctor.Text(doctor.Build(b.Registry(context.Background())))
		if !strings.Contains(text, s.want) {
			t.Fatalf("%s: the doctor's report lacks %q:\n%s", s.name, s.want, text)
		}
		if strings.Contains(text, "/nowhere") {
			t.Fatalf("%s: the report repeats the property's text:\n%s", s.name, text)
		}
	}
}
