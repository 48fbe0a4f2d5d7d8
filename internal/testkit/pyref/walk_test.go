package pyref

import (
	"slices"
	"strings"
	"testing"
)

func TestParseWalkTimes(t *testing.T) {
	cases := []struct {
		name    string
		out     string
		want    int
		times   []float64
		elems   int
		wantErr bool
	}{
		{"three walks", "elements 1103 ms 640.2\nelements 1103 ms 590.0\nelements 1103 ms 601.5\n", 3, []float64{640.2, 590, 601.5}, 1103, false},
		{"one walk without a final newline", "elements 14 ms 8.9", 1, []float64{8.9}, 14, false},
		{"fewer walks than asked", "elements 14 ms 8.9\n", 3, nil, 0, true},
		{"a stray line", "elements 14 ms 8.9\nno frame\n", 1, nil, 0, true},
		{"not a number", "elements many ms 8.9\n", 1, nil, 0, true},
		{"nothing", "", 1, nil, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			times, elems, err := ParseWalkTimes(c.out, c.want)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if c.wantErr {
				return
			}
			if elems != c.elems || len(times) != len(c.times) {
				t.Fatalf("got %v %d, want %v %d", times, elems, c.times, c.elems)
			}
			for i := range times {
				if times[i] != c.times[i] {
					t.Fatalf("got %v, want %v", times, c.times)
				}
			}
		})
	}
}

func TestParseWalk(t *testing.T) {
	cases := []struct {
		name    string
		out     string
		want    []Element
		wantErr string // a part of the error, "" for none
	}{
		{"a window and two children", "0\tframe\tForm\n1\tpush_button\tClick me\n1\tlabel\t\n",
			[]Element{{0, "frame", "Form"}, {1, "push_button", "Click me"}, {1, "label", ""}}, ""},
		{"without a final newline", "0\tframe\tForm", []Element{{0, "frame", "Form"}}, ""},
		{"escapes in a name", "0\tframe\ta\\tb\\nc\\\\d\\\\t", []Element{{0, "frame", "a\tb\nc\\d\\t"}}, ""},
		{"an escaped role", "0\tpage\\ttab\tx", []Element{{0, "page\ttab", "x"}}, ""},
		{"deeper and back up", "0\tframe\t\n1\tpanel\t\n2\tlabel\tx\n1\tpanel\t\n",
			[]Element{{0, "frame", ""}, {1, "panel", ""}, {2, "label", "x"}, {1, "panel", ""}}, ""},
		{"nothing", "", nil, "no elements"},
		{"two fields", "0\tframe\tForm\n1\tlabel\n", nil, "line 2: 2 tab-separated fields"},
		{"a raw tab in a name", "0\tframe\tForm\tmore\n", nil, "line 1: 4 tab-separated fields"},
		{"a depth that is no number", "x\tframe\tForm\n", nil, "line 1: the depth"},
		{"a negative depth", "-1\tframe\tForm\n", nil, "line 1: the depth"},
		{"an unknown escape", "0\tframe\tF\\orm\n", nil, "line 1: the name: an escape"},
		{"a final backslash", "0\tframe\tForm\\\n", nil, "line 1: the name: a backslash ends it"},
		{"a blank line", "0\tframe\tForm\n\n1\tlabel\tx\n", nil, "line 2: 1 tab-separated fields"},
		{"not starting at the window", "1\tframe\tForm\n", nil, "line 1: depth 1"},
		{"two levels down at once", "0\tframe\t\n2\tlabel\t\n", nil, "line 2: depth 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseWalk(c.out)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, c.wantErr)
				}
				if strings.Contains(err.Error(), "Form") {
					t.Fatalf("the error %q shows an element's name", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
