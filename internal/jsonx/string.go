package jsonx

import "unicode/utf8"

// This file is the encoder's hot path: strings, which are most of what a
// stream of text and ids carries.

// hexDigits spells the \u escapes.
const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. It escapes '"', '\\', control
// characters, U+2028 and U+2029 (so the output is also a safe JavaScript
// literal), replaces invalid UTF-8 with U+FFFD, and leaves '<', '>' and '&'
// alone, as JSON.stringify does: the output is not meant for embedding in
// HTML. It does not allocate beyond growing dst.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	if plain(s) {
		// Text deltas and ids almost always take this path.
		dst = append(dst, s...)
		return append(dst, '"')
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain reports whether s is ASCII that needs no escaping. It tests eight
// bytes at a time in a 64-bit word x, the last word overlapping the one
// before it: a byte below n makes x - n borrow into its top bit, and a byte
// equal to q does the same to (x^q) - 1. Plain bytes never borrow, so a
// plain word passes; a borrow starts only at a flagged byte, so a word
// holding one fails.
func plain(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i := 0; ; i += 8 {
		i = min(i, n-8)
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if (x|(x-lo*0x20)|((x^lo*'"')-lo)|((x^lo*'\\')-lo))&hi != 0 {
			return false
		}
		if i == n-8 {
			return true
		}
	}
}
