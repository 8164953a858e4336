package client

import (
	"encoding/json"
	"errors"
	"maps"
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
	warn := p.warnf
	var head struct {
		Type  agui.EventType `json:"type"`
		Delta string         `json:"delta"`
	}
	if json.Unmarshal(data, &head) == nil && head.Type != "" && !head.Type.Known() {
		if ev := p.legacy.translate(head.Type, head.Delta); ev != nil {
			warn(head.Type, "translated the pre-1.0 "+string(head.Type)+" to "+string(ev.Type()))
			return ev, nil
		}
		warn(head.Type, "dropped an event of unknown type "+string(head.Type))
		return nil, nil
	}
	for {
		ev, err := agui.DecodeEvent(data)
		if err == nil {
			warnUnknownKeys(data, ev, warn)
			return ev, nil
		}
		stripped, ptr, ok := strip(data, err)
		if !ok {
			return nil, &agui.Error{Code: agui.CodeSerialization, Message: "client: an event does not decode: " + err.Error(), Err: err}
		}
		warn(head.Type, "stripped "+ptr+" ("+err.Error()+")")
		data = stripped
	}
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
// one, so its absence proves nothing.
func warnUnknownKeys(data []byte, ev agui.Event, warn func(agui.EventType, string)) {
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return
	}
	enc, err := ev.AppendJSON(nil)
	if err != nil {
		return
	}
	var known map[string]json.RawMessage
	if json.Unmarshal(enc, &known) != nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if _, ok := known[k]; !ok && !empty(raw[k]) {
			warn(ev.Type(), "stripped unknown property /"+k)
		}
	}
}

// empty reports whether a JSON value is null or its type's zero value.
func empty(v json.RawMessage) bool {
	switch string(v) {
	case "null", `""`, "0", "false", "{}", "[]":
		return true
	}
	return false
}
