package eino

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// recordingKV records the keys and TTLs it is asked to store.
type recordingKV struct {
	MemoryKV
	keys []string
	ttls []time.Duration
}

func (r *recordingKV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	r.keys, r.ttls = append(r.keys, key), append(r.ttls, ttl)
	return r.MemoryKV.Set(ctx, key, value, ttl)
}

func TestCheckPointStoreKeysAndTTL(t *testing.T) {
	kv := new(recordingKV)
	s, err := NewCheckPointStore(kv, WithKeyPrefix("app:"), WithTTL(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set(t.Context(), "thread-1", []byte("cp")); err != nil {
		t.Fatal(err)
	}
	if kv.keys[0] != "app:thread-1" || kv.ttls[0] != time.Hour {
		t.Fatalf("stored %v %v", kv.keys, kv.ttls)
	}
	b, ok, err := s.Get(t.Context(), "thread-1")
	if err != nil || !ok || string(b) != "cp" {
		t.Fatalf("get %q %v %v", b, ok, err)
	}
	if _, ok, _ := s.Get(t.Context(), "thread-2"); ok {
		t.Fatal("a missing checkpoint was found")
	}
	s.Set(t.Context(), "thread-1", nil) // what a completed run leaves
	if _, ok, err := s.Get(t.Context(), "thread-1"); ok || err != nil {
		t.Fatalf("an emptied checkpoint reads as one: %v %v", ok, err)
	}
	def, _ := NewCheckPointStore(kv)
	def.Set(t.Context(), "t", nil)
	if kv.keys[2] != "agui:eino:t" || kv.ttls[2] != 24*time.Hour {
		t.Fatalf("defaults %v %v", kv.keys, kv.ttls)
	}
	if _, err := NewCheckPointStore(nil); err == nil {
		t.Fatal("nil KV accepted")
	}
	if _, err := NewCheckPointStore(kv, WithTTL(-time.Second)); err == nil {
		t.Fatal("negative TTL accepted")
	}
}

// MemoryKV forgets an entry at its TTL, drops expired entries on a
// later Set, and keeps an entry without TTL.
func TestMemoryKVExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		var kv MemoryKV
		kv.Set(ctx, "short", []byte("a"), time.Minute)
		kv.Set(ctx, "forever", []byte("b"), 0)
		time.Sleep(time.Minute - time.Nanosecond)
		if _, ok, _ := kv.Get(ctx, "short"); !ok {
			t.Fatal("expired early")
		}
		time.Sleep(time.Nanosecond)
		if _, ok, _ := kv.Get(ctx, "short"); ok {
			t.Fatal("not expired at its TTL")
		}
		kv.Set(ctx, "other", nil, 0)
		if _, ok := kv.m["short"]; ok {
			t.Fatal("expired entry kept after a Set")
		}
		if v, ok, _ := kv.Get(ctx, "forever"); !ok || string(v) != "b" {
			t.Fatalf("forever %q %v", v, ok)
		}
	})
}
