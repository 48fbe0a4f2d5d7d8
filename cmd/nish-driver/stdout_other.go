//go:build !linux

package main

import "os"

// claimStdout keeps stdout for the protocol and sends Go's own stray
// prints to stderr (only Linux moves the descriptor itself).
func claimStdout() (*os.File, error) {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out, nil
}
