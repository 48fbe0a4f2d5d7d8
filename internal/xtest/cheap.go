//go:build cgo

package xtest

/*
#include <malloc.h>
*/
import "C"

// CHeapInUse is how many bytes the process's C heap holds allocated, in
// every arena (glibc's mallinfo2): a test that calls C code many times
// checks that it does not grow, as it would if each call leaked.
func CHeapInUse() (uint64, error) { return uint64(C.mallinfo2().uordblks), nil }
