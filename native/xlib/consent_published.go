package xlib

import (
	"encoding/json"
	"strconv"
	"time"
)

// ReadConsentPublished reads what a consent dialog publishes for the person
// who answers it (ConsentLayoutProperty, ConsentArmedProperty) through
// text, another client's read of a window's UTF8_STRING property by name
// (a scripted person's eyes). ok is false while the dialog does not
// publish both yet. The dialog writes those properties; this reads them
// back, so their format has one owner.
func ReadConsentPublished(text func(id uint64, name string) (string, bool, error), id uint64) (layout ConsentLayout, armedAt time.Time, ok bool) {
	v, ok, err := text(id, ConsentLayoutProperty)
	if err != nil || !ok || json.Unmarshal([]byte(v), &layout) != nil {
		return ConsentLayout{}, time.Time{}, false
	}
	v, ok, err = text(id, ConsentArmedProperty)
	if err != nil || !ok {
		return ConsentLayout{}, time.Time{}, false
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return ConsentLayout{}, time.Time{}, false
	}
	return layout, time.UnixMilli(ms), true
}
