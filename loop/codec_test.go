package loop

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// fullCheckpoint has every field of Checkpoint set, and one message of
// each role with every field set.
func fullCheckpoint(t *testing.T) *Checkpoint {
	t.Helper()
	meta := map[string]any{"k": "v", "n": json.Number("1.5"), "list": []any{"a", true}}
	cp := &Checkpoint{
		ThreadID:   "thread-1",
		Status:     StatusAwaitingApproval,
		LeaseUntil: time.Date(2026, 12, 1, 15, 4, 5, 123456789, time.UTC),
		Steps:      3,
		Usage:      Usage{InputTokens: 1, OutputTokens: 2, ReasoningTokens: 3, CachedInputTokens: 4, CacheWriteInputTokens: 5},
		Pending: &PendingApproval{InterruptID: "int-1", ToolCallID: "call-1",
			ExpiresAt: time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC),
			Decision:  &Decision{Approved: true, Reason: "ok", Args: json.RawMessage(`{"city":"Rome"}`), Expired: true, Answer: json.RawMessage(`{"chosen_time":"10:00"}`)},
			Question:  true},
		Attempts:        map[string]int{"call-1": 2},
		ClientCalls:     []string{"call-2"},
		Parked:          []*agui.ToolMessage{{ID: "p", Content: agui.TextContent("parked"), ToolCallID: "call-3"}},
		State:           json.RawMessage(`{"theme":"teal"}`),
		Owner:           "user:alice",
		Holder:          "hold-1",
		CancelRequested: true,
		Steer:           []agui.Message{&agui.UserMessage{ID: "steered", Content: agui.TextContent("and a museum")}},
		Messages: []agui.Message{
			&agui.DeveloperMessage{ID: "d", Content: "dev", Name: "n", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s"},
			&agui.SystemMessage{ID: "s", Content: "sys", Name: "n", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s"},
			&agui.UserMessage{ID: "u", Content: agui.TextContent("héllo \u2028 <b>"), Name: "n", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s"},
			&agui.AssistantMessage{ID: "a", Content: "calling", Name: "n", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s",
				ToolCalls: []agui.ToolCall{{ID: "call-1", Function: agui.FunctionCall{Name: "book", Arguments: `{"city":"Oslo"}`}, EncryptedValue: "e", Metadata: meta}}},
			&agui.ToolMessage{ID: "t", Content: agui.TextContent("result"), ToolCallID: "call-1", Error: "boom", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s"},
			&agui.ActivityMessage{ID: "act", ActivityType: "plan", Content: map[string]any{"step": "one"}, Metadata: meta, SubagentRunID: "s"},
			&agui.ReasoningMessage{ID: "r", Content: "thinking", EncryptedValue: "e", Metadata: meta, SubagentRunID: "s"},
		},
	}
	assertNoZeroField(t, reflect.ValueOf(*cp), "Checkpoint")
	return cp
}

// assertNoZeroField fails when a field of v (recursively through
// structs and pointers to structs) is zero: a field added to Checkpoint
// must be added to fullCheckpoint, so the round trip covers it.
func assertNoZeroField(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t.Errorf("%s is nil: set it in fullCheckpoint", path)
			return
		}
		assertNoZeroField(t, v.Elem(), path)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			if v.IsZero() {
				t.Errorf("%s is zero: set it in fullCheckpoint", path)
			}
			return
		}
		for i := range v.NumField() {
			assertNoZeroField(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	default:
		if v.IsZero() {
			t.Errorf("%s is zero: set it in fullCheckpoint", path)
		}
	}
}

func TestCheckpointCodecRoundTrip(t *testing.T) {
	cp := fullCheckpoint(t)
	data, err := MarshalCheckpoint(cp)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"format":1`) {
		t.Fatalf("no format field: %s", data)
	}
	got, err := UnmarshalCheckpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	if !got.LeaseUntil.Equal(cp.LeaseUntil) {
		t.Fatalf("lease %v, want %v", got.LeaseUntil, cp.LeaseUntil)
	}
	got.LeaseUntil = cp.LeaseUntil // same instant; the location may differ
	if !reflect.DeepEqual(got, cp) {
		t.Fatalf("round trip differs\n got %#v\nwant %#v", got, cp)
	}
	again, err := MarshalCheckpoint(got)
	if err != nil || string(again) != string(data) {
		t.Fatalf("second encoding differs (%v)\n%s\n%s", err, again, data)
	}
}

func TestCheckpointCodecEmpty(t *testing.T) {
	data, err := MarshalCheckpoint(&Checkpoint{ThreadID: "t", Status: StatusIdle})
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalCheckpoint(data)
	if err != nil || got.ThreadID != "t" || got.Status != StatusIdle || got.Messages != nil || got.Pending != nil || !got.LeaseUntil.IsZero() {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestCheckpointCodecRejects(t *testing.T) {
	for name, in := range map[string]string{
		"not json":       `{"format":1,`,
		"no format":      `{"ThreadID":"t"}`,
		"newer format":   `{"format":2,"ThreadID":"t"}`,
		"bad message":    `{"format":1,"Messages":[{"role":"nobody"}]}`,
		"wrong type":     `{"format":1,"Steps":"three"}`,
		"array":          `[]`,
		"message object": `{"format":1,"Messages":{"role":"user"}}`,
	} {
		if _, err := UnmarshalCheckpoint([]byte(in)); !errors.Is(err, ErrCheckpointFormat) {
			t.Errorf("%s: %v, want ErrCheckpointFormat", name, err)
		}
	}
	if _, err := MarshalCheckpoint(nil); err == nil {
		t.Error("nil checkpoint encoded")
	}
	if _, err := MarshalCheckpoint(&Checkpoint{Messages: []agui.Message{nil}}); err == nil {
		t.Error("nil message encoded")
	}
}

func FuzzUnmarshalCheckpoint(f *testing.F) {
	data, err := MarshalCheckpoint(&Checkpoint{ThreadID: "t", Messages: []agui.Message{UserText("hi")}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"format":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cp, err := UnmarshalCheckpoint(data)
		if err != nil {
			return
		}
		if _, err := MarshalCheckpoint(cp); err != nil {
			t.Fatalf("decoded checkpoint does not encode: %v", err)
		}
	})
}

// BenchmarkCheckpointCodec encodes and decodes a 40-message checkpoint.
func BenchmarkCheckpointCodec(b *testing.B) {
	cp := &Checkpoint{ThreadID: "bench", Status: StatusRunning, LeaseUntil: time.Now()}
	text := strings.Repeat("lorem ipsum ", 30)
	for i := range 10 {
		cp.Messages = append(cp.Messages, UserText(text),
			&agui.AssistantMessage{ID: "a", ToolCalls: []agui.ToolCall{{ID: "c", Function: agui.FunctionCall{Name: "search", Arguments: `{"q":"` + text + `"}`}}}},
			&agui.ToolMessage{ID: "t", ToolCallID: "c", Content: agui.TextContent(text)},
			&agui.AssistantMessage{ID: "b", Content: text})
		_ = i
	}
	data, err := MarshalCheckpoint(cp)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("marshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := MarshalCheckpoint(cp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := UnmarshalCheckpoint(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCheckpointCodecKeepsNilRaw: a decision without edited arguments and a
// thread without state read back as nil, not as the JSON null they are
// written as; an edit read back as "null" would be taken for arguments.
func TestCheckpointCodecKeepsNilRaw(t *testing.T) {
	in := &Checkpoint{ThreadID: "t", Status: StatusAwaitingApproval,
		Pending: &PendingApproval{InterruptID: "i", ToolCallID: "c", Decision: &Decision{Approved: true}}}
	data, err := MarshalCheckpoint(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalCheckpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != nil || got.Pending.Decision.Args != nil || got.Pending.Decision.Answer != nil {
		t.Fatalf("state %q, decision args %q, answer %q; want all nil", got.State, got.Pending.Decision.Args, got.Pending.Decision.Answer)
	}
}
