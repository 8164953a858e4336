// Package inputfuzz fuzzes the request surface of the HTTP transport:
// messages through agui.DecodeMessage and whole request bodies, under any
// content type, through a core.InputReader. go test runs the seed corpora;
// test/fuzz.sh fuzzes each target:
//
//	go test -run '^$' -fuzz '^FuzzReadInput$' -fuzztime 60s ./test/inputfuzz
//
// The targets live here rather than beside the fault tests of
// test/faults, whose tests import Gin: go test -fuzz instruments every
// package of the test binary, and this one imports only the module's own
// packages and the standard library.
package inputfuzz
