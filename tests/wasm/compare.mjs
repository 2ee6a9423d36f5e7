// The side-by-side comparison with DuckDB-Wasm (@duckdb/duckdb-wasm, a test dependency of
// tests/wasm, pinned in package-lock.json to 1.28.0, the last release whose bundles have
// the parquet reader built in: later ones load it at run time from DuckDB's extension
// server, which a machine without internet access cannot reach) run by browser_test.mjs in
// the same headless Chromium, against the same loopback server and files: the download size
// of each engine (its .wasm, raw and gzipped, and the JavaScript it loads), the time from a
// fresh page to the first result of a point lookup over the big file's URL and of an
// aggregate over a local File (and of the query alone, once the engine is ready), and the
// bytes of the file each fetched for the lookup. Each engine runs RUNS times, alternating,
// each time in a fresh page; the medians are compared. Both engines must give the expected
// rows (a DuckDB-Wasm that cannot run fails the suite); the times and sizes are reported
// (docs/benchmarks.md), never asserted, but for the sizes of the two .wasm files.
import { existsSync, readFileSync, statSync } from "node:fs";
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

// A run that has not finished in this time failed (a DuckDB-Wasm whose Worker dies without
// answering would otherwise hang until puppeteer's 180 s protocol timeout, run after run).
const RUN_TIMEOUT_MS = Number(process.env.WASM_COMPARE_TIMEOUT_MS ?? 90000);
const withTimeout = (promise, what) => Promise.race([promise, new Promise((_, reject) =>
  setTimeout(() => reject(new Error(`${what}: no result within ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS).unref())]);
const median = (values) => values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function compareWithDuckdb({ browser, origin, pkg, here, dataBytes, probeId, expected, localAggregate, bigSize }) {
  const modules = join(here, "node_modules");
  const dist = join(modules, "@duckdb/duckdb-wasm/dist");
  // The DuckDB-Wasm package.json pins, and the one installed: missing or another version (a
  // later one would fetch its parquet reader from the internet) fails here, with its reason.
  const pinned = JSON.parse(readFileSync(join(here, "package.json"), "utf8")).dependencies["@duckdb/duckdb-wasm"];
  const installedManifest = join(modules, "@duckdb/duckdb-wasm/package.json");
  const duckdbPackage = existsSync(installedManifest) ? JSON.parse(readFileSync(installedManifest, "utf8")).version : null;
  const missing = ["duckdb-eh.wasm", "duckdb-browser.mjs", "duckdb-browser-eh.worker.js"].filter((name) => !existsSync(join(dist, name)));
  if (duckdbPackage !== pinned || missing.length > 0) {
    const why = duckdbPackage === null ? `@duckdb/duckdb-wasm is not installed in ${modules}`
      : duckdbPackage !== pinned ? `@duckdb/duckdb-wasm ${duckdbPackage} is installed, tests/wasm/package.json pins ${pinned}`
      : `@duckdb/duckdb-wasm ${duckdbPackage} lacks ${missing.join(", ")}`;
    const line = `comparison: DuckDB-Wasm cannot run: ${why} (scripts/install_node_packages.sh tests/wasm installs it from package-lock.json)`;
    return { checks: [[`comparison: DuckDB-Wasm ${pinned} is installed`, false, why]], report: { failures: { duckdb: [why] } }, text: line };
  }
  const size = {
    ours: { wasm: sizes([join(pkg, "sqlite-parquet.wasm")]),
            js: sizes(["sqlite-parquet.mjs", "api.mjs", "worker.mjs"].map((name) => join(pkg, name))) },
    duckdb: { wasm: sizes([join(dist, "duckdb-eh.wasm")]),
              js: sizes([join(dist, "duckdb-browser.mjs"), join(dist, "duckdb-browser-eh.worker.js"),
                         join(modules, "apache-arrow/Arrow.es2015.min.js")]) },
  };
  const params = { url: `${origin}/data/big.parquet`, id: probeId, localUrl: `${origin}/data/local.parquet` };
  const engines = ["ours", "duckdb"];
  const empty = () => ({ lookup: [], aggregate: [] });
  const times = { ours: empty(), duckdb: empty() };
  const startup = { ours: empty(), duckdb: empty() };
  const query = { ours: empty(), duckdb: empty() };
  const fetched = { ours: [], duckdb: [] };
  const requests = { ours: [], duckdb: [] };
  const versions = { ours: null, duckdb: null };
  const wrong = { ours: [], duckdb: [] };
  const bigRequests = () => dataBytes().filter((entry) => entry.path === "/data/big.parquet");
  for (let run = 0; run < RUNS; run++) {
    for (const engine of engines) {
      for (const kind of ["lookup", "aggregate"]) {
        // An engine that failed once is not run again: its failure is the result.
        if (wrong[engine].length > 0) continue;
        const page = await browser.newPage();
        try {
          await page.goto(`${origin}/compare/compare.html`, { waitUntil: "load" });
          await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
          const before = bigRequests();
          const result = await withTimeout(page.evaluate((e, k, p) => window.bench[e](k, p), engine, kind, params),
                                           `${engine} ${kind}`);
          times[engine][kind].push(result.ms);
          startup[engine][kind].push(result.startupMs);
          query[engine][kind].push(result.queryMs);
          versions[engine] = result.version;
          if (kind === "lookup") {
            // The server logs a response when its stream closes: let the last one land.
            await sleep(300);
            const mine = bigRequests().slice(before.length);
            fetched[engine].push(mine.reduce((sum, entry) => sum + entry.bytes, 0));
            requests[engine].push(mine.length);
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
  const checks = [];
  checks.push(["comparison: ours gives the expected results", wrong.ours.length === 0, wrong.ours.slice(0, 2).join("; ").slice(0, 400)]);
  // DuckDB-Wasm not running (an unreachable extension server, a changed API) is a failure:
  // a comparison that silently measures one side is no comparison.
  checks.push([`comparison: DuckDB-Wasm (${duckdbPackage}) runs and gives the expected results`, wrong.duckdb.length === 0,
               wrong.duckdb.length > 0 ? `DuckDB-Wasm could not run here: ${wrong.duckdb.slice(0, 2).join("; ").slice(0, 400)}` : versions.duckdb]);
  for (const engine of engines) {
    checks.push([`comparison: ${engine === "ours" ? "our" : "DuckDB-Wasm's"} lookups read the file over http`,
                 fetched[engine].length === RUNS && fetched[engine].every((bytes) => bytes > 0), fetched[engine].join(", ")]);
  }
  checks.push(["comparison: our wasm is smaller than DuckDB-Wasm's, raw and gzipped",
               size.ours.wasm.raw < size.duckdb.wasm.raw && size.ours.wasm.gzipped < size.duckdb.wasm.gzipped,
               `${size.ours.wasm.raw} / ${size.duckdb.wasm.raw} raw, ${size.ours.wasm.gzipped} / ${size.duckdb.wasm.gzipped} gzipped`]);
  const medians = (table) => Object.fromEntries(engines.map((e) => [e, { lookup: median(table[e].lookup), aggregate: median(table[e].aggregate) }]));
  const report = {
    runs: RUNS,
    versions: { ours: versions.ours, duckdb: versions.duckdb, duckdb_package: duckdbPackage },
    big_file_bytes: bigSize,
    size,
    ms: medians(times),
    startup_ms: medians(startup),
    query_ms: medians(query),
    all_ms: times,
    lookup_bytes_fetched: { ours: median(fetched.ours), duckdb: median(fetched.duckdb), all: fetched },
    lookup_requests: { ours: median(requests.ours), duckdb: median(requests.duckdb) },
    failures: wrong,
  };
  const ratio = (a, b) => (b / a).toFixed(2);
  report.ratios = {
    wasm_raw: ratio(size.ours.wasm.raw, size.duckdb.wasm.raw),
    wasm_gzipped: ratio(size.ours.wasm.gzipped, size.duckdb.wasm.gzipped),
    lookup_time: ratio(report.ms.ours.lookup, report.ms.duckdb.lookup),
    lookup_startup_time: ratio(report.startup_ms.ours.lookup, report.startup_ms.duckdb.lookup),
    aggregate_startup_time: ratio(report.startup_ms.ours.aggregate, report.startup_ms.duckdb.aggregate),
    aggregate_time: ratio(report.ms.ours.aggregate, report.ms.duckdb.aggregate),
    lookup_query_time: ratio(report.query_ms.ours.lookup, report.query_ms.duckdb.lookup),
    aggregate_query_time: ratio(report.query_ms.ours.aggregate, report.query_ms.duckdb.aggregate),
    lookup_bytes: ratio(report.lookup_bytes_fetched.ours, report.lookup_bytes_fetched.duckdb),
  };
  const ms = (value) => `${Number.isFinite(value) ? value.toFixed(0) : "-"} ms`;
  const text = [
    `comparison with DuckDB-Wasm ${versions.duckdb ?? "(did not run)"} (@duckdb/duckdb-wasm ${duckdbPackage}, eh bundle) and ours ` +
      `(SQLite ${versions.ours ?? "?"}), median of ${RUNS} cold runs each; ratio = DuckDB / ours:`,
    `  wasm raw:            ours ${size.ours.wasm.raw}  duckdb ${size.duckdb.wasm.raw}  ratio ${report.ratios.wasm_raw}`,
    `  wasm gzipped:        ours ${size.ours.wasm.gzipped}  duckdb ${size.duckdb.wasm.gzipped}  ratio ${report.ratios.wasm_gzipped}`,
    `  js raw/gzipped:      ours ${size.ours.js.raw}/${size.ours.js.gzipped}  duckdb ${size.duckdb.js.raw}/${size.duckdb.js.gzipped}`,
    `  lookup first result: ours ${ms(report.ms.ours.lookup)}  duckdb ${ms(report.ms.duckdb.lookup)}  ratio ${report.ratios.lookup_time}`,
    `    startup / query:   ours ${ms(report.startup_ms.ours.lookup)} / ${ms(report.query_ms.ours.lookup)}  ` +
      `duckdb ${ms(report.startup_ms.duckdb.lookup)} / ${ms(report.query_ms.duckdb.lookup)}  ` +
      `ratios ${report.ratios.lookup_startup_time} / ${report.ratios.lookup_query_time}`,
    `  local aggregate:     ours ${ms(report.ms.ours.aggregate)}  duckdb ${ms(report.ms.duckdb.aggregate)}  ratio ${report.ratios.aggregate_time}`,
    `    startup / query:   ours ${ms(report.startup_ms.ours.aggregate)} / ${ms(report.query_ms.ours.aggregate)}  ` +
      `duckdb ${ms(report.startup_ms.duckdb.aggregate)} / ${ms(report.query_ms.duckdb.aggregate)}  ` +
      `ratios ${report.ratios.aggregate_startup_time} / ${report.ratios.aggregate_query_time}`,
    `  lookup bytes:        ours ${report.lookup_bytes_fetched.ours} in ${report.lookup_requests.ours} requests  ` +
      `duckdb ${report.lookup_bytes_fetched.duckdb} in ${report.lookup_requests.duckdb} requests  ratio ${report.ratios.lookup_bytes}`,
  ].join("\n");
  return { checks, report, text };
}
