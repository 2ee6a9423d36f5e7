// The demo page's script (examples/web/index.html): the sqlite-parquet-wasm package's Worker
// API (openWorker) over a picked file or an https URL. The package is looked for in ./pkg/
// (`make wasm` links build-wasm/pkg there), or where ?pkg=URL says.
const pkgBase = new URL(new URLSearchParams(location.search).get("pkg") ?? "./pkg/", location.href);
const { openWorker } = await import(new URL("api.mjs", pkgBase).href);

const $ = (id) => document.getElementById(id);
const status = (text, error = false) => {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
};
let db = null;
let source = null;  // what parquet('...') reads: a registered file's name or the URL

function sqlString(text) {
  return "'" + text.replaceAll("'", "''") + "'";
}

function render(table, rows) {
  table.replaceChildren();
  const columns = rows.columns ?? [];
  const head = table.createTHead().insertRow();
  for (const name of columns) {
    const th = document.createElement("th");
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows.slice(0, 1000)) {
    const tr = body.insertRow();
    for (const value of row) {
      const td = tr.insertCell();
      td.textContent = value === null ? "NULL"
                     : value instanceof Uint8Array ? `<${value.length} bytes>` : String(value);
      td.title = td.textContent;
    }
  }
}

async function showSchema() {
  if (!source) return;
  try {
    render($("schema"), await db.queryArrays(
      `SELECT name, type, logical_type, repetition_type FROM parquet_schema(${sqlString(source)})`));
    render($("metadata"), await db.queryArrays(
      `SELECT num_rows, num_row_groups, created_by, format_version FROM parquet_file_metadata(${sqlString(source)})`));
  } catch (error) {
    $("schema").replaceChildren();
    $("metadata").replaceChildren();
    status(String(error.message), true);
  }
}

// The chosen file or URL becomes the table `data`.
async function useSource(name) {
  source = name;
  $("source").textContent = `data = parquet(${sqlString(name)})`;
  try {
    await db.exec(`DROP TABLE IF EXISTS data; CREATE VIRTUAL TABLE data USING parquet(${sqlString(name)})`);
  } catch (error) {
    status(String(error.message), true);
    return false;
  }
  $("sql").value = "SELECT * FROM data LIMIT 100;";
  await showSchema();
  return true;
}

async function run() {
  status("running...");
  const started = performance.now();
  try {
    const rows = await db.queryArrays($("sql").value);
    const ms = performance.now() - started;
    render($("results"), rows);
    status(`${rows.length} row${rows.length === 1 ? "" : "s"} in ${ms.toFixed(1)} ms`);
  } catch (error) {
    status(String(error.message), true);
  }
}

async function exportParquet() {
  const query = $("sql").value.trim().replace(/;\s*$/, "");
  status("exporting...");
  const started = performance.now();
  try {
    await db.exec(`SELECT parquet_copy(${sqlString(query)}, 'export.parquet', 'compression=zstd')`);
    const bytes = await db.readFile("export.parquet");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], { type: "application/vnd.apache.parquet" }));
    link.download = "export.parquet";
    link.id = "download";
    document.body.appendChild(link);
    link.click();
    status(`exported ${bytes.length} bytes in ${(performance.now() - started).toFixed(1)} ms`);
  } catch (error) {
    status(String(error.message), true);
  }
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  const name = file.name.replace(/[^A-Za-z0-9._-]/g, "_") || "local.parquet";
  await db.registerFile(name, file);  // read a slice at a time, as queries need
  if (await useSource(name)) await run();
});
$("use-url").addEventListener("click", async () => {
  const url = $("url").value.trim();
  if (url) await useSource(url);
});
$("run").addEventListener("click", run);
$("export").addEventListener("click", exportParquet);
$("sql").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) run();
});

status("loading...");
db = await openWorker();
document.body.dataset.ready = "1";
await run();
