// The wasm suite's browser test (tests/wasm/run.sh): Debian's Chromium, headless, driven by
// puppeteer-core, loads the demo page (examples/web/) from tests/wasm/range_server.mjs on
// loopback, which also serves the package and the data files with Range support and logs
// every request. Checks:
//  - a point lookup over the URL of a 100+ MB page-indexed file (made here by the native
//    build's parquet_copy): the row on the page, and under 1% of the file fetched;
//  - a URL on another origin without CORS headers: the page shows the CORS error;
//  - a local file picked through the file input is queried (read in slices by the Worker);
//  - the export downloads a Parquet file that the native build reads back;
//  - a screenshot of the page with the point lookup's result: LOGDIR/wasm-demo.png.
// Then the side-by-side comparison with DuckDB-Wasm (tests/wasm/compare.mjs) in the same
// browser. Last line: "browser: N passed, M failed".
//   node tests/wasm/browser_test.mjs --pkg build-wasm/pkg --native build --logdir DIR
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareWithDuckdb } from "./compare.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const pkg = resolve(option("--pkg", "build-wasm/pkg"));
const native = resolve(option("--native", "build"));
const logdir = resolve(option("--logdir", "build-wasm/test-logs"));
mkdirSync(logdir, { recursive: true });
const puppeteer = (await import("puppeteer-core")).default;

let passed = 0, failed = 0;
function check(name, condition, detail = "") {
  if (condition) {
    passed++;
    console.log(`ok: ${name}${detail ? ` (${detail})` : ""}`);
  } else {
    failed++;
    console.log(`FAILED: ${name}${detail ? `: ${detail}` : ""}`);
  }
}

// The native build's sqlite3 shell with the extension, for making and reading files (or,
// when the native build has no parquet.so, the wasm build itself in this process, through
// the host's file system: NATIVE_FALLBACK is then said in the output).
const haveNative = existsSync(join(native, "parquet.so"));
let nodeDb = null;
async function nativeSql(sql) {
  if (haveNative) {
    return execFileSync("sqlite3", ["-cmd", `.load ${join(native, "parquet")}`, ":memory:", sql],
                        { encoding: "utf8", maxBuffer: 1 << 26 }).trim();
  }
  const api = await import(join(pkg, "api.mjs"));
  nodeDb ??= await api.open();
  // Paths of the host's files: copied in and out of the module's memory around the query.
  const paths = [...sql.matchAll(/'(\/[^']+\.parquet)'/g)].map((m) => m[1]);
  let local = sql;
  for (const path of paths) {
    const name = `/work/host${paths.indexOf(path)}.parquet`;
    if (existsSync(path)) await nodeDb.registerFile(name, new Uint8Array(readFileSync(path)));
    local = local.replaceAll(`'${path}'`, `'${name}'`);
  }
  const statements = local.split(/;\s*(?=CREATE|SELECT|DROP)/);
  let rows = [];
  for (const statement of statements) rows = nodeDb.queryArrays(statement);
  for (const path of paths) {
    const name = `/work/host${paths.indexOf(path)}.parquet`;
    if (!existsSync(path)) writeFileSync(path, nodeDb.readFile(name));
  }
  nodeDb.exec("DROP TABLE IF EXISTS t");
  return rows.map((row) => row.join("|")).join("\n");
}

