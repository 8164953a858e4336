package jsonx

import "strconv"

// This file spells JSON paths the way JavaScript code would reach the
// value: members as .name, or as ["name"] when the name is not an
// identifier, and elements as [i]. The root's path is "".

// MemberPath returns the path of member name of the object at path:
// MemberPath("messages[2]", "role") is "messages[2].role", and
// MemberPath("", "a b") is `["a b"]`.
func MemberPath(path, name string) string {
	if !isIdentifier(name) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// IndexPath returns the path of element i of the array at path:
// IndexPath("content", 0) is "content[0]".
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// isIdentifier reports whether s may follow a dot in a path: an ASCII
// JavaScript identifier.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
