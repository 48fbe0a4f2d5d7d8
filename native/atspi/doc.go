// Package atspi will read and act on applications' accessibility trees
// through libatspi with cgo: roles, names, states, actions, text, values and
// extents, plus the EditableText and Value interfaces for headless typing and
// setting. Where one direct D-Bus call is much faster than libatspi's
// property-by-property round trips, it uses godbus instead: a single
// org.a11y.atspi.Cache.GetItems call returns most of an app's tree at once,
// and the package fills in what that call leaves out (children of containers
// that manage their descendants, menus, extents) with targeted calls.
package atspi
