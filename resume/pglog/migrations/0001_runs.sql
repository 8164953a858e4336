-- A resumable run: its lease, its progress and what a reader needs to
-- know about it. route keeps routes sharing a database apart, as run ids
-- are only unique per route.
CREATE TABLE agui_run_log_runs (
    route       text COLLATE "C" NOT NULL,
    run_id      text COLLATE "C" NOT NULL,
    thread_id   text NOT NULL,
    principal   text NOT NULL,
    owner       text NOT NULL,
    gen         bigint NOT NULL,
    last        bigint NOT NULL DEFAULT 0,
    sealed      boolean NOT NULL DEFAULT false,
    stopped     boolean NOT NULL DEFAULT false,
    lease_until timestamptz NOT NULL,
    read_at     timestamptz,
    began_at    timestamptz NOT NULL,
    -- A running run lives the idle time past its last renewal (and at
    -- least half of it past its last append), a sealed one the retention
    -- time past its end; past it the run is gone for every call, and
    -- swept.
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (route, run_id)
);

-- A thread's active run for a principal: its newest run.
CREATE INDEX agui_run_log_runs_thread ON agui_run_log_runs (route, thread_id, principal, began_at DESC);
CREATE INDEX agui_run_log_runs_expiry ON agui_run_log_runs (expires_at);

-- A run's events, numbered 1, 2, 3, … with no gaps.
CREATE TABLE agui_run_log_entries (
    route    text COLLATE "C" NOT NULL,
    run_id   text COLLATE "C" NOT NULL,
    seq      bigint NOT NULL,
    data     bytea NOT NULL,
    terminal boolean NOT NULL,
    PRIMARY KEY (route, run_id, seq),
    FOREIGN KEY (route, run_id) REFERENCES agui_run_log_runs ON DELETE CASCADE
);
