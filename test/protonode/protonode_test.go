// Package protonode_test checks our protobuf frames against the official
// decoder: every sample event (test/samples, plus the inputs of the shared
// null-omission fixture, which CI=true requires) is written as a frame
// (agui.AppendProto) and as JSON (AppendJSON), and decode.mjs decodes the frames with
// @ag-ui/proto@1.0.0 under Node and compares each with our JSON. It also
// encodes our JSON with the official encoder, and agui.DecodeProto must
// read those frames back into the events we started from. Events with the
// encryptedValueType of AG-UI 1.1 are among them: the 1.0 decoder must skip
// the field and read the rest, so their JSON is the 1.0 client's copy
// (agui.Downgrade10). Finally schema.mjs compares agui.proto with the
// official schema field by field.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing. It skips only when node is
// not on PATH, and fails then under CI=true.
package protonode_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/internal/sharedtest"
)

func TestOfficialDecoderReadsOurFrames(t *testing.T) {
	node := nodetest.Node(t, ".")

	dir := t.TempDir()
	var frames, lines []byte
	events := append(aguitest.Samples(), fixtureEvents(t)...)
	events = append(events, typedEvents()...)
	for _, ev := range events {
		var err error
		if frames, err = agui.AppendProto(frames, ev); err != nil {
			t.Fatalf("%s: AppendProto: %v", ev.Type(), err)
		}
		if lines, err = agui.Downgrade10(ev).AppendJSON(lines); err != nil {
			t.Fatalf("%s: AppendJSON: %v", ev.Type(), err)
		}
		lines = append(lines, '\n')
	}
	writeFile(t, filepath.Join(dir, "stream.bin"), frames)
	writeFile(t, filepath.Join(dir, "stream.jsonl"), lines)

	out, err := run(t.Context(), node, "decode.mjs", dir)
	if err != nil {
		t.Fatalf("node decode.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))

	// The other direction: agui.DecodeProto reads the official encoder's
	// frames for our JSON back into the events we started from.
	official, err := os.ReadFile(filepath.Join(dir, "official.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range events {
		want = agui.Downgrade10(want)
		if len(official) < 4 {
			t.Fatalf("official.bin ends before event %d", i)
		}
		n := 4 + int(binary.BigEndian.Uint32(official))
		if n > len(official) {
			t.Fatalf("official.bin: frame %d is cut short", i)
		}
		got, err := agui.DecodeProto(official[:n])
		official = official[n:]
		if err != nil {
			t.Errorf("#%d %s: DecodeProto of the official frame: %v", i, want.Type(), err)
			continue
		}
		if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
			t.Errorf("#%d %s: the official frame decodes to\n%s\nwant\n%s", i, want.Type(), g, w)
		}
	}
	if len(official) != 0 {
		t.Errorf("official.bin has %d bytes after the last event", len(official))
	}
}

// typedEvents carry the encryptedValueType of AG-UI 1.1 wherever it may
// appear.
func typedEvents() []agui.Event {
	return []agui.Event{
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1", EncryptedValue: "cmVk",
			EncryptedValueType: "anthropic.redacted_thinking"},
		&agui.MessagesSnapshot{Messages: []agui.Message{
			&agui.ReasoningMessage{ID: "r-1", Content: "", EncryptedValue: "c2ln", EncryptedValueType: "anthropic.thinking_signature"},
			&agui.AssistantMessage{ID: "a-1", Content: "hi", EncryptedValue: "YQ==", EncryptedValueType: "acme.message",
				ToolCalls: []agui.ToolCall{{ID: "tc-1", Function: agui.FunctionCall{Name: "f", Arguments: "{}"},
					EncryptedValue: "dGM=", EncryptedValueType: "acme.call"}}},
		}},
	}
}

// fixtureEvents decodes the input of every case of the cross-SDK
// null-omission fixture (shared/fixtures/null-omission.json, beside the
// clone), so that the official decoder also sees the fixture's events. It
// returns none, with a log line, when the fixture is absent, and fails t
// then under CI=true.
func fixtureEvents(t *testing.T) []agui.Event {
	t.Helper()
	nullOmissionFixture, ok := sharedtest.Optional(t, "fixtures/null-omission.json")
	if !ok {
		return nil
	}
	data, err := os.ReadFile(nullOmissionFixture)
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Stream []struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatalf("parse %s: %v", nullOmissionFixture, err)
	}
	var out []agui.Event
	for _, c := range fixture.Stream {
		ev, err := agui.DecodeEvent(c.Input)
		if err != nil {
			t.Fatalf("fixture case %s: %v", c.Name, err)
		}
		out = append(out, ev)
	}
	return out
}

// jsonOf is ev's JSON with object keys sorted, for comparing events.
func jsonOf(t *testing.T, ev agui.Event) string {
	t.Helper()
	b, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if b, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSchemaMatchesOfficial compares internal/pb/agui.proto with the
// schema @ag-ui/proto@1.0.0 was generated from: every field's name, number,
// type and presence, and every enum value, including the fields no sample
// event exercises.
func TestSchemaMatchesOfficial(t *testing.T) {
	node := nodetest.Node(t, ".")
	out, err := run(t.Context(), node, "schema.mjs", filepath.Join("..", "..", "internal", "pb", "agui.proto"))
	if err != nil {
		t.Fatalf("node schema.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))
}

// run runs a command in the package directory (go test's working
// directory) and returns its combined output.
func run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	return cmd.CombinedOutput()
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
