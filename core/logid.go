package core

import (
	"strings"
	"unicode/utf8"
)

// MaxLogIDLen is how many bytes of a client-supplied id (thread, run,
// message) a log line keeps.
const MaxLogIDLen = 128

// LogID returns id as a log line should carry it: ids come from clients,
// and a megabyte-long threadId must not become a megabyte of log per
// line. An id over [MaxLogIDLen] bytes is cut at a character boundary and
// marked with "…".
func LogID(id string) string {
	if len(id) <= MaxLogIDLen {
		return id
	}
	cut := MaxLogIDLen
	for cut > 0 && !utf8.RuneStart(id[cut]) {
		cut--
	}
	return id[:cut] + "…"
}

// logText returns s cut to maxErrorDetail bytes at a character boundary
// and marked with "…": for text a log line carries that may quote a
// client's input.
func logText(s string) string {
	if len(s) <= maxErrorDetail {
		return s
	}
	return strings.ToValidUTF8(s[:maxErrorDetail], "") + "…"
}
