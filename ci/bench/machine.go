package main

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"time"
)

// machine names where the figures were measured.
type machine struct {
	cpus  int
	model string
	date  string
	goVer string
	// load is the 1-minute load average when the run began: other work on
	// a small machine moves every figure.
	load string
}

func describeMachine() machine {
	return machine{
		cpus:  runtime.NumCPU(),
		model: cpuModel("/proc/cpuinfo"),
		date:  time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		goVer: runtime.Version(),
		load:  loadAverage("/proc/loadavg"),
	}
}

// cpuModel is the first "model name" of a cpuinfo file ("unknown" when
// there is none).
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	return cpuModelFrom(bufio.NewScanner(f))
}

func cpuModelFrom(sc *bufio.Scanner) string {
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
	}
	return "unknown"
}

// loadAverage is the first field of a loadavg file ("unknown" when
// unreadable).
func loadAverage(path string) string {
	b, err := os.ReadFile(path)
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
