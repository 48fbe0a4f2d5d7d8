package xlib

import (
	"reflect"
	"testing"
)

func TestRawQueueCoalescesOnlyAdjacentMotions(t *testing.T) {
	m := func(x int) RawEvent { return RawEvent{Kind: RawMotion, X: x} }
	key := RawEvent{Kind: RawKeyPress, Keysym: "a"}
	btn := RawEvent{Kind: RawButtonPress, Button: 1}
	cases := []struct {
		name string
		in   []RawEvent
		want []RawEvent
	}{
		{"motions in a row keep the last", []RawEvent{m(1), m(2), m(3)}, []RawEvent{m(3)}},
		{"a press splits motions", []RawEvent{m(1), key, m(2), m(3)}, []RawEvent{m(1), key, m(3)}},
		{"presses are never merged", []RawEvent{key, key, btn, btn}, []RawEvent{key, key, btn, btn}},
		{"nothing queued", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := newRawQueue()
			for _, ev := range c.in {
				q.push(ev)
			}
			if got := q.take(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("queued %+v, want %+v", got, c.want)
			}
			if got := q.take(); got != nil {
				t.Errorf("a second take returned %+v", got)
			}
		})
	}
}

func TestXInputVersionCheckWantsTwoPointOne(t *testing.T) {
	cases := []struct {
		major, minor int
		want         bool
	}{
		{2, 0, false},
		{1, 5, false},
		{2, 1, true},
		{2, 2, true},
		{3, 0, true},
	}
	for _, c := range cases {
		if got := xinputEnough(c.major, c.minor); got != c.want {
			t.Errorf("xinputEnough(%d, %d) = %v, want %v", c.major, c.minor, got, c.want)
		}
	}
}
