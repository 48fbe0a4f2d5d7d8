// Package ci is the machine side of testing: ci/install-deps.sh sets up a
// machine for `make test`, ci/deb-*.sh build and check the Debian package
// (from the data files in packaging/), and the commands beside it serve
// the benchmark (bench), the soak (soak), the demo's simulated person
// (demoperson) and the package's checks (gencopyright, checkdoctor).
//
// The package itself has no code: its tests keep those scripts, the
// package's files, the test image (Dockerfile.test) and CI's entry point
// (.ci/run) in step with each other and with the module.
package ci
