// Package packaging holds the Debian package's own files (the systemd user
// unit, the control template, the copyright head, lintian overrides) and the
// tests that keep the packaging scripts (ci/deb-*.sh), the test image
// (Dockerfile.test) and CI (.ci/run) in step with each other and with the
// module. It has no code of its own; its programs are in gencopyright and
// checkdoctor.
package packaging
