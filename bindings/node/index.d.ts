// Types of sqlite-parquet's Node.js helpers (index.js).
/**
 * Absolute path of the extension's shared object for a platform and architecture (by
 * default the running process's: process.platform, process.arch). Throws an Error naming
 * the platforms the package carries when it has no build for that one.
 */
export function getLoadablePath(platform?: string, arch?: string): string;
/** The "platform-arch" names of the builds this package carries, e.g. ["linux-arm64", "linux-x64"]. */
export function availablePlatforms(): string[];
/** Loads the extension into a better-sqlite3 or node:sqlite database. */
export function load(db: { loadExtension(path: string): unknown }): void;
/** The package's version, the same as SQL parquet_version()'s "version". */
export const version: string;