const work = mkdtempSync(join(tmpdir(), "wasm-browser-"));
const data = join(work, "data");
const downloads = join(work, "downloads");
mkdirSync(data);
mkdirSync(downloads);
let server = null, browser = null;
try {
  // 1.2 million rows sorted by id, 100 random bytes (as hex) each: about 120 MB, row groups of
  // 200,000 rows, 8 KiB pages, the page index written: a point lookup needs the footer, the
  // page index, one page of id and the payload pages of its rows.
  const big = join(data, "big.parquet");
  const rows = 1200000;
  await nativeSql(`SELECT parquet_copy('WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1}) ` +
            `SELECT i AS id, hex(randomblob(50)) AS payload, i % 1000 AS bucket FROM n', '${big}', ` +
            `'row_group_size=200000', 'page_size=8192', 'compression=snappy', 'dictionary=0', 'write_page_index=1')`);
  const bigSize = statSync(big).size;
  if (!haveNative) console.log(`NATIVE_FALLBACK: ${native}/parquet.so missing, files made and read by the wasm build`);
  check("the big file is over 100 MB", bigSize > 100e6, `${(bigSize / 1e6).toFixed(1)} MB`);
  const probeId = 987654;
  const expected = await nativeSql(`CREATE VIRTUAL TABLE t USING parquet('${big}'); SELECT payload FROM t WHERE id = ${probeId}`);
  // The local file: 300,000 rows, an aggregate with a known answer.
  const local = join(data, "local.parquet");
  await nativeSql(`SELECT parquet_copy('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) ` +
            `SELECT i AS id, i % 7 AS k, i * 0.25 AS v FROM n', '${local}', 'compression=zstd')`);
  const localAggregate = await nativeSql(`CREATE VIRTUAL TABLE t USING parquet('${local}'); SELECT k || ':' || count(*) || ':' || sum(v) FROM t GROUP BY k ORDER BY k`);

  const logPath = join(work, "requests.log");
  const corsPortFile = join(work, "cors-port");
  server = spawn(process.execPath, [join(here, "range_server.mjs"), "--log", logPath, "--cors-port-file", corsPortFile,
                                    "--route", `=${join(root, "examples/web")}`, "--route", `pkg=${pkg}`,
                                    "--route", `data=${data}`, "--route", `compare=${here}`,
                                    "--route", `nm=${join(here, "node_modules")}`],
                 { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolvePort, reject) => {
    let text = "";
    server.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /listening (\d+)/.exec(text);
      if (match) resolvePort(Number(match[1]));
    });
    server.on("exit", () => reject(new Error("the range server exited")));
  });
  const corsPort = Number(readFileSync(corsPortFile, "utf8"));
  const origin = `http://127.0.0.1:${port}`;
  const dataBytes = () => existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean)
    .map((line) => JSON.parse(line)).filter((entry) => entry.path.startsWith("/data/")) : [];

  browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    userDataDir: join(work, "profile"),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage();
  const consoleLines = [];
  page.on("console", (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => consoleLines.push(`pageerror: ${error.message}`));
  const cdp = await page.createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, eventsEnabled: true });
  await page.setViewport({ width: 1200, height: 900 });
  await page.goto(`${origin}/`, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']", { timeout: 120000 });
  await page.waitForFunction(() => /row/.test(document.getElementById("status").textContent), { timeout: 60000 });
  const versionCell = await page.$eval("#results td", (td) => td.textContent);
  check("the page runs SQLite in a Worker", /^3\.\d+\.\d+$/.test(versionCell), versionCell);

  const runSql = async (sql) => {
    await page.$eval("#status", (element) => { element.textContent = ""; });
    await page.$eval("#sql", (element, text) => { element.value = text; }, sql);
    await page.click("#run");
    await page.waitForFunction(() => document.getElementById("status").textContent !== "" &&
                                      document.getElementById("status").textContent !== "running...", { timeout: 120000 });
    return page.$eval("#status", (element) => ({ text: element.textContent, error: element.className === "error" }));
  };

  // The point lookup over the big file's URL: everything the page fetched of it counted.
  const url = `${origin}/data/big.parquet`;
  await page.$eval("#url", (element, text) => { element.value = text; }, url);
  await page.click("#use-url");
  await page.waitForFunction(() => document.querySelectorAll("#schema td").length > 0, { timeout: 60000 });
  const schemaText = await page.$eval("#schema", (element) => element.textContent);
  check("the schema of the URL's file", /payload/.test(schemaText) && /bucket/.test(schemaText), schemaText.slice(0, 120));
  const lookup = await runSql(`SELECT id, payload FROM data WHERE id = ${probeId};`);
  const cells = await page.$$eval("#results td", (tds) => tds.map((td) => td.textContent));
  check("the point lookup's row on the page", !lookup.error && /^1 row /.test(lookup.text) &&
        cells[0] === String(probeId) && cells[1] === expected, `${lookup.text}: ${cells.join(" | ").slice(0, 80)}`);
  const fetched = dataBytes();
  const fetchedBytes = fetched.reduce((sum, entry) => sum + entry.bytes, 0);
  check("the point lookup fetched under 1% of the file", fetchedBytes < bigSize / 100,
        `${fetchedBytes} bytes of ${bigSize} (${(100 * fetchedBytes / bigSize).toFixed(3)}%) in ${fetched.length} requests: ` +
        fetched.map((entry) => `${entry.range}=${entry.bytes}`).join(", "));
  check("every request of the file was a Range request", fetched.every((entry) => (entry.status === 206 || entry.status === 304) && entry.range),
        JSON.stringify(fetched.filter((entry) => entry.status !== 206).slice(0, 2)));
  await page.screenshot({ path: join(logdir, "wasm-demo.png"), fullPage: true });
  check("screenshot saved", existsSync(join(logdir, "wasm-demo.png")), join(logdir, "wasm-demo.png"));

  // A server on another origin that sends no CORS headers.
  await page.$eval("#status", (element) => { element.textContent = ""; });
  await page.$eval("#url", (element, text) => { element.value = text; }, `http://127.0.0.1:${corsPort}/data/big.parquet`);
  await page.click("#use-url");
  await page.waitForFunction(() => document.getElementById("status").className === "error", { timeout: 60000 });
  const refused = await page.$eval("#status", (element) => element.textContent);
  check("a CORS refusal is reported as such", /CORS/.test(refused), refused);

  // A local file through the file input (registered as a File: read in slices).
  const input = await page.$("#file");
  await input.uploadFile(local);
  await page.waitForFunction(() => /local\.parquet/.test(document.getElementById("source").textContent), { timeout: 60000 });
  await page.waitForFunction(() => /rows? in/.test(document.getElementById("status").textContent), { timeout: 60000 });
  const firstPage = await page.$eval("#status", (element) => element.textContent);
  check("the picked file's first rows", /^100 rows/.test(firstPage), firstPage);
  const aggregate = await runSql("SELECT k || ':' || count(*) || ':' || sum(v) AS r FROM data GROUP BY k ORDER BY k;");
  const aggregateCells = await page.$$eval("#results td", (tds) => tds.map((td) => td.textContent));
  check("an aggregate over the picked file", !aggregate.error && aggregateCells.join("\n") === localAggregate,
        `${aggregate.text}: ${aggregateCells.slice(0, 2).join(" ")}`);

  // The export: a query's result written by parquet_copy in the browser, downloaded.
  await page.$eval("#sql", (element) => { element.value = "SELECT k, count(*) AS n, sum(v) AS total FROM data GROUP BY k ORDER BY k;"; });
  await page.click("#export");
  let exported = null;
  for (let i = 0; i < 200 && !exported; i++) {
    const done = readdirSync(downloads).filter((name) => name.endsWith(".parquet"));
    if (done.length > 0) exported = join(downloads, done[0]);
    else await new Promise((r) => setTimeout(r, 100));
  }
  check("the export downloaded", exported !== null, readdirSync(downloads).join(","));
  if (exported) {
    const back = await nativeSql(`CREATE VIRTUAL TABLE t USING parquet('${exported}'); SELECT k || ':' || n || ':' || total FROM t ORDER BY k`);
    check("the downloaded export reads back (native build)", back === localAggregate, back.split("\n").slice(0, 2).join(" "));
  }
  const pageErrors = consoleLines.filter((line) => line.startsWith("pageerror"));
  check("no uncaught error on the page", pageErrors.length === 0, pageErrors.join("; "));
  writeFileSync(join(logdir, "wasm-browser-console.log"), consoleLines.join("\n") + "\n");
  await page.close();

  // Side by side with DuckDB-Wasm, same browser, same server, same files.
  if (args.includes("--no-compare")) {
    console.log("comparison with DuckDB-Wasm: not run (--no-compare)");
  } else {
    const result = await compareWithDuckdb({ browser, origin, pkg, here, dataBytes, probeId, expected, localAggregate, bigSize, work });
    for (const [name, ok, detail] of result.checks) check(name, ok, detail);
    writeFileSync(join(logdir, "wasm-compare.json"), JSON.stringify(result.report, null, 2) + "\n");
    console.log(result.text);
  }
} catch (error) {
  check("the browser test ran to its end", false, error.stack);
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server) server.kill();
  rmSync(work, { recursive: true, force: true });
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
