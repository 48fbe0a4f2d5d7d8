package xlib

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

var errNoLayout = errors.New("xlib: the window has no consent layout")

// ConsentArmedAt reads from when a consent dialog counts clicks
// (ConsentArmedProperty); ok is false while it is not yet on screen.
func (d *Display) ConsentArmedAt(id uint64) (at time.Time, ok bool, err error) {
	s, ok, err := d.TextProperty(id, ConsentArmedProperty)
	if err != nil || !ok {
		return time.Time{}, false, err
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, false, errors.New("xlib: the consent dialog's armed time is not a number")
	}
	return time.UnixMilli(ms), true, nil
}

// ReadConsentLayout reads a consent dialog's published control layout
// (ConsentLayoutProperty), in that window's coordinates.
func (d *Display) ReadConsentLayout(id uint64) (ConsentLayout, error) {
	var l ConsentLayout
	s, ok, err := d.TextProperty(id, ConsentLayoutProperty)
	if err != nil {
		return l, err
	}
	if !ok {
		return l, errNoLayout
	}
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		return l, errors.New("xlib: the consent layout is not valid JSON")
	}
	return l, nil
}
