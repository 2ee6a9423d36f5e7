// The side-by-side comparison with DuckDB-Wasm (@duckdb/duckdb-wasm, a test dependency of
// tests/wasm) run by browser_test.mjs in the same headless Chromium, against the same
// loopback server and files: the download size of each engine (its .wasm, raw and gzipped,
// and the JavaScript it loads), the time from a fresh page to the first result of a point
// lookup over the big file's URL and of an aggregate over a local File, and the bytes of the
// file each fetched for the lookup. Each engine runs RUNS times, alternating, each time in a
// fresh page; the medians are compared. Ratios go to docs/benchmarks.md.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const RUNS = Number(process.env.WASM_COMPARE_RUNS ?? 3);

function sizes(files) {
  let raw = 0, gzipped = 0;
  for (const file of files) {
    raw += statSync(file).size;
    gzipped += gzipSync(readFileSync(file), { level: 9 }).length;
  }
  return { raw, gzipped };
}

const median = (values) => values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function compareWithDuckdb({ browser, origin, pkg, here, dataBytes, probeId, expected, localAggregate, bigSize }) {
  const dist = join(here, "node_modules/@duckdb/duckdb-wasm/dist");
  const size = {
    ours: { wasm: sizes([join(pkg, "sqlite-parquet.wasm")]),
            js: sizes(["sqlite-parquet.mjs", "api.mjs", "worker.mjs"].map((name) => join(pkg, name))) },
    duckdb: { wasm: sizes([join(dist, "duckdb-eh.wasm")]),
              js: sizes([join(dist, "duckdb-browser.mjs"), join(dist, "duckdb-browser-eh.worker.js"),
                         join(here, "node_modules/apache-arrow/Arrow.es2015.min.js")]) },
  };
  const params = { url: `${origin}/data/big.parquet`, id: probeId, localUrl: `${origin}/data/local.parquet` };
  const times = { ours: { lookup: [], aggregate: [] }, duckdb: { lookup: [], aggregate: [] } };
  const fetched = { ours: [], duckdb: [] };
  const checks = [];
  const wrong = { ours: [], duckdb: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const engine of ["ours", "duckdb"]) {
      for (const kind of ["lookup", "aggregate"]) {
        const page = await browser.newPage();
        try {
          await page.goto(`${origin}/compare/compare.html`, { waitUntil: "load" });
          await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
          const before = dataBytes().filter((entry) => entry.path === "/data/big.parquet").reduce((s, e) => s + e.bytes, 0);
          const result = await page.evaluate((e, k, p) => window.bench[e](k, p), engine, kind, params);
          times[engine][kind].push(result.ms);
          if (kind === "lookup") {
            const after = dataBytes().filter((entry) => entry.path === "/data/big.parquet").reduce((s, e) => s + e.bytes, 0);
            fetched[engine].push(after - before);
            if (result.rows.join() !== expected) wrong[engine].push(`lookup: ${result.rows.join().slice(0, 60)}`);
          } else {
            // DuckDB prints sums of doubles its own way: compare the numbers.
            const norm = (lines) => lines.map((line) => line.split(":").map(Number).join(":")).join("\n");
            if (norm(result.rows) !== norm(localAggregate.split("\n"))) wrong[engine].push(`aggregate: ${result.rows.slice(0, 2).join(" ")}`);
          }
        } catch (error) {
          wrong[engine].push(`${kind}: ${error.message}`);
        } finally {
          await page.close();
        }
      }
    }
  }
  checks.push(["comparison: ours gives the expected results", wrong.ours.length === 0, wrong.ours.slice(0, 2).join("; ").slice(0, 400)]);
  checks.push(["comparison: our wasm is smaller than DuckDB-Wasm's, raw and gzipped",
               size.ours.wasm.raw < size.duckdb.wasm.raw && size.ours.wasm.gzipped < size.duckdb.wasm.gzipped,
               `${size.ours.wasm.raw} / ${size.duckdb.wasm.raw} raw, ${size.ours.wasm.gzipped} / ${size.duckdb.wasm.gzipped} gzipped`]);
  // DuckDB-Wasm's own failures are reported, not counted: its 1.4 builds fetch the parquet
  // extension from extensions.duckdb.org at run time, which a machine without internet
  // access refuses (docs/benchmarks.md says which numbers that leaves out).
  const duckdbFailure = wrong.duckdb.length > 0 ? `DuckDB-Wasm could not run here: ${wrong.duckdb.slice(0, 2).join("; ").slice(0, 400)}` : "";
  const report = {
    runs: RUNS,
    big_file_bytes: bigSize,
    size,
    ms: Object.fromEntries(Object.entries(times).map(([e, t]) => [e, { lookup: median(t.lookup), aggregate: median(t.aggregate), all: t }])),
    lookup_bytes_fetched: { ours: median(fetched.ours), duckdb: median(fetched.duckdb) },
  };
  const ratio = (a, b) => (b / a).toFixed(2);
  report.ratios = {
    wasm_raw: ratio(size.ours.wasm.raw, size.duckdb.wasm.raw),
    wasm_gzipped: ratio(size.ours.wasm.gzipped, size.duckdb.wasm.gzipped),
    lookup_time: ratio(report.ms.ours.lookup, report.ms.duckdb.lookup),
    aggregate_time: ratio(report.ms.ours.aggregate, report.ms.duckdb.aggregate),
    lookup_bytes: ratio(report.lookup_bytes_fetched.ours, report.lookup_bytes_fetched.duckdb),
  };
  const text = [
    "comparison with DuckDB-Wasm (median of " + RUNS + " cold runs each; ratio = DuckDB / ours):",
    `  wasm raw:            ours ${size.ours.wasm.raw}  duckdb ${size.duckdb.wasm.raw}  ratio ${report.ratios.wasm_raw}`,
    `  wasm gzipped:        ours ${size.ours.wasm.gzipped}  duckdb ${size.duckdb.wasm.gzipped}  ratio ${report.ratios.wasm_gzipped}`,
    `  js raw/gzipped:      ours ${size.ours.js.raw}/${size.ours.js.gzipped}  duckdb ${size.duckdb.js.raw}/${size.duckdb.js.gzipped}`,
    `  lookup first result: ours ${report.ms.ours.lookup.toFixed(0)} ms  duckdb ${report.ms.duckdb.lookup.toFixed(0)} ms  ratio ${report.ratios.lookup_time}`,
    `  local aggregate:     ours ${report.ms.ours.aggregate.toFixed(0)} ms  duckdb ${report.ms.duckdb.aggregate.toFixed(0)} ms  ratio ${report.ratios.aggregate_time}`,
    `  lookup bytes:        ours ${report.lookup_bytes_fetched.ours}  duckdb ${report.lookup_bytes_fetched.duckdb}  ratio ${report.ratios.lookup_bytes}`,
  ].join("\n") + (duckdbFailure ? `\n  ${duckdbFailure}` : "");
  report.duckdb_failure = duckdbFailure || null;
  return { checks, report, text };
}
