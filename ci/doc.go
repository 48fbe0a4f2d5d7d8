// Package ci is the machine side of testing: ci/install-deps.sh sets up a
// machine for `make test`, ci/deb-*.sh build and check the Debian package
// (from the data files in packaging/), and the commands beside it serve
// the benchmark (bench), the soak (soak), the demo's simulated person
// (demoperson) and the package's checks (gencopyright, checkdoctor).
//
// The package itself has no code. Its tests are the repository's own
// checks, the ones that read the whole repository rather than one
// package: they keep those scripts, the package's files, the test image
// (Dockerfile.test) and CI's entry point (.ci/run) in step with each other
// and with the module; keep the engine pure Go and the native layers apart
// (purity_test.go, layers_test.go); and keep every citation of
// docs/contract.md pointing at one of its headings
// (contract_anchors_test.go).
package ci
