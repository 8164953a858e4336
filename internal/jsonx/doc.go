// Package jsonx is the JSON machinery behind package agui's encoders and
// decoders that knows nothing of AG-UI: an append-style encoder of plain Go
// values, and a decoder that reads schema-described JSON and names the
// JSON path of whatever is wrong.
//
// # Encoding
//
// [AppendString], [AppendValue], [AppendObject], [AppendStrings] and
// [AppendRaw] append JSON to a caller-owned buffer, byte for byte what
// encoding/json writes with HTML escaping off, without reflection for the
// types encoding/json decodes into:
//
//	buf = jsonx.AppendString(buf, "héllo \"world\"") // "héllo \"world\""
//	buf, err = jsonx.AppendValue(buf, map[string]any{"b": 1.0, "a": nil})
//
// An encoder that recurses into a value wraps an error met on the way with
// [At] and [AtIndex], so that the [EncodeError] it returns names where the
// bad value sits: "snapshot.items[3]: unsupported number NaN".
//
// # Decoding
//
// [Parse] (or [ParseObject]) checks the syntax and indexes the document in
// one pass; a [Decoder] then reads the indexed values object by object
// through [Object]'s getters, each a typed read from the value's bytes:
//
//	root, perr := jsonx.ParseObject(data)
//	if perr != nil {
//		return perr // Malformed: not a JSON object (HTTP 400)
//	}
//	d := &jsonx.Decoder{}
//	o := d.Object(root)
//	id := o.Str("id")                               // required
//	n := o.OptInt("count", 0, jsonx.MaxSafeInteger) // optional: nil when absent or null
//	o.Finish()                                      // with Strict, rejects unknown members
//	if err := d.Err(); err != nil {
//		return err // e.g. "items[2].role: required" (HTTP 422)
//	}
//
// Every string read is a slice of one copy of the document, made by
// [Parse], so a kept string keeps that copy alive; the Objects and array
// elements a Decoder hands out come from slabs, and [Decoder.Release]
// lets it reuse those made since a [Decoder.Mark], as a caller decoding a
// long array does after each element.
//
// A caller that knows the schema reads faster with a [Reader]: each
// value once, in document order, with no index; it stops at anything it
// was not asked for, and the caller then decodes the document as above,
// which names the error. [Reader.Value] hands one value it does not read
// itself to a Decoder.
//
// The first error sticks and later ones are dropped, so a caller checks
// once, at the end; a read that fails returns a zero value. Errors are [*DecodeError] values whose Path is
// the JSON path of the value at fault, spelled by [MemberPath] and
// [IndexPath]; the path is built only when an error needs it.
//
// The package is internal: its callers are package agui's encoders and its
// DecodeEvent, DecodeInput and DecodeMessage, which convert a DecodeError
// into agui's InputError.
package jsonx
