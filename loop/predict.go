package loop

import (
	"encoding/json"
	"errors"
	"maps"
)

// WithPredictState opts the tool named tool into predictive state updates:
// while the model streams a call's arguments, each argument field named in
// fields (argument field -> top-level state field) is copied into the
// shared state as soon as its value, or a prefix of it for a string, can
// be read, so the user sees it before the call runs (default none). It
// applies to [Typed] agents whose state is a JSON object; values that do not
// fit the state's type are skipped. The tool may be a frontend tool. The
// tool's own result and [UpdateState] calls have the last word.
func WithPredictState(tool string, fields map[string]string) Option {
	return func(c *config) error {
		if tool == "" || len(fields) == 0 {
			return errors.New("loop: WithPredictState: a tool name and at least one field are needed")
		}
		if c.predict == nil {
			c.predict = map[string]map[string]string{}
		}
		c.predict[tool] = maps.Clone(fields)
		return nil
	}
}

// predict mirrors the predicted fields of a call whose arguments grew.
func (r *run) predict(c *turnCall) {
	if r.st == nil {
		return
	}
	fields := r.a.cfg.predict[c.name]
	if fields == nil {
		return
	}
	obj := partialObject(c.args.String(), true)
	if obj == nil {
		return
	}
	out := map[string]json.RawMessage{}
	for arg, field := range fields {
		if v, ok := obj[arg]; ok {
			out[field] = v
		}
	}
	if len(out) > 0 {
		// A value that does not fit the state is skipped; a refused event
		// ends the run through the next emit.
		_ = r.st.mirror(out)
	}
}

// partialObject reads the fields of a JSON object whose text may be cut
// off anywhere: an open string is closed where it stops, and a value cut
// in the middle of a number or literal is left out. It returns nil when
// the text is no object prefix.
func partialObject(s string, retry bool) map[string]json.RawMessage {
	var (
		stack  []byte
		inStr  bool
		escape bool
		commas []int // positions of commas outside strings
	)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inStr:
			switch {
			case escape:
				escape = false
			case ch == '\\':
				escape = true
			case ch == '"':
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '{':
			stack = append(stack, '}')
		case ch == '[':
			stack = append(stack, ']')
		case ch == '}' || ch == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ch == ',':
			commas = append(commas, i)
		}
	}
	try := func(text string, open bool, escaped bool, stack []byte) map[string]json.RawMessage {
		b := []byte(text)
		if open {
			if escaped {
				b = b[:len(b)-1]
			}
			b = append(b, '"')
		}
		for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\n' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
			b = b[:len(b)-1]
		}
		if len(b) > 0 && b[len(b)-1] == ',' {
			b = b[:len(b)-1]
		}
		for i := len(stack) - 1; i >= 0; i-- {
			b = append(b, stack[i])
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil {
			return nil
		}
		return obj
	}
	if obj := try(s, inStr, escape, stack); obj != nil {
		return obj
	}
	// Cut back once to the last comma outside strings, dropping the field
	// being written.
	if retry && len(commas) > 0 {
		return partialObject(s[:commas[len(commas)-1]], false)
	}
	return nil
}
