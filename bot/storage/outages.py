"""PostgreSQL's outages as the bot tells them: which of asyncpg's errors mean the server
(or the way to it) is away, what the fleet's loops catch, and the one line an operator reads
for any of them (moved from ``postgres.py``, unchanged)."""

from __future__ import annotations

import socket
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from .causes import server_hint, server_words


def lost(error: BaseException, connection: Any = None) -> bool:
    """The server is gone or going, not the statement wrong: worth trying again later. A
    server that ends a session sends a FATAL message before it closes the socket: a query
    sent between the two meets asyncpg's InternalClientError on a connection closing.

    The one classification of an outage: the storage's operations, the fleet's lock,
    LISTEN and receiver connections all ask it (an outage is a WARNING line there, without
    a traceback), and :func:`cause` says it to the operator."""
    return isinstance(error, (OSError, asyncpg.PostgresConnectionError,
                              asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
                              asyncpg.CrashShutdownError, asyncpg.TooManyConnectionsError,
                              asyncpg.InternalClientError)) \
        or (isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)) \
        or (connection is not None and _closed(connection))


#: Whatever the database, or the way to it, raises: the server away, a connection lost
#: under an operation (asyncpg's InternalClientError, neither a PostgresError nor an
#: InterfaceError), a statement refused. What the fleet's loops (the shard locks, LISTEN,
#: the queue, a receiver's inserts) catch, say in one line (:func:`cause`, no traceback) and
#: try again; the outages among them are :func:`lost`.
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)

#: What an operator reads for asyncpg's errors that only say, in its own terms ("cannot
#: switch to state 12; another operation (2) is in progress", "connection is closed"), that
#: the connection went away under the operation.
CONNECTION_LOST = "the connection was lost"

#: asyncpg's reasons with what they usually mean.
_HINTS: tuple[tuple[type[BaseException], str], ...] = (
    (socket.gaierror, "unknown host: check DATABASE_URL"),
    (asyncpg.InvalidPasswordError, "check the user and password in DATABASE_URL"),
    (asyncpg.InvalidCatalogNameError, "create it (createdb), or fix DATABASE_URL"),
    (asyncpg.CannotConnectNowError, "the server is starting or stopping: try again"),
    (TimeoutError, "no answer in time: is the host right, and the server up?"),
    (ConnectionRefusedError, "is PostgreSQL running there, on that port?"),
)


def cause(error: BaseException, password: str = "") -> str:
    """asyncpg's reason in one line, what it usually means (a server's full disk too:
    :func:`.causes.server_hint`), and never ``password``; a connection lost under an
    operation is :data:`CONNECTION_LOST`."""
    if isinstance(error, asyncpg.InternalClientError) or (
            isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)):
        return CONNECTION_LOST
    served = server_hint(error)  # (a full disk: the server's words, then the operator's)
    text = server_words(error) if served else " ".join(str(error).split()) \
        or type(error).__name__
    if password:
        text = text.replace(password, "***")
    hint = next((hint for kind, hint in _HINTS if isinstance(error, kind)), served)
    return f"{text} ({hint})" if hint else text


def _closed(connection: Any) -> bool:
    try:
        return bool(connection.is_closed())
    except asyncpg.InterfaceError:  # the pool took it back already: it closed
        return True
