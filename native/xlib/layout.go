package xlib

import (
	"encoding/json"
	"errors"
)

var errNoLayout = errors.New("xlib: the window has no consent layout")

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
