package agui

import (
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/agui-go/agui/internal/pb"
)

// protoPrefix is the size of a frame's big-endian length prefix.
const protoPrefix = 4

// AppendProto appends ev to dst as one AG-UI protobuf frame: a 4-byte
// big-endian length, then an ag_ui.Event whose oneof arm is ev's type and
// whose base_event.type names the same type.
//
// Opaque JSON values (state, results, raw events, metadata) travel as
// google.protobuf.Value after conversion through encoding/json, so they
// carry what the JSON encoding would carry, except that numbers become
// doubles: integers beyond 2^53 lose precision, as in JavaScript.
//
// It fails with a SERIALIZATION [*Error] when a value cannot be converted,
// when a field holds something the schema cannot express (an unknown
// outcome, patch op or content part type), and when the encoded event is
// over [MaxEventSize] bytes (the limit counts the protobuf message, not its
// prefix). On error dst is returned unchanged.
//
// AppendProto is safe for concurrent use; it only reads ev.
func AppendProto(dst []byte, ev Event) ([]byte, error) {
	if ev == nil {
		return dst, NewError(CodeSerialization, "cannot encode a nil event")
	}
	env, err := toProto(ev)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	out, err := proto.MarshalOptions{Deterministic: true}.MarshalAppend(append(dst, 0, 0, 0, 0), env)
	if err != nil {
		return dst, &Error{Code: CodeSerialization, Message: "protobuf: cannot marshal " + string(ev.Type()), Err: err}
	}
	size := len(out) - start - protoPrefix
	if size > MaxEventSize {
		return dst, &Error{Code: CodeSerialization,
			Message: fmt.Sprintf("protobuf: %s event of %d bytes exceeds the 10 MiB frame limit", ev.Type(), size)}
	}
	binary.BigEndian.PutUint32(out[start:], uint32(size))
	return out, nil
}

// DecodeProto decodes one frame written by [AppendProto]: the 4-byte length
// prefix and exactly the bytes it announces. It is the inverse of
// AppendProto, for tests and Go clients; opaque JSON values come back as
// json.RawMessage.
//
// Like the official decoder it rejects an envelope without a known arm or
// without a base_event, and one whose base_event.type disagrees with its
// arm. Every error is a SERIALIZATION [*Error]. DecodeProto does not retain
// frame.
func DecodeProto(frame []byte) (Event, error) {
	if len(frame) < protoPrefix {
		return nil, &Error{Code: CodeSerialization, Message: "protobuf: frame shorter than its 4-byte length prefix"}
	}
	size := binary.BigEndian.Uint32(frame)
	if size > MaxEventSize {
		return nil, &Error{Code: CodeSerialization,
			Message: fmt.Sprintf("protobuf: frame of %d bytes exceeds the 10 MiB limit", size)}
	}
	if int(size) != len(frame)-protoPrefix {
		return nil, &Error{Code: CodeSerialization,
			Message: fmt.Sprintf("protobuf: length prefix says %d bytes but %d follow", size, len(frame)-protoPrefix)}
	}
	env := new(pb.Event)
	if err := proto.Unmarshal(frame[protoPrefix:], env); err != nil {
		return nil, &Error{Code: CodeSerialization, Message: "protobuf: malformed event", Err: err}
	}
	return fromProto(env)
}
