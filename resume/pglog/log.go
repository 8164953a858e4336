package pglog

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/pgmigrate"
	"github.com/agui-go/agui/resume"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate creates or updates the log's tables in pool's database. It is
// idempotent and safe to call from every replica at once: an advisory
// lock lets one apply each migration. A [Log] on a database Migrate has
// not prepared fails every call.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	if _, err := pgmigrate.Apply(ctx, pool, "runlog", migrations); err != nil {
		return fmt.Errorf("pglog: migrate: %w", err)
	}
	return nil
}

// Log is a [resume.Log] on PostgreSQL: a row per run (its lease
// generation and expiry, last sequence number, sealed and stopped flags,
// latest read) and a row per event. Every write is a statement or a
// transaction that checks the lease generation under the run's row lock,
// so a stale owner cannot append after another replica took the run
// over; leases and expiry are times of the database's clock.
//
// A reader waiting for events (Read with a wait) is woken by NOTIFY,
// which an append sends in its transaction: one connection per Log,
// taken out of the pool at the first wait, listens until [Log.Close],
// and each waiter also gives up after [WithFollowWait], so a lost
// notification costs at most that.
//
// A Log is safe for concurrent use; it does not own its pool, and Close
// releases what it holds.
type Log struct {
	pool *pgxpool.Pool
	cfg  config
	note *notifier
}

type config struct {
	route      string
	idle       time.Duration
	retention  time.Duration
	followWait time.Duration
	maxEvents  int
}

// Option configures a [Log].
type Option func(*config)

// Defaults of the options.
const (
	DefaultIdleTTL    = 10 * time.Minute
	DefaultRetention  = 10 * time.Minute
	DefaultFollowWait = time.Second
	DefaultMaxEvents  = 100_000
)

// WithRoute names the route whose runs the log keeps (default ""): routes
// that share a database need distinct names, as run ids are only unique
// per route.
func WithRoute(name string) Option { return func(c *config) { c.route = name } }

// WithIdleTTL sets how long a running run lives without a renewal, and
// at least half of it without an append (default 10 minutes,
// [DefaultIdleTTL]).
func WithIdleTTL(d time.Duration) Option { return func(c *config) { c.idle = d } }

// WithRetention sets how long a sealed run stays readable (default 10
// minutes, [DefaultRetention]).
func WithRetention(d time.Duration) Option { return func(c *config) { c.retention = d } }

// WithFollowWait bounds one wait of a reader for new events (default 1 s,
// [DefaultFollowWait]): past it the reader looks again, whether or not a
// notification came.
func WithFollowWait(d time.Duration) Option { return func(c *config) { c.followWait = d } }

// WithMaxEvents limits the events kept per run (default 100,000,
// [DefaultMaxEvents]); past it, only the terminal event is accepted.
func WithMaxEvents(n int) Option { return func(c *config) { c.maxEvents = n } }

// New returns a [Log] on pool, whose database [Migrate] has prepared. It
// fails when pool is nil or an option is out of range; it does not
// contact the database.
func New(pool *pgxpool.Pool, opts ...Option) (*Log, error) {
	cfg := config{idle: DefaultIdleTTL, retention: DefaultRetention, followWait: DefaultFollowWait, maxEvents: DefaultMaxEvents}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	switch {
	case pool == nil:
		return nil, errors.New("pglog: New needs a pool")
	case cfg.idle < time.Millisecond || cfg.retention < time.Millisecond:
		return nil, errors.New("pglog: IdleTTL and Retention must be at least 1ms")
	case cfg.followWait < time.Millisecond:
		return nil, errors.New("pglog: FollowWait must be at least 1ms")
	case cfg.maxEvents <= 0:
		return nil, errors.New("pglog: MaxEvents must be positive")
	}
	return &Log{pool: pool, cfg: cfg, note: newNotifier(pool)}, nil
}

var _ resume.Log = (*Log)(nil)

