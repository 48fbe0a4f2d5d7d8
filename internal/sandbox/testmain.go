package sandbox

import (
	"context"
	"fmt"
	"os"
)

// RunTests is the whole run of a test binary whose tests share one private
// desktop (a package's TestMain): it starts the desktop, hands it to run
// (which opens what the package's tests use on it and returns m.Run()'s
// code), closes it, and returns run's code for os.Exit. When the desktop
// cannot start, it says on stderr that pkg's tests need it, and why, and
// returns 1.
func RunTests(pkg string, run func(*Desktop) int) int {
	d, err := Start(context.Background(), Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s tests need the sandbox desktop (Xvfb, dbus, at-spi2-core; make test installs it): %v\n", pkg, err)
		return 1
	}
	defer d.Close()
	return run(d)
}
