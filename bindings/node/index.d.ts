// Types of sqlite-parquet's Node.js helpers (index.js).
/** Absolute path of the extension's shared object (Linux x86-64 only). */
export function getLoadablePath(): string;
/** Loads the extension into a better-sqlite3 or node:sqlite database. */
export function load(db: { loadExtension(path: string): unknown }): void;
/** The package's version, the same as SQL parquet_version()'s "version". */
export const version: string;
