-- An append in one round trip: the lease check, the entries not stored
-- yet, the run's progress and the readers' notification, in the
-- statement's own transaction. It answers OK, or the refusal's name
-- (NOTFOUND, FENCED, SEQCONFLICT, LOGFULL).
CREATE FUNCTION agui_run_log_append(p_route text, p_run text, p_gen bigint, p_first bigint,
    p_data bytea[], p_terminal boolean[], p_idle_ms bigint, p_max bigint, p_key text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n bigint := cardinality(p_data);
    skip bigint := 0;
BEGIN
    SELECT gen, last, sealed INTO r FROM agui_run_log_runs
    WHERE route = p_route AND run_id = p_run AND expires_at > clock_timestamp()
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'NOTFOUND';
    END IF;
    IF r.gen <> p_gen OR r.sealed THEN
        RETURN 'FENCED';
    END IF;
    IF p_first <= r.last THEN
        skip := r.last - p_first + 1;
    END IF;
    IF skip >= n THEN
        RETURN 'OK'; -- a retried batch, already stored
    END IF;
    IF p_first + skip <> r.last + 1 THEN
        RETURN 'SEQCONFLICT';
    END IF;
    IF r.last + n - skip > p_max AND NOT (p_terminal[n] AND n - skip = 1) THEN
        RETURN 'LOGFULL';
    END IF;
    INSERT INTO agui_run_log_entries (route, run_id, seq, data, terminal)
    SELECT p_route, p_run, p_first + i - 1, p_data[i], p_terminal[i]
    FROM generate_subscripts(p_data, 1) AS i
    WHERE i > skip;
    -- The expiry moves on only once half the idle time is used up, so
    -- that most appends change no indexed column and update the row in
    -- place (a HOT update), not the expiry index too.
    UPDATE agui_run_log_runs
    SET last = p_first + n - 1,
        expires_at = CASE WHEN expires_at < clock_timestamp() + p_idle_ms * interval '0.5 millisecond'
            THEN clock_timestamp() + p_idle_ms * interval '1 millisecond' ELSE expires_at END
    WHERE route = p_route AND run_id = p_run;
    -- Delivered when the transaction commits, never before the entries
    -- are visible.
    PERFORM pg_notify('agui_run_log', p_key);
    RETURN 'OK';
END
$$;
