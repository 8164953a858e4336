package pgmigrate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// DB is what Apply needs of a pool or a connection: a transaction.
// [*github.com/jackc/pgx/v5/pgxpool.Pool] and [*pgx.Conn] are both one.
type DB interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// lockKey is the advisory lock every component's migrations take: one
// key for all, as components share the version table.
const lockKey = 0x61677569 // "agui"

// Migration is one numbered file of a component.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Read returns the migrations in the migrations directory of fsys,
// ordered by version. Their names must start with a number and an
// underscore (0001_threads.sql), numbered from 1 without gaps.
func Read(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, name := range names {
		num, _, ok := strings.Cut(path.Base(name), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("pgmigrate: %s: a migration's name starts with its number and an underscore", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: path.Base(name), SQL: string(b)})
	}
	slices.SortFunc(out, func(a, b Migration) int { return a.Version - b.Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("pgmigrate: %s: migrations are numbered from 1 without gaps or repeats", m.Name)
		}
	}
	return out, nil
}

// Apply brings component's schema to the newest of fsys's migrations
// (see [Read]) and returns the version it is at.
func Apply(ctx context.Context, db DB, component string, fsys fs.FS) (int, error) {
	ms, err := Read(fsys)
	if err != nil {
		return 0, err
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(lockKey)); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS agui_schema_version (
		component  text PRIMARY KEY,
		version    integer NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return 0, err
	}
	var at int
	err = tx.QueryRow(ctx, "SELECT version FROM agui_schema_version WHERE component = $1", component).Scan(&at)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, err
	}
	if at >= len(ms) {
		return at, nil
	}
	for _, m := range ms[at:] {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return 0, fmt.Errorf("pgmigrate: %s %s: %w", component, m.Name, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO agui_schema_version (component, version) VALUES ($1, $2)
		ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version, applied_at = now()`, component, len(ms)); err != nil {
		return 0, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, err
	}
	return len(ms), nil
}
