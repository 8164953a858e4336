package agui_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/internal/pb"
)

func TestSamplesCoverEveryEventType(t *testing.T) {
	seen := map[agui.EventType]bool{}
	for _, ev := range aguitest.Samples() {
		seen[ev.Type()] = true
	}
	for _, typ := range agui.EventTypes() {
		if !seen[typ] {
			t.Errorf("no sample of %s", typ)
		}
	}
}

// TestAppendProtoFrame checks the framing and the envelope of every sample:
// a 4-byte big-endian length of exactly the message, one oneof arm, and a
// base_event.type naming that arm.
func TestAppendProtoFrame(t *testing.T) {
	for i, ev := range aguitest.Samples() {
		t.Run(fmt.Sprintf("%02d_%s", i, ev.Type()), func(t *testing.T) {
			frame, err := agui.AppendProto(nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			if n := binary.BigEndian.Uint32(frame); int(n) != len(frame)-4 {
				t.Fatalf("prefix says %d bytes, %d follow", n, len(frame)-4)
			}
			env := new(pb.Event)
			if err := proto.Unmarshal(frame[4:], env); err != nil {
				t.Fatal(err)
			}
			arm := armOf(t, env)
			base := arm.Get(arm.Descriptor().Fields().ByName("base_event")).Message().Interface().(*pb.BaseEvent)
			if got, want := base.GetType().String(), string(ev.Type()); got != want {
				t.Errorf("base_event.type = %s, want %s", got, want)
			}
			if got, want := string(arm.Descriptor().Name()), armMessageName(ev.Type()); got != want {
				t.Errorf("arm message = %s, want %s", got, want)
			}
		})
	}
}

// armOf returns the one populated arm of the envelope's oneof.
func armOf(t *testing.T, env *pb.Event) protoreflect.Message {
	t.Helper()
	m := env.ProtoReflect()
	oneof := m.Descriptor().Oneofs().ByName("event")
	fd := m.WhichOneof(oneof)
	if fd == nil {
		t.Fatal("no oneof arm set")
	}
	return m.Get(fd).Message()
}

// armMessageName is the generated message name for an event type:
// TEXT_MESSAGE_START -> TextMessageStartEvent, RAW -> RawEvent.
func armMessageName(typ agui.EventType) string {
	var b strings.Builder
	for word := range strings.SplitSeq(string(typ), "_") {
		b.WriteString(word[:1] + strings.ToLower(word[1:]))
	}
	return b.String() + "Event"
}

// TestProtoRoundTrip decodes every sample's frame and checks that encoding
// the decoded event again gives the same bytes and the same JSON.
func TestProtoRoundTrip(t *testing.T) {
	for i, ev := range aguitest.Samples() {
		t.Run(fmt.Sprintf("%02d_%s", i, ev.Type()), func(t *testing.T) {
			frame, err := agui.AppendProto(nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			back, err := agui.DecodeProto(frame)
			if err != nil {
				t.Fatal(err)
			}
			if back.Type() != ev.Type() {
				t.Fatalf("decoded %s, want %s", back.Type(), ev.Type())
			}
			again, err := agui.AppendProto(nil, back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, frame) {
				t.Errorf("re-encoding the decoded event changed the frame:\n got %x\nwant %x", again, frame)
			}
			assertSameJSON(t, back, ev)
		})
	}
}

func assertSameJSON(t *testing.T, got, want agui.Event) {
	t.Helper()
	g, err := got.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	var gv, wv any
	if err := json.Unmarshal(g, &gv); err != nil {
		t.Fatalf("decoded event's JSON: %v: %s", err, g)
	}
	if err := json.Unmarshal(w, &wv); err != nil {
		t.Fatalf("original event's JSON: %v: %s", err, w)
	}
	if gb, wb := mustMarshal(t, gv), mustMarshal(t, wv); gb != wb {
		t.Errorf("JSON differs after the protobuf round trip:\n got %s\nwant %s", gb, wb)
	}
}

// mustMarshal re-encodes a decoded JSON value; encoding/json sorts object
// keys, so equal values give equal strings.
func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAppendProtoAppends(t *testing.T) {
	prefix := []byte("keep")
	first := &agui.TextMessageContent{MessageID: "m", Delta: "a"}
	second := &agui.TextMessageEnd{MessageID: "m"}
	buf, err := agui.AppendProto(prefix, first)
	if err != nil {
		t.Fatal(err)
	}
	buf, err = agui.AppendProto(buf, second)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf, []byte("keep")) {
		t.Fatalf("prefix lost: %q", buf)
	}
	rest := buf[len("keep"):]
	for _, want := range []agui.EventType{agui.TypeTextMessageContent, agui.TypeTextMessageEnd} {
		n := int(binary.BigEndian.Uint32(rest))
		ev, err := agui.DecodeProto(rest[:4+n])
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type() != want {
			t.Fatalf("got %s, want %s", ev.Type(), want)
		}
		rest = rest[4+n:]
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left over", len(rest))
	}
}

func TestAppendProtoTooLarge(t *testing.T) {
	dst := []byte("prefix")
	ev := &agui.TextMessageContent{MessageID: "m", Delta: strings.Repeat("x", agui.MaxEventSize)}
	out, err := agui.AppendProto(dst, ev)
	if agui.CodeOf(err) != agui.CodeSerialization {
		t.Fatalf("error %v, want a SERIALIZATION error", err)
	}
	if string(out) != "prefix" {
		t.Fatalf("dst changed to %d bytes", len(out))
	}
	// Just under the limit passes: the limit counts the message only.
	ev.Delta = strings.Repeat("x", agui.MaxEventSize-64)
	if _, err := agui.AppendProto(nil, ev); err != nil {
		t.Fatalf("event under the limit: %v", err)
	}
}

func TestAppendProtoRefuses(t *testing.T) {
	bogus := agui.Outcome{Type: "skipped"}
	cases := []struct {
		name string
		ev   agui.Event
		want string
	}{
		{"nil event", nil, "nil event"},
		{"unknown outcome", &agui.RunFinished{ThreadID: "t", RunID: "r", Outcome: &bogus}, `unknown run outcome "skipped"`},
		{"unknown subagent outcome", &agui.SubagentFinished{Outcome: &agui.SubagentOutcome{Type: "failed"}}, `unknown subagent outcome "failed"`},
		{"unknown patch op", &agui.StateDelta{Delta: []agui.PatchOp{{Op: "merge", Path: "/a"}}}, `unknown JSON Patch op "merge"`},
		{"unknown part", &agui.ToolCallResult{Content: agui.PartsContent(agui.ContentPart{Type: "binary"})}, `content part type "binary"`},
		{"unknown source", &agui.ToolCallResult{Content: agui.PartsContent(agui.ContentPart{Type: agui.PartImage,
			Source: &agui.PartSource{Type: "ftp"}})}, `content source type "ftp"`},
		{"value without JSON", &agui.Custom{Name: "c", Value: make(chan int)}, "cannot convert chan int to JSON"},
		{"invalid raw JSON", &agui.Raw{Event: json.RawMessage(`{"a":`)}, "cannot convert json.RawMessage to JSON"},
		{"number out of range", &agui.Custom{Name: "c", Value: json.Number("1e999")}, "google.protobuf.Value"},
		{"nil message", &agui.MessagesSnapshot{Messages: []agui.Message{nil}}, "no protobuf form for message"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := agui.AppendProto([]byte("x"), tc.ev)
			var e *agui.Error
			if !errors.As(err, &e) || e.Code != agui.CodeSerialization {
				t.Fatalf("error %v, want a SERIALIZATION *Error", err)
			}
			if !strings.Contains(e.Message, tc.want) {
				t.Errorf("message %q does not mention %q", e.Message, tc.want)
			}
			if string(out) != "x" {
				t.Errorf("dst changed to %q", out)
			}
		})
	}
}

