// Package stats holds the one definition of each figure the benchmarks
// report from timed trials: the median, a percentile and a time in
// milliseconds (docs/performance.md says how figures are taken). The
// native layers' benchmarks and the bench program (ci/bench) all take
// them from here, so a figure means the same wherever it is printed.
//
// It stands on the standard library alone and does not import "testing",
// so the bench program links it as readily as any test.
package stats

import (
	"slices"
	"time"
)

// Number is what a figure is taken of: durations, or values already in a
// unit (a pyatspi walk's milliseconds).
type Number interface{ ~int64 | ~float64 }

// Median is the middle value of xs once sorted, or the mean of the middle
// two for an even count (the textbook median; 0 for none). A duration's
// mean is truncated to the nanosecond. xs is left in its order.
func Median[T Number](xs []T) T {
	s := sorted(xs)
	n := len(s)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Percentile is the nearest-rank percentile of xs for p in [0, 1]: the
// smallest value with at least p of the values at or below it (p = 0.99
// of 50 values is the 50th; p = 0.5 of 50 the 25th; p = 1 the largest;
// p = 0 the smallest). 0 for none. xs is left in its order.
func Percentile[T Number](xs []T, p float64) T {
	s := sorted(xs)
	n := len(s)
	if n == 0 {
		return 0
	}
	return s[rank(n, p)-1]
}

// rank is the nearest rank, from 1, of p among n values: the smallest k
// with k/n >= p, held to 1..n. It is counted from the products' quotients
// rather than ceil(p*n) alone, which rounding can push one rank too high
// (0.07*100 is 7.000000000000001 in float64).
func rank(n int, p float64) int {
	k := min(max(int(p*float64(n)), 1), n)
	for k > 1 && float64(k-1)/float64(n) >= p {
		k--
	}
	for k < n && float64(k)/float64(n) < p {
		k++
	}
	return k
}

// sorted is a sorted copy of xs.
func sorted[T Number](xs []T) []T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// Ms is d in milliseconds, the unit the benchmarks report times in.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// MedianMs is the median of ds in milliseconds, the figure most
// benchmarks report.
func MedianMs(ds []time.Duration) float64 { return Ms(Median(ds)) }
