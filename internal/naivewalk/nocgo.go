//go:build !cgo

package naivewalk

// Walk returns ErrNotBuilt in a build without cgo.
func Walk(pid int, titlePrefix string) ([]Element, error) { return nil, ErrNotBuilt }
