package jsonx

// Value is one JSON value of a parsed document, or an absent member of an
// object (see [Object.Get]), together with what names it: its parent
// object or array and its member name or element index, from which
// [Value.Path] spells its JSON path when an error needs it.
//
// A Value is a small handle into its document; copying it is cheap, and
// it is safe to share between goroutines as long as nothing decodes
// through it (a [Decoder] is not).
type Value struct {
	doc *document
	n   *node // nil for an absent member
	i   int32 // n's index in doc.nodes
	// parent is the object or array holding the value; nil for the root.
	parent *container
	name   string // the member name, when parent is an object
	idx    int    // the element index, when parent is an array
}

// container is the path of an object or array: how its members' paths
// start.
type container struct {
	v     Value
	array bool
}

// Parse checks that data is a single JSON value (RFC 8259) and indexes it
// in one pass. On a syntax error it returns a [DecodeError] with Malformed
// set, worded as encoding/json words it.
func Parse(data []byte) (Value, *DecodeError) {
	doc, ok := scan(data)
	if !ok {
		return Value{}, syntaxError(data)
	}
	return Value{doc: doc, n: &doc.nodes[0]}, nil
}

// ParseObject is [Parse] for a document that must be a JSON object; any
// other value is a [DecodeError] with Malformed set.
func ParseObject(data []byte) (Value, *DecodeError) {
	v, err := Parse(data)
	if err != nil {
		return Value{}, err
	}
	if k := v.Kind(); k != "object" {
		return Value{}, &DecodeError{Reason: "expected a JSON object, got " + k, Malformed: true}
	}
	return v, nil
}

// Path spells out v's JSON path (see [MemberPath]); "" for the root.
func (v Value) Path() string {
	if v.parent == nil {
		return ""
	}
	if v.parent.array {
		return IndexPath(v.parent.v.Path(), v.idx)
	}
	return MemberPath(v.parent.v.Path(), v.name)
}

// raw returns v's bytes; v must be present.
func (v Value) raw() []byte { return v.doc.data[v.n.start:v.n.end] }

// Kind names the JSON type of v as error messages spell it: "object",
// "array", "string", "number", "boolean", "null", or "nothing" for an
// absent member.
func (v Value) Kind() string {
	if v.n == nil {
		return "nothing"
	}
	switch v.n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// IsNull reports whether v is a JSON null (an absent member is not).
func (v Value) IsNull() bool { return v.n != nil && v.n.kind == 'n' }
