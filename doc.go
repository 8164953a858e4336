// Package agui is the AG-UI 1.0 and 1.1 protocol in Go: its vocabulary and its
// encodings, with no runtime. A transformer, a test or a Go client that only
// speaks the protocol imports this package alone; package
// [github.com/agui-go/agui/core] runs agents that produce these events, and
// package [github.com/agui-go/agui/ginagui] serves them from Gin.
//
// The protocol is specified at https://docs.ag-ui.com; this package follows
// the 1.0 packages (@ag-ui/core, @ag-ui/encoder, @ag-ui/proto 1.0.0) and
// adds what 1.1 adds: EncryptedValueType beside every EncryptedValue.
//
// # Vocabulary
//
// Every wire event is a Go struct behind the sealed [Event] interface
// ([RunStarted], [TextMessageContent], [ToolCallStart], [StateDelta], …),
// with its [EventType]. Optional fields are pointers, so absent and zero
// stay distinct on the wire. A [Message] is a union on its role
// ([UserMessage], [AssistantMessage], [ToolMessage], …) and user content is
// text or [ContentPart] values. [RunAgentInput] is the body a client POSTs; an
// [Outcome] (success, interrupt, cancelled) and [TokenUsage] ride on
// RUN_FINISHED; [Capabilities] describes an agent. A failed run carries an
// [Error] with a stable [Code].
//
// # Encoding and decoding
//
// [Event.AppendJSON] appends an event's JSON to a buffer without
// reflection, and [AppendSSE] frames it as a server-sent event;
// [AppendProto] and [DecodeProto] speak the protobuf encoding. [Negotiate] picks the encoding
// from a request's Accept header; [ServedVersion] is the version a client
// is served, [Downgrade10] rewrites 1.1 events for a 1.0 client and
// [Downgrade] for a pre-1.0 one. [DecodeEvent], [DecodeMessage] and [DecodeInput] read
// JSON back, reporting the JSON path of whatever is wrong in an
// [InputError].
//
//	in, err := agui.DecodeInput(body)
//	if err != nil {
//		return err // e.g. `messages[2].role: unknown role "robot"`
//	}
//	buf := agui.AppendSSE(nil, &agui.RunStarted{ThreadID: in.ThreadID, RunID: in.RunID})
//
// # Ordering
//
// A [Verifier] checks that a stream obeys the protocol's ordering rules
// (one run at a time, nothing after the terminal event, every message, tool
// call, step and subagent closed before RUN_FINISHED, …). A rejected event
// returns a [VerificationError] naming the [Rule]. The build tag
// agui_noverify compiles the checks out.
//
// # Concurrency
//
// The wire types are plain data: safe for concurrent reads, not for a write
// concurrent with anything else. Decoded values share no memory with the
// bytes they were decoded from. A Verifier is not safe for concurrent use.
package agui
