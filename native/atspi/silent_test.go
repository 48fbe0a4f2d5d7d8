package atspi

import (
	"maps"
	"slices"
	"testing"
)

// TestSilentApps walks the marks of silent apps through a listing's
// steps: a probe starts only when none is in flight, an answer clears the
// mark, a probe that failed lets the next listing start another, and an
// app that left the bus is forgotten.
func TestSilentApps(t *testing.T) {
	type step struct {
		do        string // mark, fail, answer, list
		bus       string
		listed    []string // for list: the apps on the bus
		wantProbe bool     // for mark
		wantNow   []string // for list: the silent apps
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"one probe at a time", []step{
			{do: "mark", bus: ":1.5", wantProbe: true},
			{do: "mark", bus: ":1.5", wantProbe: false},
			{do: "list", listed: []string{":1.5", ":1.6"}, wantNow: []string{":1.5"}},
		}},
		{"a failed probe lets the next listing probe again", []step{
			{do: "mark", bus: ":1.5", wantProbe: true},
			{do: "fail", bus: ":1.5"},
			{do: "list", listed: []string{":1.5"}, wantNow: []string{":1.5"}},
			{do: "mark", bus: ":1.5", wantProbe: true},
		}},
		{"an answer clears the mark", []step{
			{do: "mark", bus: ":1.5", wantProbe: true},
			{do: "answer", bus: ":1.5"},
			{do: "list", listed: []string{":1.5"}, wantNow: nil},
			{do: "mark", bus: ":1.5", wantProbe: true},
		}},
		{"an app that left is forgotten", []step{
			{do: "mark", bus: ":1.5", wantProbe: true},
			{do: "mark", bus: ":1.7", wantProbe: true},
			{do: "list", listed: []string{":1.7"}, wantNow: []string{":1.7"}},
			{do: "fail", bus: ":1.5"}, // a late probe of the gone app marks nothing
			{do: "list", listed: []string{":1.5", ":1.7"}, wantNow: []string{":1.7"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s silentApps
			for i, st := range tt.steps {
				switch st.do {
				case "mark":
					if got := s.mark(st.bus); got != st.wantProbe {
						t.Fatalf("step %d: mark(%s) = %v, want %v", i, st.bus, got, st.wantProbe)
					}
				case "fail":
					s.probed(st.bus, false)
				case "answer":
					s.answered(st.bus)
				case "list":
					var apps []App
					for _, b := range st.listed {
						apps = append(apps, App{Bus: b})
					}
					got := slices.Sorted(maps.Keys(s.silentNow(apps)))
					if !slices.Equal(got, st.wantNow) {
						t.Fatalf("step %d: silent %v, want %v", i, got, st.wantNow)
					}
				}
			}
		})
	}
}
