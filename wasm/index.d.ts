// TypeScript declarations of sqlite-parquet-wasm (wasm/api.mjs; docs/wasm.md).

/** A value of a row: INTEGER as number (bigint beyond 2^53), REAL, TEXT, BLOB or NULL. */
export type SqlValue = number | bigint | string | Uint8Array | null;
/** Bound parameters: by position (?1, ?2...) or by name (:name, @name, $name; the prefix may be left out). */
export type SqlParams = ReadonlyArray<SqlValue | boolean | undefined> | Record<string, SqlValue | boolean | undefined>;
export type Row = Record<string, SqlValue>;
export type RowArrays = SqlValue[][] & { readonly columns: string[] };
export type FileData = Blob | File | Uint8Array | ArrayBuffer;

export interface LoadOptions {
  /** Where sqlite-parquet.wasm is (default: beside api.mjs). */
  wasmUrl?: string | URL;
  /** Its bytes, instead of fetching them. */
  wasmBinary?: Uint8Array | ArrayBuffer;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export class SqliteError extends Error {
  /** SQLite's (extended) result code. */
  readonly code: number;
}

export class Database {
  /** Runs every statement of the SQL; rows are discarded. */
  exec(sql: string, params?: SqlParams): this;
  /** The rows as objects keyed by column name. */
  query(sql: string, params?: SqlParams): Row[];
  /** The rows as arrays; `columns` holds the column names. */
  queryArrays(sql: string, params?: SqlParams): RowArrays;
  /**
   * Makes the data readable as `name` (e.g. by `CREATE VIRTUAL TABLE t USING parquet('name')`). In a Worker a File or Blob
   * is read a slice at a time as queries need; elsewhere it is read into memory first.
   */
  registerFile(name: string, data: FileData): Promise<void>;
  /** The bytes of a file of the module's file system, e.g. what parquet_copy wrote. */
  readFile(path: string): Uint8Array;
  close(): void;
}

/** A connection: in memory, or from a database file's bytes. */
export function open(bytes?: Uint8Array | ArrayBuffer, options?: LoadOptions): Promise<Database>;

/** Instantiates the module (once); open() does it on first use. */
export function loadModule(options?: LoadOptions): Promise<unknown>;

/** sqlite_version() and parquet_version() (JSON text). */
export function versions(options?: LoadOptions): Promise<{ sqlite: string; parquet: string }>;

/** The Database API run in a Worker (browsers): every method returns a promise. */
export interface WorkerDatabase {
  exec(sql: string, params?: SqlParams): Promise<true>;
  query(sql: string, params?: SqlParams): Promise<Row[]>;
  queryArrays(sql: string, params?: SqlParams): Promise<RowArrays>;
  registerFile(name: string, data: FileData): Promise<true>;
  readFile(path: string): Promise<Uint8Array>;
  close(): Promise<void>;
  readonly worker: Worker;
}

export interface WorkerOptions {
  /** Where worker.mjs is (default: beside api.mjs). */
  workerUrl?: string | URL;
  wasmUrl?: string | URL;
}

/** open() in a dedicated module Worker. */
export function openWorker(bytes?: Uint8Array | ArrayBuffer, options?: WorkerOptions): Promise<WorkerDatabase>;
