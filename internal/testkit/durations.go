package testkit

import (
	"slices"
	"time"
)

// The benchmarks' figures of timed trials: each benchmark reports the
// median of its trials in milliseconds (docs/performance.md), and every
// one of them takes the median the same way.

// Median is the middle of ds once sorted, the upper of the middle two for
// an even count (0 for none). ds is left in its order.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// MedianMs is Median in milliseconds, the figure a benchmark reports.
func MedianMs(ds []time.Duration) float64 { return Ms(Median(ds)) }

// Ms is d in milliseconds, the unit the benchmarks report times in.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