// Close ends the Log's listening connection, if a wait started one, and
// waits for its goroutine. Readers waiting then, or after, wait their
// follow wait out. It returns nil.
func (l *Log) Close() error {
	l.note.stop()
	return nil
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// statusColumns are a run's status, then the database's clock.
const statusColumns = `thread_id, principal, owner, gen, last, sealed, stopped, lease_until, read_at, clock_timestamp()`

// live is the condition of a run that has not expired.
const live = `expires_at > clock_timestamp()`

// scanStatus reads statusColumns.
func scanStatus(run string, row pgx.Row) (resume.RunStatus, error) {
	var (
		st         = resume.RunStatus{RunMeta: resume.RunMeta{RunID: run}, SinceRead: -1}
		gen, last  int64
		lease, now time.Time
		read       *time.Time
	)
	err := row.Scan(&st.ThreadID, &st.Principal, &st.Owner, &gen, &last, &st.Sealed, &st.Stopped, &lease, &read, &now)
	if err != nil {
		return st, err
	}
	st.Gen, st.Last = uint64(gen), uint64(last)
	st.LeaseExpired = !st.Sealed && !lease.After(now)
	if read != nil {
		st.SinceRead = max(0, now.Sub(*read))
	}
	return st, nil
}

// Begin implements [resume.Log]. It also deletes up to 100 expired runs,
// so a database's log holds the runs of the last retention time and the
// running ones, without a job of its own.
func (l *Log) Begin(ctx context.Context, m resume.RunMeta, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	var st resume.RunStatus
	var exists bool
	err := pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM agui_run_log_runs WHERE ctid IN
			(SELECT ctid FROM agui_run_log_runs WHERE expires_at <= clock_timestamp() LIMIT 100)`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM agui_run_log_runs WHERE route = $1 AND run_id = $2 AND expires_at <= clock_timestamp()`,
			l.cfg.route, m.RunID); err != nil {
			return err
		}
		var err error
		st, err = scanStatus(m.RunID, tx.QueryRow(ctx, `INSERT INTO agui_run_log_runs
			(route, run_id, thread_id, principal, owner, gen, lease_until, began_at, expires_at)
			SELECT $1, $2, $3, $4, $5, 1, now + $6 * interval '1 millisecond', now, now + $7 * interval '1 millisecond'
			FROM (SELECT clock_timestamp() AS now) c
			ON CONFLICT (route, run_id) DO NOTHING
			RETURNING `+statusColumns, l.cfg.route, m.RunID, m.ThreadID, m.Principal, m.Owner, ms(ttl), ms(l.cfg.idle)))
		if errors.Is(err, pgx.ErrNoRows) {
			exists = true
			st, err = l.status(ctx, tx, m.RunID, false)
		}
		return err
	})
	if err != nil {
		return resume.Lease{}, st, l.err(err)
	}
	if exists {
		return resume.Lease{}, st, agui.NewError(resume.CodeRunExists, "run "+m.RunID+" exists")
	}
	return resume.Lease{RunID: m.RunID, Owner: m.Owner, Gen: st.Gen}, st, nil
}

