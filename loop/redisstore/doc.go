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
// one slot). It holds the checkpoint, encoded with loop.MarshalCheckpoint,
// and its version; a save is a Lua script that compares and writes both
// atomically, which makes a thread's claim exclusive across processes.
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
// When Redis cannot be reached a call fails with an error wrapping
// [ErrUnavailable] (and the client's error), whose message names no address:
// the loop fails the run with CHECKPOINT_ERROR before any tool runs, and
// the next run, once Redis is back, works.
package redisstore
