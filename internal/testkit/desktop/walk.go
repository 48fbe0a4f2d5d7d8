package desktop

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseWalkTimes reads what walk.py (the pyatspi reference walk among the
// fixtures, testkit.FixtureDir) prints when asked to repeat its walk: one
// line "elements N ms M" a walk. It returns each walk's milliseconds and
// the elements the last walk visited; want is how many walks were asked
// for, and any other line, or another count of them, is an error. The
// bench (ci/bench) and the native tests and benchmarks all read the walk
// through it.
func ParseWalkTimes(out string, want int) (ms []float64, elements int, err error) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 || f[0] != "elements" || f[2] != "ms" {
			return nil, 0, errors.New("walk.py printed an unexpected line")
		}
		n, err1 := strconv.Atoi(f[1])
		m, err2 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || n < 0 || m < 0 {
			return nil, 0, errors.New("walk.py printed an unexpected line")
		}
		elements = n
		ms = append(ms, m)
	}
	if len(ms) != want {
		return nil, 0, fmt.Errorf("walk.py printed %d walks, want %d", len(ms), want)
	}
	return ms, elements, nil
}
