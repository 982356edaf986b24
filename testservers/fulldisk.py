"""A PostgreSQL server whose disk is full, as far as a bot on it can tell: while filled
(:meth:`FullDisk.fill`), every write into its tables is refused by the server itself with
SQLSTATE 53100 (disk_full) and PostgreSQL's own words, which asyncpg reads into its
``DiskFullError`` on the driver's real path (a statement-level trigger raises it; filling a real
disk needs a filesystem of its own). Reads go on, as on a real full disk. Each refusal is
counted in a sequence, which no rollback undoes.
"""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]

#: What PostgreSQL says when a table's file cannot grow (md.c's mdextend).
WORDS = 'could not extend file "base/16384/16397": No space left on device'
#: The storage's one line for it, after ``cannot use the database NAME: ``.
CAUSE = f"{WORDS} (free some disk space on the PostgreSQL server)"

_INSTALL = f"""
CREATE TABLE test_disk (is_full boolean NOT NULL);
INSERT INTO test_disk VALUES (false);
CREATE SEQUENCE test_disk_refusals;
CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT is_full FROM test_disk) THEN
        PERFORM nextval('test_disk_refusals');
        RAISE EXCEPTION USING ERRCODE = 'disk_full', MESSAGE = '{WORDS.replace("'", "''")}',
            HINT = 'Check free disk space.';
    END IF;
    RETURN NULL;
END $$;
DO $$
DECLARE name text;
BEGIN
    FOR name IN SELECT tablename FROM pg_tables
                WHERE schemaname = current_schema() AND tablename <> 'test_disk' LOOP
        EXECUTE format('CREATE TRIGGER test_disk_full BEFORE INSERT OR UPDATE OR DELETE OR '
                       'TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION test_disk_full()',
                       name);
    END LOOP;
END $$;
"""


class FullDisk:
    """The disk of the database at ``url`` (its tables made: install after the migrations)."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def _run(self, sql: str) -> object:
        connection = await asyncpg.connect(self.url)
        try:
            return await connection.fetchval(sql)
        finally:
            await connection.close()

    async def install(self) -> None:
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(_INSTALL)  # (a script: no prepared statement)
        finally:
            await connection.close()

    async def fill(self, full: bool = True) -> None:
        await self._run(f"UPDATE test_disk SET is_full = {str(full).lower()}")

    async def refusals(self) -> int:
        """How many writes the full disk refused so far."""
        counted = await self._run(
            "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM test_disk_refusals")
        assert isinstance(counted, int)
        return counted
