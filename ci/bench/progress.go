package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/internal/stats"
)

// The progress log's lists of raw figures (stderr), beside the table's
// medians: each trial's time, so a reader sees the spread.

// joinMs lists durations in milliseconds, for the progress log.
func joinMs(ds []time.Duration) string {
	f := make([]float64, len(ds))
	for i, d := range ds {
		f[i] = stats.Ms(d)
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
