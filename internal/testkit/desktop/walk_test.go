package desktop

import "testing"

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
