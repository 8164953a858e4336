package agui

import (
	"strings"

	"github.com/agui-go/agui/internal/jsonx"
)

// readInput reads a run request's body in one pass, each member once and
// in document order, straight into the input, checking it on the way; ok
// is false when the body is anything but a valid request of the usual
// shape (an error, a member repeated, an unknown one under [Strict]), and
// [DecodeInput] then decodes it with the indexing decoder, which names the
// error. So the errors, and every rule of the protocol, have one
// implementation, and this reading is only a faster way to the same
// input: indexing the body and looking each member up by name was two
// thirds of a long thread's request (issue 26).
//
// A message of a shape it does not read itself (metadata, content parts,
// an activity, a member its role does not have) is decoded alone by the
// indexing decoder; the members of a request other than its ids, version
// and messages are too: they are few and short.
func readInput(data []byte, strict bool) (*RunAgentInput, bool) {
	r := jsonx.NewReader(data)
	d := &decoder{Decoder: jsonx.Decoder{Strict: strict}}
	in := &RunAgentInput{}
	if !r.Open('{') {
		return nil, false
	}
	var seen inputMembers
	for i := 0; r.More(i, '}'); i++ {
		name := r.Name()
		var bit inputMembers
		switch name {
		case "threadId":
			bit = inThreadID
			in.ThreadID = readStr(r, true)
		case "runId":
			bit = inRunID
			in.RunID = readStr(r, true)
		case "protocolVersion":
			bit = inVersion
			var null bool
			in.ProtocolVersion, null = r.Str()
			if major, _, _ := strings.Cut(in.ProtocolVersion, "."); !null && major != "1" {
				return nil, false
			}
		case "parentRunId":
			bit = inParentRunID
			in.ParentRunID = readStr(r, false)
		case "messages":
			bit = inMessages
			in.Messages = d.readMessages(r, len(data))
		default:
			if bit = inputMember(name); bit == 0 && strict {
				return nil, false
			}
			v, ok := r.Value()
			if !ok {
				return nil, false
			}
			d.inputMember(in, bit, v)
		}
		if seen&bit != 0 || !r.OK() || d.Err() != nil {
			return nil, false
		}
		seen |= bit
	}
	if !r.End() || seen&inRequired != inRequired {
		return nil, false
	}
	if in.Tools == nil {
		in.Tools = d.tools(nil)
	}
	if in.Context == nil {
		in.Context = d.contextItems(nil)
	}
	return in, true
}

// inputMembers has a bit for each member of a request readInput reads.
type inputMembers uint16

const (
	inThreadID inputMembers = 1 << iota
	inRunID
	inVersion
	inParentRunID
	inMessages
	inState
	inTools
	inContext
	inForwardedProps
	inResume
	inRequired = inThreadID | inRunID | inMessages
)

// inputMember returns the bit of a member readInput reads as a whole
// value, 0 for an unknown member.
func inputMember(name string) inputMembers {
	switch name {
	case "state":
		return inState
	case "tools":
		return inTools
	case "context":
		return inContext
	case "forwardedProps":
		return inForwardedProps
	case "resume":
		return inResume
	}
	return 0
}

// inputMember decodes v, the member bit of a request, into in as
// [decoder.input] does; an unknown member (0) is only checked as JSON.
func (d *decoder) inputMember(in *RunAgentInput, bit inputMembers, v jsonx.Value) {
	switch {
	case bit == inState:
		in.State = d.OptRaw(v)
	case bit == inForwardedProps:
		in.ForwardedProps = d.OptRaw(v)
	case bit == 0 || v.IsNull():
	case bit == inTools:
		in.Tools = d.tools(d.Array(v))
	case bit == inContext:
		in.Context = d.contextItems(d.Array(v))
	case bit == inResume:
		in.Resume = d.resume(d.Array(v))
	}
}

// readStr reads a string member; null reads as absent, which stops the
// reader for a required one.
func readStr(r *jsonx.Reader, required bool) string {
	s, null := r.Str()
	if null && required {
		r.Fail()
	}
	return s
}
