package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// medianDuration is the median of ds (the mean of the middle two for an
// even count; 0 for none).
func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianFloat is the median of fs (0 for none).
func medianFloat(fs []float64) float64 {
	if len(fs) == 0 {
		return 0
	}
	s := append([]float64(nil), fs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// joinMs lists durations in milliseconds, for the progress log.
func joinMs(ds []time.Duration) string {
	f := make([]float64, len(ds))
	for i, d := range ds {
		f[i] = ms(d)
	}
	return joinFloats(f)
}

// joinFloats lists numbers to one decimal, separated by spaces.
func joinFloats(fs []float64) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = fmt.Sprintf("%.1f", f)
	}
	return strings.Join(s, " ")
}