// Append implements [resume.Log]: one call of the function
// agui_run_log_append (the schema's second migration), which locks the
// run's row, checks the lease, inserts the entries not stored yet and
// notifies the run's waiting readers, in one round trip.
func (l *Log) Append(ctx context.Context, lease resume.Lease, entries []resume.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	data := make([][]byte, len(entries))
	term := make([]bool, len(entries))
	for i, e := range entries {
		if e.Seq != entries[0].Seq+uint64(i) || (e.Terminal && i != len(entries)-1) {
			return agui.NewError(resume.CodeSeqConflict, "entries must be contiguous and end at a terminal entry")
		}
		data[i], term[i] = e.Data, e.Terminal
	}
	var res string
	err := l.pool.QueryRow(ctx, `SELECT agui_run_log_append($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		l.cfg.route, lease.RunID, int64(lease.Gen), int64(entries[0].Seq), data, term,
		ms(l.cfg.idle), int64(l.cfg.maxEvents), l.note.key(l.cfg.route, lease.RunID)).Scan(&res)
	if err != nil {
		return l.err(err)
	}
	switch res {
	case "OK":
		return nil
	case "NOTFOUND":
		return agui.NewError(resume.CodeRunNotFound, "no run "+lease.RunID)
	case "FENCED":
		return agui.NewError(resume.CodeFenced, "the lease is no longer valid")
	case "SEQCONFLICT":
		return agui.NewError(resume.CodeSeqConflict, "entries must follow the last entry")
	case "LOGFULL":
		return agui.NewError(resume.CodeLogFull, "the run has too many events")
	}
	return agui.NewError(resume.CodeStoreUnavailable, "pglog: append answered "+res)
}

// leased runs a conditional update of a run under lease, returning its
// status; when no row matched it tells an unknown run from a lost lease.
func (l *Log) leased(ctx context.Context, lease resume.Lease, set string, args ...any) (resume.RunStatus, error) {
	st, err := scanStatus(lease.RunID, l.pool.QueryRow(ctx, `UPDATE agui_run_log_runs SET `+set+`
		WHERE route = $1 AND run_id = $2 AND gen = $3 AND NOT sealed AND `+live+`
		RETURNING `+statusColumns, append([]any{l.cfg.route, lease.RunID, int64(lease.Gen)}, args...)...))
	if !errors.Is(err, pgx.ErrNoRows) {
		return st, l.err(err)
	}
	if _, err := l.Status(ctx, lease.RunID); err != nil {
		return st, err
	}
	return st, agui.NewError(resume.CodeFenced, "the lease is no longer valid")
}

// Renew implements [resume.Log].
func (l *Log) Renew(ctx context.Context, lease resume.Lease, ttl time.Duration) (resume.RunStatus, error) {
	return l.leased(ctx, lease, `lease_until = clock_timestamp() + $4 * interval '1 millisecond',
		expires_at = clock_timestamp() + $5 * interval '1 millisecond'`, ms(ttl), ms(l.cfg.idle))
}

// Seal implements [resume.Log].
func (l *Log) Seal(ctx context.Context, lease resume.Lease) error {
	_, err := l.leased(ctx, lease, `sealed = true, expires_at = clock_timestamp() + $4 * interval '1 millisecond'`, ms(l.cfg.retention))
	if err == nil {
		// A reader waiting on a sealed run stops waiting.
		_, err = l.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, l.note.key(l.cfg.route, lease.RunID))
		err = l.err(err)
	}
	return err
}

// status reads a run's status on q, recording a read when touch is set.
func (l *Log) status(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, run string, touch bool) (resume.RunStatus, error) {
	query := `SELECT ` + statusColumns + ` FROM agui_run_log_runs WHERE route = $1 AND run_id = $2 AND ` + live
	if touch {
		query = `UPDATE agui_run_log_runs SET read_at = clock_timestamp() WHERE route = $1 AND run_id = $2 AND ` + live +
			` RETURNING ` + statusColumns
	}
	st, err := scanStatus(run, q.QueryRow(ctx, query, l.cfg.route, run))
	if errors.Is(err, pgx.ErrNoRows) {
		return st, agui.NewError(resume.CodeRunNotFound, "no run "+run)
	}
	return st, l.err(err)
}

// Status implements [resume.Log].
func (l *Log) Status(ctx context.Context, run string) (resume.RunStatus, error) {
	return l.status(ctx, l.pool, run, false)
}

// Read implements [resume.Log].
func (l *Log) Read(ctx context.Context, run string, after uint64, max int, wait time.Duration) ([]resume.Entry, resume.RunStatus, error) {
	if max <= 0 {
		max = 1
	}
	st, err := l.status(ctx, l.pool, run, true)
	if err != nil {
		return nil, st, err
	}
	if after > st.Last {
		return nil, st, agui.NewError(resume.CodeCursorAhead, "the cursor is beyond the run's last event")
	}
	if after < st.Last || st.Sealed || wait <= 0 {
		es, err := l.entries(ctx, run, after, max)
		return es, st, err
	}
	// Subscribe, then look: an append that commits after the look
	// notifies the subscription; one before it is seen by the look.
	sub := l.note.subscribe(ctx, l.note.key(l.cfg.route, run))
	defer sub.close()
	es, err := l.entries(ctx, run, after, max)
	if err != nil || len(es) > 0 {
		return es, st, err
	}
	timer := time.NewTimer(min(wait, l.cfg.followWait))
	defer timer.Stop()
	for {
		select {
		case <-sub.wake:
		case <-timer.C:
			return nil, st, nil
		case <-ctx.Done():
			return nil, st, nil
		}
		// A notification of an append this reader had already seen
		// (sent before it subscribed, delivered after) finds nothing:
		// wait on.
		if es, err = l.entries(ctx, run, after, max); err != nil || len(es) > 0 {
			return es, st, err
		}
	}
}

// entries reads up to max entries of run past after.
func (l *Log) entries(ctx context.Context, run string, after uint64, max int) ([]resume.Entry, error) {
	rows, err := l.pool.Query(ctx, `SELECT seq, data, terminal FROM agui_run_log_entries
		WHERE route = $1 AND run_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`, l.cfg.route, run, int64(after), max)
	if err != nil {
		return nil, l.err(err)
	}
	es, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (resume.Entry, error) {
		var e resume.Entry
		var seq int64
		err := r.Scan(&seq, &e.Data, &e.Terminal)
		e.Seq = uint64(seq)
		return e, err
	})
	return es, l.err(err)
}

// Stop implements [resume.Log].
func (l *Log) Stop(ctx context.Context, run string) error {
	tag, err := l.pool.Exec(ctx, `UPDATE agui_run_log_runs SET stopped = true
		WHERE route = $1 AND run_id = $2 AND NOT sealed AND `+live, l.cfg.route, run)
	if err != nil {
		return l.err(err)
	}
	if tag.RowsAffected() == 0 {
		_, err = l.Status(ctx, run) // unknown, or sealed: no effect
	}
	return err
}

// Takeover implements [resume.Log]: one conditional update, so of many
// replicas taking an expired run over at once exactly one wins (the
// others, re-reading the row once the winner commits, find a live
// lease).
func (l *Log) Takeover(ctx context.Context, run, owner string, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	st, err := scanStatus(run, l.pool.QueryRow(ctx, `UPDATE agui_run_log_runs
		SET gen = gen + 1, owner = $3, lease_until = clock_timestamp() + $4 * interval '1 millisecond'
		WHERE route = $1 AND run_id = $2 AND NOT sealed AND lease_until <= clock_timestamp() AND `+live+`
		RETURNING `+statusColumns, l.cfg.route, run, owner, ms(ttl)))
	if err == nil {
		return resume.Lease{RunID: run, Owner: owner, Gen: st.Gen}, st, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return resume.Lease{}, st, l.err(err)
	}
	if st, err = l.Status(ctx, run); err != nil {
		return resume.Lease{}, st, err
	}
	if st.Sealed {
		return resume.Lease{}, st, agui.NewError(resume.CodeFenced, "the run is sealed")
	}
	return resume.Lease{}, st, agui.NewError(resume.CodeLeaseHeld, "the owner is alive")
}

// ActiveRun implements [resume.Log]: the thread's newest run of the
// principal, unless it is sealed.
func (l *Log) ActiveRun(ctx context.Context, threadID, principal string) (string, error) {
	if threadID == "" {
		return "", nil
	}
	var id string
	var sealed bool
	err := l.pool.QueryRow(ctx, `SELECT run_id, sealed FROM agui_run_log_runs
		WHERE route = $1 AND thread_id = $2 AND principal = $3 AND `+live+`
		ORDER BY began_at DESC LIMIT 1`, l.cfg.route, threadID, principal).Scan(&id, &sealed)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && sealed {
		return "", nil
	}
	if err != nil {
		return "", l.err(err)
	}
	return id, nil
}

// err passes a refusal on and makes anything else a failure to reach the
// store.
func (l *Log) err(err error) error {
	var ae *agui.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae):
		return err
	}
	return &agui.Error{Code: resume.CodeStoreUnavailable, Message: "pglog: " + err.Error(), Err: err}
}

// DeleteThread implements [resume.Log]: one DELETE of the principal's
// runs of the thread, their events going along by the foreign key.
func (l *Log) DeleteThread(ctx context.Context, threadID, principal string) error {
	_, err := l.pool.Exec(ctx, `DELETE FROM agui_run_log_runs WHERE route = $1 AND thread_id = $2 AND principal = $3`,
		l.cfg.route, threadID, principal)
	return l.err(err)
}
