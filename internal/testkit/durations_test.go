package testkit

import (
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		name string
		ds   []time.Duration
		want time.Duration
	}{
		{"none", nil, 0},
		{"one", []time.Duration{7}, 7},
		{"odd count, unsorted", []time.Duration{9, 1, 5}, 5},
		{"even count: the upper of the middle two", []time.Duration{4, 1, 3, 2}, 3},
		{"repeats", []time.Duration{2, 2, 1, 2}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.ds)
			if got := Median(c.ds); got != c.want {
				t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
			}
			if got, want := MedianMs(c.ds), float64(c.want)/1e6; got != want {
				t.Errorf("MedianMs(%v) = %v, want %v", in, got, want)
			}
			if !slices.Equal(c.ds, in) {
				t.Errorf("Median reordered its argument: %v, was %v", c.ds, in)
			}
		})
	}
}

func TestMs(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want float64
	}{
		{0, 0},
		{time.Millisecond, 1},
		{1500 * time.Microsecond, 1.5},
		{2 * time.Second, 2000},
	}
	for _, c := range cases {
		if got := Ms(c.d); got != c.want {
			t.Errorf("Ms(%v) = %v, want %v", c.d, got, c.want)
		}
	}
}
