-- A thread's checkpoint without its transcript, what the thread list
-- shows, and the version that makes a save exclusive.
CREATE TABLE agui_loop_threads (
    -- COLLATE "C": the list breaks ties by id in byte order, as Go compares.
    thread_id   text COLLATE "C" PRIMARY KEY,
    version     bigint NOT NULL,
    owner       text NOT NULL,
    status      text NOT NULL,
    lease_until timestamptz,
    -- loop.MarshalCheckpoint of the checkpoint with no messages.
    doc         bytea NOT NULL,
    -- The transcript's length, and a SHA-256 chain over its messages'
    -- encodings (see chain in store.go): a save compares it to tell
    -- whether the stored messages are a prefix of the new transcript.
    msg_count   integer NOT NULL,
    msg_head    bytea NOT NULL,
    title       text NOT NULL DEFAULT '',
    archived    boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- The thread list: a principal's threads, archived or not, newest
-- activity first; a page is one range scan of this index.
CREATE INDEX agui_loop_threads_list ON agui_loop_threads (owner, archived, updated_at DESC, thread_id DESC);

-- The transcript, one row per message in order, so that a save writes
-- only the messages that are new and a page of messages is a range scan.
CREATE TABLE agui_loop_messages (
    thread_id  text COLLATE "C" NOT NULL REFERENCES agui_loop_threads ON DELETE CASCADE,
    seq        integer NOT NULL,
    message_id text NOT NULL,
    -- The message's AG-UI JSON.
    data       bytea NOT NULL,
    PRIMARY KEY (thread_id, seq)
);

CREATE INDEX agui_loop_messages_id ON agui_loop_messages (thread_id, message_id);
