// Package transcripts is the cache of decoded transcripts that the loop's
// stores on a server (loop/pgstore, loop/redisstore) keep per process: the
// transcript of each thread at the version the store last loaded or saved,
// so that its next load of that version reads the checkpoint without its
// messages, and a save over it encodes only what it adds.
//
//	c := transcripts.New(64 << 20)
//	c.Put("thread-1", &transcripts.Transcript{Version: v, Msgs: msgs, Size: encodedBytes})
//	if t := c.Get("thread-1"); t != nil && t.Version == stored {
//		msgs = t.Messages()
//	}
package transcripts