// frameOf marshals an envelope built by hand into a frame.
func frameOf(t *testing.T, env *pb.Event) []byte {
	t.Helper()
	b, err := proto.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}

func TestDecodeProtoRejects(t *testing.T) {
	good, err := agui.AppendProto(nil, &agui.TextMessageEnd{MessageID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	base := func(typ pb.EventType) *pb.BaseEvent { return &pb.BaseEvent{Type: typ} }
	snapshot := func(m *pb.Message) []byte {
		return frameOf(t, &pb.Event{Event: &pb.Event_MessagesSnapshot{MessagesSnapshot: &pb.MessagesSnapshotEvent{
			BaseEvent: base(pb.EventType_MESSAGES_SNAPSHOT), Messages: []*pb.Message{m}}}})
	}
	text := "t"
	parts := []*pb.InputContent{{Part: &pb.InputContent_Text{Text: &pb.TextInputPart{Text: "p"}}}}
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"empty", nil, "shorter than its 4-byte length prefix"},
		{"prefix too long", append(bytes.Clone(good), 0), "length prefix says"},
		{"prefix too short", good[:len(good)-1], "length prefix says"},
		{"over the limit", []byte{0xff, 0xff, 0xff, 0xff}, "exceeds the 10 MiB limit"},
		{"malformed", []byte{0, 0, 0, 2, 0x0a, 0x05}, "malformed event"},
		{"no arm", []byte{0, 0, 0, 0}, "no known event"},
		{"unknown arm only", []byte{0, 0, 0, 3, 0xc2, 0x02, 0x00}, "no known event"},
		{"no base event", frameOf(t, &pb.Event{Event: &pb.Event_TextMessageEnd{TextMessageEnd: &pb.TextMessageEndEvent{}}}),
			"carries no base_event"},
		{"base type disagrees", frameOf(t, &pb.Event{Event: &pb.Event_TextMessageEnd{TextMessageEnd: &pb.TextMessageEndEvent{
			BaseEvent: base(pb.EventType_TEXT_MESSAGE_START)}}}),
			"envelope carries TEXT_MESSAGE_END but the base event declares TEXT_MESSAGE_START"},
		{"unknown role", snapshot(&pb.Message{Id: "m", Role: "robot"}), `unknown message role "robot"`},
		{"string and parts", snapshot(&pb.Message{Id: "m", Role: "user", Content: &text, ContentParts: parts}),
			"both a string and content parts"},
		{"parts on assistant", snapshot(&pb.Message{Id: "m", Role: "assistant", ContentParts: parts}),
			"assistant message cannot carry content parts"},
		{"activity content on user", snapshot(&pb.Message{Id: "m", Role: "user", Content: &text,
			ActivityContent: &structpb.Struct{}}), "user message cannot carry activity content"},
		{"tool calls on user", snapshot(&pb.Message{Id: "m", Role: "user", Content: &text,
			ToolCalls: []*pb.ToolCall{{Id: "x"}}}), "user message cannot carry tool calls"},
		{"string on activity", snapshot(&pb.Message{Id: "m", Role: "activity", Content: &text}),
			"activity message cannot carry string content"},
		{"unknown outcome", frameOf(t, &pb.Event{Event: &pb.Event_RunFinished{RunFinished: &pb.RunFinishedEvent{
			BaseEvent: base(pb.EventType_RUN_FINISHED), Outcome: "skipped"}}}), `unknown run outcome "skipped"`},
		{"payload without outcome", frameOf(t, &pb.Event{Event: &pb.Event_RunFinished{RunFinished: &pb.RunFinishedEvent{
			BaseEvent: base(pb.EventType_RUN_FINISHED), PendingToolCallIds: []string{"tc"}}}}), "without an outcome"},
		{"pending on cancelled", frameOf(t, &pb.Event{Event: &pb.Event_RunFinished{RunFinished: &pb.RunFinishedEvent{
			BaseEvent: base(pb.EventType_RUN_FINISHED), Outcome: "cancelled", PendingToolCallIds: []string{"tc"}}}}),
			"cancelled outcome cannot carry"},
		{"unknown patch op", frameOf(t, &pb.Event{Event: &pb.Event_StateDelta{StateDelta: &pb.StateDeltaEvent{
			BaseEvent: base(pb.EventType_STATE_DELTA), Delta: []*pb.JsonPatchOperation{{Op: 9}}}}}), "unknown JSON Patch op 9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := agui.DecodeProto(tc.frame)
			var e *agui.Error
			if !errors.As(err, &e) || e.Code != agui.CodeSerialization {
				t.Fatalf("got %v, %v; want a SERIALIZATION *Error", ev, err)
			}
			if !strings.Contains(e.Message, tc.want) {
				t.Errorf("message %q does not mention %q", e.Message, tc.want)
			}
		})
	}
}

