// Package pgmigrate applies a component's embedded SQL migrations to a
// PostgreSQL database, once, in order, under an advisory lock, recording
// the component's schema version in the agui_schema_version table:
//
//	//go:embed migrations/*.sql
//	var migrations embed.FS
//
//	err := pgmigrate.Apply(ctx, pool, "loop", migrations) // idempotent, safe to run from every replica at once
//
// A component's migrations are the files migrations/NNNN_what.sql,
// numbered from 1 without gaps; version N of the component is the schema
// after file N. Apply runs the files past the recorded version in one
// transaction, so a failure leaves the schema as it was, and holds a
// transaction-scoped advisory lock while it does, so replicas starting
// at once apply each file exactly once. A database whose recorded version
// is past the files this release knows is left alone: migrations only
// add, so an older release keeps working on a newer schema during a
// rolling deploy.
package pgmigrate
