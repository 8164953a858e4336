// Package redisstore keeps the loop's thread checkpoints in Redis, so that
// several replicas of an app share their threads and a restart loses none:
// an approval paused on one replica is answered on another, and a run that
// died with its process is taken over once its lease runs out.
//
// Quick start:
//
//	client := redis.NewClient(&redis.Options{Addr: "localhost:6379"}) // or a ClusterClient, a FailoverClient…
//	defer client.Close()
//	store, err := redisstore.New(client, redisstore.WithKeyPrefix("myapp:loop:"), redisstore.WithIdleTTL(24*time.Hour))
//	agent, err := loop.New(provider, loop.WithTools(book), loop.WithCheckpoints(store))
//
// Each thread is one hash, at the [WithKeyPrefix] prefix + "{" + threadID + "}" (the braces
// are a Cluster hash tag, so whatever the store keeps for a thread lives in
// one slot). It holds the checkpoint without its transcript, encoded with
// loop.MarshalCheckpoint, each message of the transcript in a field of its
// own, and the version; a save is a Lua script that compares the version
// and writes atomically, which makes a thread's claim exclusive across
// processes. A save writes the messages past the kept count the loop
// passes (those the stored transcript holds, unchanged), so a turn of a
// long thread sends what it adds, not the transcript. A Store keeps the
// transcripts it last loaded or saved, decoded ([WithCacheBytes]), and
// a load of such a version reads the hash without its messages.
//
// The store is a loop.ThreadStore too: each thread's hash also holds what
// its owner's thread list shows (owner, title, archived flag, creation
// and last activity by Redis's clock, message count, status), and each
// owner has two sorted sets of thread ids by last activity, one for
// archived threads, at prefix + "threads:{o:" + owner + "}:live" and
// ":archived" (one hash tag per owner). A save writes the hash (one
// script) and then the owner's list (a second one: the two live in
// different slots of a Cluster), so listing a page reads one range of the
// set and the page's hashes, never a SCAN. Entries of threads that
// expired are dropped as a listing meets them, and a list expires with
// its threads. The lists need ZADD GT: Redis 6.2 or later.
//
// Durability is Redis's: for a restart of Redis between an approval's
// pause and its resume to lose nothing the store acknowledged, run Redis
// with the append-only file on and fsynced on every write:
//
//	appendonly yes
//	appendfsync always
//
// (appendfsync everysec, Redis's default with appendonly, can lose the last
// second of writes in a crash of the machine; without appendonly, RDB
// snapshots lose everything since the last one.) With replicas of Redis,
// a failover can lose acknowledged writes unless the client waits for them
// (the WAIT command); this store does not.
//
// Every key the store writes has a TTL ([WithIdleTTL], [WithAwaitingTTL],
// a running thread's lease plus the idle TTL) unless an option of 0 keeps
// it forever, so a client that never comes back pins nothing for good.
// Memory: a short thread (one request, one approved call, its answer:
// four messages) takes about 2.2 KB of Redis memory, its owner's list
// entry included, and a thread grows by its transcript's JSON plus about
// 60 bytes a message, each message being a field of the hash (measured
// on Redis 7.0.15: 1,000 such threads run through the loop, INFO
// memory's used_memory before and after, 2,212 bytes a thread; 1,985
// when the transcript was one field). Size maxmemory for the threads
// created over the TTLs, and set
//
//	maxmemory-policy noeviction
//
// so that a full Redis refuses new writes (the run fails with
// CHECKPOINT_ERROR, the next one works once keys expire) instead of
// silently dropping a thread waiting for an approval. volatile-ttl (every
// key has a TTL, so every key is a candidate) trades that for
// availability: Redis evicts the threads nearest their expiry and keeps
// taking new ones; allkeys-* policies would also evict other data of a
// shared Redis.
//
// Versions of a thread never repeat, even after a delete or an expiry: a
// save's new version is Redis's clock in microseconds when that is past
// the stored one plus one, so a writer still holding a version of a
// thread's earlier life cannot overwrite the thread created again.
//
// When Redis cannot be reached a call fails with an error wrapping
// [ErrUnavailable] (and the client's error), whose message names no address:
// the loop fails the run with CHECKPOINT_ERROR before any tool runs, and
// the next run, once Redis is back, works.
package redisstore
