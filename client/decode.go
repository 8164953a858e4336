package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/agui-go/agui"
)

// decode decodes one JSON event the way @ag-ui/client's tolerance
// rules read it: an event type the client does not know is dropped (nil
// event), an unknown value in an optional place (an outcome, a patch
// operation, a content part) is stripped, and a key the client does not
// know is ignored; each with a warning. Anything else that does not
// decode is an error.
func (p *pipeline) decode(data []byte) (agui.Event, error) {
	for {
		ev, err := agui.DecodeEvent(data)
		if err == nil {
			p.warnUnknownKeys(data, ev)
			return ev, nil
		}
		if t, ok := unknownType(data, err); ok {
			var legacy struct {
				Delta string `json:"delta"`
			}
			_ = json.Unmarshal(data, &legacy)
			if ev := p.legacy.translate(t, legacy.Delta); ev != nil {
				p.warnf(t, "translated the pre-1.0 "+string(t)+" to "+string(ev.Type()))
				return ev, nil
			}
			p.warnf(t, "dropped an event of unknown type "+string(t))
			return nil, nil
		}
		stripped, ptr, ok := strip(data, err)
		if !ok {
			return nil, &agui.Error{Code: agui.CodeSerialization, Message: "client: an event does not decode: " + err.Error(), Err: err}
		}
		p.warnf(eventType(data), "stripped "+ptr+" ("+err.Error()+")")
		data = stripped
	}
}

// unknownType reports the type of an event DecodeEvent refused for its
// type alone: a string naming no event type this client knows.
func unknownType(data []byte, err error) (agui.EventType, bool) {
	var ie *agui.InputError
	if !errors.As(err, &ie) || ie.Field != "type" || !strings.HasPrefix(ie.Reason, "unknown event type") {
		return "", false
	}
	t := eventType(data)
	return t, t != ""
}

// eventType is the "type" member of an event's JSON, "" when it has none.
func eventType(data []byte) agui.EventType {
	var head struct {
		Type agui.EventType `json:"type"`
	}
	_ = json.Unmarshal(data, &head)
	return head.Type
}

// strip removes what err says is an unknown discriminator ("type" or
// "op") from data: the array element holding it, or the optional outcome.
// It reports the JSON Pointer removed; ok is false when err is anything
// else, or the value there is not an object (a malformed known field,
// which is fatal).
func strip(data []byte, err error) (out []byte, ptr string, ok bool) {
	var ie *agui.InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(ie.Reason, "unknown ") {
		return nil, "", false
	}
	path := splitPath(ie.Field)
	if len(path) < 2 || (path[len(path)-1] != "type" && path[len(path)-1] != "op") {
		return nil, "", false
	}
	var doc any
	if json.Unmarshal(data, &doc) != nil {
		return nil, "", false
	}
	parent := path[:len(path)-1] // the object holding the discriminator
	last := parent[len(parent)-1]
	holder, found := lookup(doc, parent[:len(parent)-1])
	if !found {
		return nil, "", false
	}
	switch h := holder.(type) {
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(h) {
			return nil, "", false
		}
		if _, isObj := h[i].(map[string]any); !isObj {
			return nil, "", false
		}
		if !set(doc, parent[:len(parent)-1], append(h[:i:i], h[i+1:]...)) {
			return nil, "", false
		}
	case map[string]any:
		// Only the run's outcome is an optional object whose removal
		// leaves a valid event.
		if len(parent) != 1 || last != "outcome" {
			return nil, "", false
		}
		delete(h, last)
	default:
		return nil, "", false
	}
	out, mErr := json.Marshal(doc)
	if mErr != nil {
		return nil, "", false
	}
	return out, "/" + strings.Join(parent, "/"), true
}

// splitPath splits a decoder path such as "messages[0].content[1].type"
// into its keys and indexes.
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.Split(p, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part, ']')
			if j < i {
				return out
			}
			out = append(out, part[i+1:j])
			part = part[j+1:]
		}
	}
	return out
}

func lookup(doc any, path []string) (any, bool) {
	for _, k := range path {
		switch d := doc.(type) {
		case map[string]any:
			v, ok := d[k]
			if !ok {
				return nil, false
			}
			doc = v
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(d) {
				return nil, false
			}
			doc = d[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// set replaces the value at path (not the root) with v.
func set(doc any, path []string, v any) bool {
	if len(path) == 0 {
		return false
	}
	holder, ok := lookup(doc, path[:len(path)-1])
	if !ok {
		return false
	}
	k := path[len(path)-1]
	switch h := holder.(type) {
	case map[string]any:
		h[k] = v
		return true
	case []any:
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(h) {
			return false
		}
		h[i] = v
		return true
	}
	return false
}

// warnUnknownKeys warns about each top-level key of data that ev's own
// encoding does not carry: a property from a newer protocol, which the
// client strips. A key holding an empty value (null, "", 0, false, {},
// []) is not reported: the encoder leaves out a known field that holds
// one, so its absence proves nothing. Both documents are valid JSON, so a
// scan of their top-level members does, without decoding them again.
func (p *pipeline) warnUnknownKeys(data []byte, ev agui.Event) {
	enc, err := ev.AppendJSON(p.buf[:0])
	if err != nil {
		return
	}
	p.buf = enc
	var unknown []string
	members(data, func(key, val []byte) {
		if empty(val) {
			return
		}
		found := false
		members(enc, func(k, _ []byte) { found = found || bytes.Equal(k, key) })
		if !found {
			unknown = append(unknown, string(key))
		}
	})
	slices.Sort(unknown)
	for _, k := range unknown {
		p.warnf(ev.Type(), "stripped unknown property /"+k)
	}
}

// members calls f with the key (as written, without its quotes) and the
// value of each top-level member of data, a valid JSON object.
func members(data []byte, f func(key, val []byte)) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] == '}' {
			return
		}
		if data[i] == ',' {
			i++
			continue
		}
		kEnd := endOfString(data, i)
		key := data[i+1 : kEnd-1]
		i = skipSpace(data, kEnd) + 1 // the colon
		i = skipSpace(data, i)
		vEnd := endOfValue(data, i)
		f(key, data[i:vEnd])
		i = vEnd
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// endOfString returns the index after the string starting at data[i].
func endOfString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// endOfValue returns the index after the value starting at data[i].
func endOfValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return endOfString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = endOfString(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !strings.ContainsRune(",}] \t\n\r", rune(data[j])) {
		j++
	}
	return j
}

// empty reports whether a JSON value is null or its type's zero value.
func empty(v []byte) bool {
	switch string(v) {
	case "null", `""`, "0", "false", "{}", "[]":
		return true
	}
	return false
}
