"""sqlite-parquet for Python: the self-contained SQLite extension (Parquet files as virtual
tables, parquet_copy, metadata functions) packaged with a helper to load it.

    import sqlite3, sqlite_parquet
    conn = sqlite3.connect(":memory:")
    sqlite_parquet.load(conn)
"""
import os
import sqlite3

from ._version import __version__

__all__ = ["__version__", "loadable_path", "load"]


def loadable_path() -> str:
    """Absolute path of the extension's shared object inside this package (for
    sqlite3.Connection.load_extension, the sqlite3 shell's .load, or other tools):
    parquet.dll in the Windows wheel, parquet.so in the Linux one."""
    name = "parquet.dll" if os.name == "nt" else "parquet.so"
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def load(conn: sqlite3.Connection) -> None:
    """Loads the extension into `conn`. Extension loading is enabled only for the call."""
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(False)