// FuzzDecodeProto checks that no frame makes DecodeProto panic, that every
// error is a SERIALIZATION error, and that whatever it accepts encodes
// again and then round-trips byte for byte.
func FuzzDecodeProto(f *testing.F) {
	for _, ev := range aguitest.Samples() {
		frame, err := agui.AppendProto(nil, ev)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(frame)
	}
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, frame []byte) {
		ev, err := agui.DecodeProto(frame)
		if err != nil {
			if agui.CodeOf(err) != agui.CodeSerialization {
				t.Fatalf("error %v is not a SERIALIZATION error", err)
			}
			return
		}
		// Decoding normalises (an empty optional string reads as absent, say);
		// after one pass, encoding and decoding must be stable.
		once, err := agui.AppendProto(nil, ev)
		if err != nil {
			t.Fatalf("decoded %s does not encode again: %v", ev.Type(), err)
		}
		back, err := agui.DecodeProto(once)
		if err != nil {
			t.Fatalf("our own frame for %s does not decode: %v", ev.Type(), err)
		}
		twice, err := agui.AppendProto(nil, back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once, twice) {
			t.Fatalf("%s is not stable:\n%x\n%x", ev.Type(), once, twice)
		}
	})
}

func BenchmarkAppendProto(b *testing.B) {
	ev := &agui.TextMessageContent{MessageID: "msg-1", Delta: "Hello, world"}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = agui.AppendProto(buf[:0], ev); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleAppendProto() {
	frame, err := agui.AppendProto(nil, &agui.TextMessageEnd{MessageID: "m1"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("length prefix % x, %d bytes follow\n", frame[:4], len(frame)-4)
	ev, err := agui.DecodeProto(frame)
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.Type(), ev.(*agui.TextMessageEnd).MessageID)
	// Output:
	// length prefix 00 00 00 0a, 10 bytes follow
	// TEXT_MESSAGE_END m1
}
