package pyref

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Walk runs walk.py (script, its path) once within ctx on the window of
// pid whose title starts with title (an empty title takes the app's first
// window), in env (Run), and returns its elements. No such window is
// ErrNoWindow.
func Walk(ctx context.Context, env []string, script string, pid int, title string) ([]Element, error) {
	out, err := Run(ctx, env, script, strconv.Itoa(pid), title)
	if err != nil {
		return nil, err
	}
	return ParseWalk(string(out))
}

// TimedWalks is Walk timed: walk.py walks the window n times in one
// interpreter, and TimedWalks returns each walk's milliseconds and the
// elements the last walk visited.
func TimedWalks(ctx context.Context, env []string, script string, pid int, title string, n int) (ms []float64, elements int, err error) {
	out, err := Run(ctx, env, script, strconv.Itoa(pid), title, strconv.Itoa(n))
	if err != nil {
		return nil, 0, err
	}
	return ParseWalkTimes(string(out), n)
}

// Element is one element of a reference walk of a window, in pre-order:
// its depth under the window (the window is 0), its role's name and its
// name. walk.py gives the role's name with underscores ("push_button");
// libatspi's walk (package naivewalk, whose Element this is) with spaces.
type Element struct {
	Depth int
	Role  string
	Name  string
}

// ParseWalk reads what walk.py prints when asked for one walk: a line
// "depth \t role \t name" an element, with backslashes, tabs and newlines
// in the role and the name escaped as \\, \t and \n. A line of another
// shape, an unknown escape, or depths that are not a pre-order walk from
// the window (the first 0, each next at most one deeper) is an error that
// names the line by its number, never by its text (an element's name is
// the app's).
func ParseWalk(out string) ([]Element, error) {
	if out == "" {
		return nil, errors.New("walk.py printed no elements")
	}
	var elems []Element
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		e, err := parseElement(line)
		if err != nil {
			return nil, fmt.Errorf("walk.py's line %d: %v", i+1, err)
		}
		if len(elems) == 0 && e.Depth != 0 || len(elems) > 0 && e.Depth > elems[len(elems)-1].Depth+1 {
			return nil, fmt.Errorf("walk.py's line %d: depth %d is not a pre-order walk's", i+1, e.Depth)
		}
		elems = append(elems, e)
	}
	return elems, nil
}

// parseElement reads one of walk.py's element lines.
func parseElement(line string) (Element, error) {
	f := strings.Split(line, "\t")
	if len(f) != 3 {
		return Element{}, fmt.Errorf("%d tab-separated fields, want depth, role and name", len(f))
	}
	depth, err := strconv.Atoi(f[0])
	if err != nil || depth < 0 {
		return Element{}, errors.New("the depth is not a number of levels")
	}
	role, err := unescape(f[1])
	if err != nil {
		return Element{}, fmt.Errorf("the role: %v", err)
	}
	name, err := unescape(f[2])
	if err != nil {
		return Element{}, fmt.Errorf("the name: %v", err)
	}
	return Element{Depth: depth, Role: role, Name: name}, nil
}

// unescape undoes walk.py's esc: \\, \t and \n; any other backslash is an
// error.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			return "", errors.New("a backslash ends it")
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		default:
			return "", errors.New("an escape walk.py does not write")
		}
	}
	return b.String(), nil
}

// ParseWalkTimes reads what walk.py prints when asked to repeat its walk:
// one line "elements N ms M" a walk. It returns each walk's milliseconds
// and the elements the last walk visited; want is how many walks were
// asked for, and any other line, or another count of them, is an error.
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
