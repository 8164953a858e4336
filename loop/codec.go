package loop

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
)

// CheckpointFormat is the version of the encoding [MarshalCheckpoint]
// writes, stored in the document's "format" field. [UnmarshalCheckpoint]
// reads this version and refuses any other, so a store shared by two
// releases never misreads a checkpoint.
const CheckpointFormat = 1

// ErrCheckpointFormat: a stored checkpoint is not a document
// [UnmarshalCheckpoint] can read (corrupt, or written by a newer format).
var ErrCheckpointFormat = errors.New("loop: unreadable checkpoint")

// checkpointFields is Checkpoint without its methods: every field of
// Checkpoint is encoded by encoding/json under its Go name, so a field
// added to Checkpoint is carried by every store without a codec change.
type checkpointFields Checkpoint

// checkpointDoc is the encoded form. Messages and Steer shadow the
// embedded fields, since a agui.Message is an interface that
// encoding/json cannot decode: each message is written with its AG-UI
// JSON encoding and read back with agui.DecodeMessage.
type checkpointDoc struct {
	Format int `json:"format"`
	*checkpointFields
	Messages []json.RawMessage `json:"Messages"`
	Steer    []json.RawMessage `json:"Steer,omitempty"`
}

// MarshalCheckpoint encodes cp as a JSON document any [Store] can keep as
// bytes: a "format" field ([CheckpointFormat]), every field of [Checkpoint]
// under its Go name, and the messages in their AG-UI wire form.
// [UnmarshalCheckpoint] reads it back.
func MarshalCheckpoint(cp *Checkpoint) ([]byte, error) {
	if cp == nil {
		return nil, errors.New("loop: MarshalCheckpoint: nil checkpoint")
	}
	doc := checkpointDoc{Format: CheckpointFormat, checkpointFields: (*checkpointFields)(cp)}
	var err error
	if doc.Messages, err = encodeMessages(cp.Messages, "message"); err != nil {
		return nil, err
	}
	if doc.Steer, err = encodeMessages(cp.Steer, "steered message"); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// encodeMessages writes each message of msgs in its AG-UI JSON encoding.
func encodeMessages(msgs []agui.Message, what string) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		if m == nil {
			return nil, fmt.Errorf("loop: MarshalCheckpoint: %s %d is nil", what, i)
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("loop: MarshalCheckpoint: %s %d: %w", what, i, err)
		}
		out[i] = b
	}
	return out, nil
}

// decodeMessages reads back what encodeMessages wrote (nil for none).
func decodeMessages(raw []json.RawMessage, what string) ([]agui.Message, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]agui.Message, len(raw))
	for i, b := range raw {
		m, err := agui.DecodeMessage(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %d: %w", ErrCheckpointFormat, what, i, err)
		}
		out[i] = m
	}
	return out, nil
}

// UnmarshalCheckpoint decodes a document written by [MarshalCheckpoint].
// Any error wraps [ErrCheckpointFormat]. The messages come back as the
// same core message types, with the limits of their JSON form: numbers
// in Metadata and
// ActivityMessage content read back as [json.Number], as [agui.DecodeMessage]
// reads them.
func UnmarshalCheckpoint(data []byte) (*Checkpoint, error) {
	cp := &Checkpoint{}
	doc := checkpointDoc{Format: -1, checkpointFields: (*checkpointFields)(cp)}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckpointFormat, err)
	}
	if doc.Format != CheckpointFormat {
		return nil, fmt.Errorf("%w: format is not %d", ErrCheckpointFormat, CheckpointFormat)
	}
	var err error
	if cp.Messages, err = decodeMessages(doc.Messages, "message"); err != nil {
		return nil, err
	}
	if cp.Steer, err = decodeMessages(doc.Steer, "steered message"); err != nil {
		return nil, err
	}
	// encoding/json writes a nil json.RawMessage as null and reads null
	// back as a non-nil one; nil means "none" in these fields.
	cp.State = nilIfNull(cp.State)
	if cp.Pending != nil && cp.Pending.Decision != nil {
		cp.Pending.Decision.Args = nilIfNull(cp.Pending.Decision.Args)
		cp.Pending.Decision.Answer = nilIfNull(cp.Pending.Decision.Answer)
	}
	return cp, nil
}

func nilIfNull(raw json.RawMessage) json.RawMessage {
	if string(raw) == "null" {
		return nil
	}
	return raw
}
