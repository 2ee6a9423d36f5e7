import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run("PRAGMA add_parquet_key('k', '0123456789012345')");
for (const f of process.argv.slice(2)) {
  try {
    const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${f}', encryption_config={footer_key:'k'})`);
    console.log(f, r.getRows());
  } catch (e) { console.log(f, String(e)); }
}

