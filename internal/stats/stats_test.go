package stats

import (
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		name string
		in   []float64
		want float64
	}{
		{"none", nil, 0},
		{"one", []float64{7}, 7},
		{"odd count, unsorted", []float64{9, 1, 5}, 5},
		{"even count: the mean of the middle two", []float64{4, 1, 3, 2}, 2.5},
		{"two", []float64{10, 20}, 15},
		{"repeats", []float64{2, 2, 1, 2}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.in)
			if got := Median(c.in); got != c.want {
				t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
			}
			if !slices.Equal(c.in, in) {
				t.Errorf("Median reordered its argument: %v, was %v", c.in, in)
			}
			// The same values as durations (in ms) give the same median.
			ds := make([]time.Duration, len(c.in))
			for i, f := range c.in {
				ds[i] = time.Duration(f * float64(time.Millisecond))
			}
			if got := MedianMs(ds); got != c.want {
				t.Errorf("MedianMs(%v) = %v, want %v", ds, got, c.want)
			}
		})
	}
}

func TestMedianOfDurationsTruncatesToTheNanosecond(t *testing.T) {
	if got := Median([]time.Duration{1, 2}); got != 1 {
		t.Fatalf("Median(1ns, 2ns) = %v, want 1ns", got)
	}
}

func TestPercentile(t *testing.T) {
	// fifty is 1..50 shuffled: the k-th smallest value is k.
	fifty := make([]time.Duration, 50)
	for i := range fifty {
		fifty[i] = time.Duration((i*17)%50 + 1)
	}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(100 - i)
	}
	cases := []struct {
		name string
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{"none", nil, 0.5, 0},
		{"one value, p=0.5", []time.Duration{7}, 0.5, 7},
		{"one value, p=0.99", []time.Duration{7}, 0.99, 7},
		{"one value, p=1", []time.Duration{7}, 1, 7},
		{"odd count, p=0.5: the middle", []time.Duration{9, 1, 5}, 0.5, 5},
		{"even count, p=0.5: the lower of the middle two", []time.Duration{4, 1, 3, 2}, 0.5, 2},
		{"50 values, p=0.5: the 25th", fifty, 0.5, 25},
		{"50 values, p=0.99: the 50th", fifty, 0.99, 50},
		{"50 values, p=0.98: exactly 49 at or below the 49th", fifty, 0.98, 49},
		{"50 values, p=1: the largest", fifty, 1, 50},
		{"50 values, p=0: the smallest", fifty, 0, 1},
		{"50 values, p just above a rank", fifty, 0.5001, 26},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.in)
			if got := Percentile(c.in, c.p); got != c.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", in, c.p, got, c.want)
			}
			if !slices.Equal(c.in, in) {
				t.Errorf("Percentile reordered its argument: %v, was %v", c.in, in)
			}
		})
	}
	// Float products that round up (0.07*100 is 7.000000000000001) still
	// land on the rank the definition gives: k-th of 100 for p = k/100.
	for k := 1; k <= 100; k++ {
		p := float64(k) / 100
		if got := Percentile(hundred, p); got != float64(k) {
			t.Errorf("Percentile(1..100, %v) = %v, want %d", p, got, k)
		}
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
