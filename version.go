package agui

import (
	"strconv"
	"strings"
)

// ProtocolVersion is AG-UI 1.0: the version [NewInput] declares, and
// the one a producer states on RUN_STARTED to every client that does not
// declare 1.1 or newer ([ServedVersion]).
const ProtocolVersion = "1.0"

// LatestProtocolVersion is the newest AG-UI version this package speaks:
// 1.1, which adds encryptedValueType beside every encryptedValue. A
// producer states it on RUN_STARTED to a client that declares it.
const LatestProtocolVersion = "1.1"

// ServedVersion is the version a producer states on RUN_STARTED to a client
// whose RunAgentInput declared client: [LatestProtocolVersion] when client
// is a 1.x version of minor 1 or above ("1.1", "1.2"), and [ProtocolVersion]
// for everything else: "1.0", "1", a version that does not parse, and ""
// (a client older than 1.0). A client served 1.0 must get 1.0 events,
// which [Downgrade10] makes of 1.1 ones; the version never echoes the
// client's (AG-UI 1.1, versioning).
func ServedVersion(client string) string {
	if minor, ok := minorOf(client); ok && minor >= 1 {
		return LatestProtocolVersion
	}
	return ProtocolVersion
}

// minorOf returns the minor of a 1.x version ("1.1" and "1.1.0" give 1),
// or false when v is no such version.
func minorOf(v string) (int, bool) {
	major, rest, ok := strings.Cut(v, ".")
	if !ok || major != "1" {
		return 0, false
	}
	minor, _, _ := strings.Cut(rest, ".")
	if minor == "" || strings.TrimLeft(minor, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(minor)
	return n, err == nil
}
