package native

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// Which toolkit an app is built on, for the engine's accessibility hints.
// An app on the accessibility bus says it (its ToolkitName); an app that is
// not on the bus says nothing, so its process's mapped files tell instead:
// each toolkit maps a library or data file of its own. The app's own words
// are only matched here, never passed on.

// engineToolkits maps atspi's toolkit families onto the engine's.
var engineToolkits = map[atspi.Family]string{
	atspi.FamilyChromium:    engine.ToolkitChromium,
	atspi.FamilyGecko:       engine.ToolkitGecko,
	atspi.FamilyQt:          engine.ToolkitQt,
	atspi.FamilyLibreOffice: engine.ToolkitLibreOffice,
	atspi.FamilyGTK:         engine.ToolkitGTK,
}

// toolkitFamily maps an app's toolkit name (atspi.FamilyOf reads it) onto
// an engine.Toolkit family, "" for a name it does not know.
func toolkitFamily(name string) string { return engineToolkits[atspi.FamilyOf(name)] }

// mappedMarks lists, in the order they are trusted, the files whose
// mapping marks a toolkit. LibreOffice, Firefox and Chromium load GTK too,
// and Chromium may load Qt for its Qt theme, so GTK and Qt come last.
var mappedMarks = []struct {
	family string
	files  []string // base-name prefixes
}{
	{engine.ToolkitLibreOffice, []string{"libmergedlo.so", "libsofficeapp.so", "libvcllo.so"}},
	{engine.ToolkitGecko, []string{"libxul.so"}},
	{engine.ToolkitChromium, []string{"icudtl.dat", "v8_context_snapshot.bin", "snapshot_blob.bin", "resources.pak", "chrome_100_percent.pak", "libcef.so", "libelectron"}},
	{engine.ToolkitQt, []string{"libQt5Core.so", "libQt6Core.so", "libQtCore.so"}},
	{engine.ToolkitGTK, []string{"libgtk-3.so", "libgtk-4.so", "libgtk-x11-2.0.so"}},
}

// mapsLimit bounds how much of /proc/PID/maps is read (a browser's is a
// few hundred kilobytes).
const mapsLimit = 4 << 20

// processToolkit names the toolkit of a running process from the files
// it has mapped ("" when unknown or unreadable).
func processToolkit(pid int) string {
	if pid <= 0 {
		return ""
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/maps")
	if err != nil {
		return ""
	}
	defer f.Close()
	return mapsToolkit(io.LimitReader(f, mapsLimit))
}

// mapsToolkit reads a maps listing and returns the most trusted family
// any of its files marks.
func mapsToolkit(r io.Reader) string {
	found := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		i := strings.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		base := filepath.Base(line[i:])
		for _, m := range mappedMarks {
			for _, p := range m.files {
				if strings.HasPrefix(base, p) {
					found[m.family] = true
				}
			}
		}
	}
	for _, m := range mappedMarks {
		if found[m.family] {
			return m.family
		}
	}
	return ""
}
