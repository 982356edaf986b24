"""A PostgreSQL database damaged on disk for real, as a failing disk or a bad copy leaves it:
the server itself finds the damage when it next reads the page, and refuses with its own
SQLSTATE and words, which asyncpg reads into its errors on the driver's real path.

:func:`damage_table` overwrites the header of a table's first page (its bounds no longer
possible): reading it is SQLSTATE XX001, data_corrupted, ``invalid page in block 0 of
relation base/16384/16397`` (asyncpg's ``DataCorruptedError``). :func:`damage_index` zeroes
a B-tree index's first page, its metapage: any use of the index (a lookup, an insert) is
XX002, index_corrupted, ``index "games_pkey" contains unexpected zero page at block 0``
(``IndexCorruptedError``); ``REINDEX`` repairs it.

The server is shut down cleanly first (every page written out, no WAL to replay over the
damage) and started again after, so that no page is in its memory: what a bot on it holds
in its pool are connections the restart ended, which it makes anew. Pages are written as the
files' owner would (under root the server's files are ``postgres``'s, root writes them).
"""

from __future__ import annotations

import re

import asyncpg  # type: ignore[import-untyped]

from .postgres import PostgresServer

PAGE = 8192  # PostgreSQL's block size (BLCKSZ), unless built otherwise
#: The page header's size: pd_lsn, pd_checksum, pd_flags, pd_lower, pd_upper, pd_special,
#: pd_pagesize_version, pd_prune_xid.
HEADER = 24
#: What the server says reading a table's page damaged so.
TABLE_WORDS = re.compile(r"invalid page in block 0 of relation base/\d+/\d+")


async def damage_table(server: PostgresServer, url: str, table: str) -> str:
    """Overwrite the header of ``table``'s first page in the database at ``url`` (a page
    that holds rows: the table must not be empty); returns the file's path in the data
    folder as the server names it (``base/16384/16397``)."""
    path = await _file(url, table)
    server.shut_down()
    try:
        with (server.data / path).open("r+b") as file:
            assert len(file.read(PAGE)) == PAGE, f"{table} holds no page"
            file.seek(0)
            file.write(b"\xff" * HEADER)  # no flag known, pd_lower past pd_upper, ...
    finally:
        server.start()
    return path


async def damage_index(server: PostgresServer, url: str, index: str) -> str:
    """Zero the metapage of the B-tree ``index`` in the database at ``url`` (a page of
    zeros passes the page check, but no B-tree has one there); returns its file's path."""
    path = await _file(url, index)
    server.shut_down()
    try:
        with (server.data / path).open("r+b") as file:
            file.write(b"\x00" * PAGE)
    finally:
        server.start()
    return path


async def _file(url: str, relation: str) -> str:
    connection = await asyncpg.connect(url)
    try:
        path = await connection.fetchval("SELECT pg_relation_filepath($1::regclass)", relation)
    finally:
        await connection.close()
    assert isinstance(path, str), f"no relation {relation}"
    return path
