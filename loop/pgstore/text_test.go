package pgstore_test

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/pgstore"
)

// Ids, owners and titles PostgreSQL's text cannot hold (a NUL byte,
// bytes that are not UTF-8) are the caller's input, never an outage: a
// thread of such an id is not found, a save or a title of one is
// ErrUnstorable, and a forged cursor carrying one is a bad cursor.
func TestUnstorableText(t *testing.T) {
	s, _ := newStore(t)
	ctx := t.Context()
	for _, id := range []string{"a\x00b", "\xff"} {
		if _, _, err := s.Load(ctx, id); !errors.Is(err, loop.ErrNotFound) {
			t.Errorf("load %q: %v, want ErrNotFound", id, err)
		}
		if err := s.Delete(ctx, id); err != nil {
			t.Errorf("delete %q: %v", id, err)
		}
		title := "x"
		if _, err := s.UpdateThread(ctx, id, loop.ThreadUpdate{Title: &title}); !errors.Is(err, loop.ErrNotFound) {
			t.Errorf("update %q: %v, want ErrNotFound", id, err)
		}
		cp := &loop.Checkpoint{ThreadID: id, Status: loop.StatusIdle, Messages: []agui.Message{user("1")}}
		if _, err := s.Save(ctx, cp, 0, 0); !errors.Is(err, pgstore.ErrUnstorable) || errors.Is(err, pgstore.ErrUnavailable) {
			t.Errorf("save %q: %v, want ErrUnstorable", id, err)
		}
		cp.ThreadID, cp.Owner = "t", id
		if _, err := s.Save(ctx, cp, 0, 0); !errors.Is(err, pgstore.ErrUnstorable) {
			t.Errorf("save owned by %q: %v, want ErrUnstorable", id, err)
		}
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle}, 0, 0); err != nil {
		t.Fatal(err)
	}
	nul := "Oslo\x00"
	if _, err := s.UpdateThread(ctx, "t", loop.ThreadUpdate{Title: &nul}); !errors.Is(err, pgstore.ErrUnstorable) {
		t.Errorf("a title with a NUL: %v, want ErrUnstorable", err)
	}
	// A cursor's check is a checksum anyone can compute; one naming an
	// id with a NUL, or a time PostgreSQL cannot take, is refused.
	for _, body := range []string{"1.a\x00b", "-9223372036854775808.t", "9223372036854775807.t"} {
		if _, err := s.Threads(ctx, "p", loop.ThreadQuery{Cursor: forgeCursor(body)}); !errors.Is(err, loop.ErrBadCursor) {
			t.Errorf("cursor %q: %v, want ErrBadCursor", body, err)
		}
	}
}

// forgeCursor builds a cursor of body as the store does (see its
// encodeCursor): a check of four bytes of body's SHA-256, then body.
func forgeCursor(body string) string {
	sum := sha256.Sum256([]byte(body))
	return base64.RawURLEncoding.EncodeToString(append(sum[:4], body...))
}
