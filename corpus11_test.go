package agui_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/pb"
	"github.com/agui-go/agui/internal/sharedtest"
)

// The AG-UI 1.1 corpus (shared/fixtures/agui-1.1, beside the clone) is
// upstream data: these tests read it there, and fail without it when
// CI=true.

// TestProtoFreezeSlots holds agui.proto to the spec's protobuf ledger,
// proto-freeze.txt: every slot it lists, the three encryptedValueType
// slots of 1.1 among them, is in our schema with the ledger's number.
func TestProtoFreezeSlots(t *testing.T) {
	f, err := os.Open(sharedtest.Path(t, "fixtures/agui-1.1/proto-freeze.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		slot, num, ok := strings.Cut(line, " = ")
		want, err := strconv.Atoi(num)
		if !ok || err != nil {
			t.Fatalf("proto-freeze.txt: cannot read %q", line)
		}
		checked++
		if got, found := slotNumber(pb.File_agui_proto, slot); !found {
			t.Errorf("%s: not in agui.proto", slot)
		} else if got != want {
			t.Errorf("%s = %d in agui.proto, %d in proto-freeze.txt", slot, got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("proto-freeze.txt lists no slot")
	}
	t.Logf("%d slots of proto-freeze.txt checked", checked)
}

// slotNumber resolves a proto-freeze.txt name: Message.field,
// Message.Nested.field, Message.oneof.field or Enum.VALUE.
func slotNumber(file protoreflect.FileDescriptor, slot string) (int, bool) {
	parts := strings.Split(slot, ".")
	if e := file.Enums().ByName(protoreflect.Name(parts[0])); e != nil && len(parts) == 2 {
		if v := e.Values().ByName(protoreflect.Name(parts[1])); v != nil {
			return int(v.Number()), true
		}
		return 0, false
	}
	m := file.Messages().ByName(protoreflect.Name(parts[0]))
	for _, p := range parts[1 : len(parts)-1] {
		if m == nil {
			return 0, false
		}
		if nested := m.Messages().ByName(protoreflect.Name(p)); nested != nil {
			m = nested
		} else if m.Oneofs().ByName(protoreflect.Name(p)) == nil {
			return 0, false
		}
	}
	if m == nil {
		return 0, false
	}
	if fd := m.Fields().ByName(protoreflect.Name(parts[len(parts)-1])); fd != nil {
		return int(fd.Number()), true
	}
	return 0, false
}

// corpusStream reads one stream fixture of the conformance corpus.
func corpusStream(t *testing.T, name string) (stream []json.RawMessage, expect map[string]json.RawMessage) {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "fixtures/agui-1.1/conformance/streams/"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Stream []json.RawMessage          `json:"stream"`
		Expect map[string]json.RawMessage `json:"expect"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return fx.Stream, fx.Expect
}

// TestCorpusEncryptedValue replays the corpus's one stream with an
// encrypted value through our decoder and Verifier, as it is and with an
// encryptedValueType added to that event: both pass, the type survives
// JSON and protobuf, and a 1.0 client's copy ([agui.Downgrade10]) is the
// fixture's event again.
func TestCorpusEncryptedValue(t *testing.T) {
	stream, _ := corpusStream(t, "encrypted-value-unknown-entity-tolerated")
	for _, typed := range []bool{false, true} {
		var v agui.Verifier
		seen := false
		for i, raw := range stream {
			ev, err := agui.DecodeEvent(raw)
			if err != nil {
				t.Fatalf("event %d: %v", i, err)
			}
			if e, ok := ev.(*agui.ReasoningEncryptedValue); ok {
				seen = true
				if typed {
					e.EncryptedValueType = "anthropic.redacted_thinking"
				}
				checkEncryptedValueEvent(t, e, raw)
			}
			if err := v.Observe(ev); err != nil {
				t.Fatalf("typed=%v: event %d: %v", typed, i, err)
			}
		}
		if !seen {
			t.Fatal("the fixture has no REASONING_ENCRYPTED_VALUE")
		}
	}
}

func checkEncryptedValueEvent(t *testing.T, e *agui.ReasoningEncryptedValue, fixture json.RawMessage) {
	t.Helper()
	js, err := e.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := agui.DecodeEvent(js)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.(*agui.ReasoningEncryptedValue).EncryptedValueType; got != e.EncryptedValueType {
		t.Errorf("JSON round trip: type %q, want %q", got, e.EncryptedValueType)
	}
	frame, err := agui.AppendProto(nil, e)
	if err != nil {
		t.Fatal(err)
	}
	if back, err = agui.DecodeProto(frame); err != nil {
		t.Fatal(err)
	}
	if got := back.(*agui.ReasoningEncryptedValue).EncryptedValueType; got != e.EncryptedValueType {
		t.Errorf("protobuf round trip: type %q, want %q", got, e.EncryptedValueType)
	}
	down, err := agui.Downgrade10(e).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, down, fixture) {
		t.Errorf("the 1.0 client's copy\n %s\nis not the fixture's event\n %s", down, fixture)
	}
}

// TestCorpusVersionDeclarations checks ServedVersion against the corpus:
// a producer answering the request of current-peer-declares-protocol-version
// (a 1.1 client) states the version that fixture's RUN_STARTED states, and
// the same-version fixture, which a 1.1 client must take quietly, states
// what we serve a 1.1 client.
func TestCorpusVersionDeclarations(t *testing.T) {
	stream, expect := corpusStream(t, "current-peer-declares-protocol-version")
	var request struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(expect["request"], &request); err != nil || request.ProtocolVersion == "" {
		t.Fatalf("expect.request: %v (%s)", err, expect["request"])
	}
	if got, want := agui.ServedVersion(request.ProtocolVersion), runStartedVersion(t, stream[0]); got != want {
		t.Errorf("ServedVersion(%q) = %q; the fixture's producer states %q", request.ProtocolVersion, got, want)
	}
	stream, _ = corpusStream(t, "producer-declares-same-version-quiet")
	if got := runStartedVersion(t, stream[0]); got != agui.LatestProtocolVersion {
		t.Errorf("the same-version fixture states %q, LatestProtocolVersion is %q", got, agui.LatestProtocolVersion)
	}
}

func runStartedVersion(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	ev, err := agui.DecodeEvent(raw)
	if err != nil {
		t.Fatal(err)
	}
	rs, ok := ev.(*agui.RunStarted)
	if !ok {
		t.Fatalf("first event is %s", ev.Type())
	}
	return rs.ProtocolVersion
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var av, bv any
	if err := json.Unmarshal(a, &av); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &bv); err != nil {
		t.Fatal(err)
	}
	return mustMarshal(t, av) == mustMarshal(t, bv)
}
