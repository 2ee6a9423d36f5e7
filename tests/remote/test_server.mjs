// Test-side servers of the remote suite (tests/remote/remote_test.py starts this on loopback):
//
//  1. A fault injector serving the files of --data under /fault/MODE/NAME with Range,
//     ETag, Last-Modified and If-Match, where MODE breaks the exchange on purpose:
//       ok         serves normally
//       flaky500   every other request answers 500 (a retry succeeds)
//       always500  every request answers 500
//       drop       every other request sends its headers and half the body, then closes
//       short      206 responses carry fewer bytes than the range asked for
//       shifted    206 responses to ranges that neither start at the first byte nor end at
//                  the last carry as many bytes as asked for, but from one byte later (their
//                  Content-Range says so)
//       change     after ?after=N requests (default 2), the ETag differs (If-Match is ignored)
//       change412  the same, and If-Match answers 412
//       norange    ignores Range: 200 with the whole file
//       nosuffix   a suffix range (bytes=-N) answers 200 with the whole file; others work
//       suffix416  a suffix range answers 416 (Content-Range: bytes */SIZE); others work
//       suffixhead a suffix range of N answers bytes 0-N, as s3rver does; others work
//       stall      after ?after=N requests (default 2), 206 responses send their headers and
//                  half the body, then nothing more (the connection stays open; with
//                  ?hangup=MS it is closed after MS milliseconds)
//       nocontentrange  206 responses to ranges after the first carry no Content-Range
//       huge       claims an object of 64 GiB (Content-Range) whose footer is 1 GiB: bytes 0-3
//                  and the last 8 are a Parquet file's, the rest zeros; a range of more than
//                  1 MiB gets its headers and 256 KiB, then the connection is closed
//       auth       401 unless "Authorization: Bearer tok-123" and "X-Test: yes" are sent
//       apikey     401 unless "X-Api-Key: key-123" is sent
//       redirect   answers ?status=N (default 302) with Location: the ?to= parameter
//       loop       redirects to itself, for ever
//       longredirect  redirects to a Location of 20000 characters
//       badetag    serves normally but with an ETag that is not an RFC 9110 entity-tag and a
//                  Last-Modified that is not an HTTP date
//       crtag      serves normally but with an ETag holding a bare CR (a response head
//                  written by hand: node refuses to send one)
//     /stalled... answers nothing (any method; its body is read): a server that stalls before
//     its headers, closed after ?hangup=MS (default 8000) milliseconds. /bkt/KEY is a hostile S3
//     endpoint: it forwards the request to --s3-upstream and answers with the real object's
//     headers (ETag, Last-Modified, Content-Range, size), but every body byte after the first
//     four zeroed.
//     Every mode takes suffix ranges (bytes=-N: the last N bytes) unless it says otherwise, and
//     answers If-None-Match naming the current ETag with 304.
//     GET /__log returns the requests seen so far as JSON ({mode, range, status, host, apiKey,
//     authorization, ifMatch, ifUnmodifiedSince, ifNoneMatch, received, answered}: the Host header says which origin,
//     127.0.0.1 or localhost, a request came through; received and answered are milliseconds of the server's clock,
//     answered null until it answers or for a body written in pieces, so that a test sees which requests were in
//     flight together); ?delay=MS on any URL delays the answer by MS milliseconds.
//  2. With --s3-upstream, a second port (--s3-port) that checks the AWS Signature Version 4
//     of every request (the s3rver package only checks that the access key exists) with
//     the S3RVER/S3RVER account, then forwards it to s3rver. List requests are forwarded
//     with max-keys=2 (a smaller max-keys asked for kept), so listings need continuation tokens. A GET of a suffix range
//     (bytes=-N), which s3rver reads as bytes 0-N, reaches it as the last N bytes, as S3 sends
//     them (the fault server's /bkt/ keeps s3rver's answer). Part 2 of a multipart upload to a
//     key containing "failpart" answers 500; a listing of prefix "hugelisting" answers 17 MiB.
//     Listings of prefix "hostile/MODE/" are answered by hostileListing (below): endless pages,
//     a repeated continuation token, a DOCTYPE with entities, a 2000-byte key, 100001 objects,
//     keys with dot segments and keys outside the prefix.
//     Listings of prefix "deltaforged/MODE/_delta_log/" (Delta logs) are s3rver's, altered:
//     nostart ignores start-after (s3rver's whole listing, paged by two keys as above);
//     shuffled asks s3rver for the whole listing (no start-after, one page) and answers it in
//     one page in reverse order with every key twice, plus keys outside the prefix, with ".."
//     segments and with "/" after a log file's version (see deltaForgedListing).
//     /redirect307/REST answers 307 to /REST on the same origin, /redirectaway/REST to
//     http://localhost:PORT/REST (another origin); other requests are logged with their
//     Host, whether they are signed and their x-amz-security-token.
//  3. With --s3-direct-port, a third port that forwards every request to --s3-upstream as it
//     is (s3rver's own pages of 1000 keys; suffix ranges as in 2.) and logs them ({mode:
//     's3direct', method, url}): the count of listing requests of a big dataset.
//
// usage: node test_server.mjs --data DIR --port N [--s3-port N --s3-upstream http://127.0.0.1:N [--s3-delay MS]
//                             [--s3-direct-port N]]
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const dataDir = args.data;
const log = [];
const counters = new Map();

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}

function faultHandler(req, res) {
  // ?delay=MS: answer after MS milliseconds (the latency of a distant server, for bench/remote_bench.py).
  const delay = Number(new URL(req.url, 'http://localhost').searchParams.get('delay') ?? 0);
  req.receivedAt = performance.now();
  if (delay > 0) return setTimeout(() => serveFault(req, res), delay);
  return serveFault(req, res);
}

// The hostile S3 endpoint of /bkt/KEY (see the top of the file).
function mimicS3(req, res) {
  const upstream = new URL(args['s3-upstream']);
  const entry = { mode: 'mimic', method: req.method, url: req.url, range: req.headers.range ?? null, status: 0 };
  log.push(entry);
  const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url,
                                 headers: req.headers }, (up) => {
    const chunks = [];
    up.on('data', (c) => chunks.push(c));
    up.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = Number(/^bytes (\d+)-/.exec(up.headers['content-range'] ?? '')?.[1] ?? 0);
      if (up.statusCode === 200 || up.statusCode === 206) body.fill(0, Math.max(0, 4 - first));
      entry.status = up.statusCode;
      const headers = { ...up.headers };
      delete headers['transfer-encoding'];
      send(res, up.statusCode, { ...headers, 'content-length': body.length }, body);
    });
  });
  forward.on('error', (e) => send(res, 502, {}, String(e)));
  forward.end();
}

// The claimed 64 GiB object of mode huge: PAR1, zeros, a footer length of 1 GiB, PAR1.
function serveHuge(req, res, entry) {
  const size = 64 * 2 ** 30;
  const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  if (!range) return send(res, 416, { 'content-range': `bytes */${size}` }, '');
  const first = Number(range[1]);
  const last = Math.min(Number(range[2]), size - 1);
  const length = last + 1 - first;
  const sent = length > (1 << 20) ? 256 << 10 : length;
  const body = Buffer.alloc(sent);
  const trailer = Buffer.from([0, 0, 0, 0x40, 0x50, 0x41, 0x52, 0x31]);  // 2^30 little-endian, "PAR1"
  for (let i = 0; i < sent; i++) {
    const at = first + i;
    if (at < 4) body[i] = 'PAR1'.charCodeAt(at);
    else if (at >= size - 8) body[i] = trailer[at - (size - 8)];
  }
  entry.status = 206;
  res.writeHead(206, { etag: '"huge-1"', 'accept-ranges': 'bytes', 'content-range': `bytes ${first}-${last}/${size}`,
                       'content-length': length });
  res.write(body);
  if (sent < length) setTimeout(() => res.destroy(), 20);
  else res.end();
}

function serveFault(req, res) {
  if (req.url === '/__log') return send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(log));
  if (req.url.startsWith('/bkt/')) return mimicS3(req, res);
  if (req.url.startsWith('/stalled')) {
    log.push({ mode: 'stalled', method: req.method, url: req.url, status: 0 });
    req.resume();
    const hangup = Number(new URL(req.url, 'http://localhost').searchParams.get('hangup') ?? 8000);
    setTimeout(() => res.destroy(), hangup);
    return;
  }
  const match = /^\/fault\/([a-z0-9]+)\/(.+)$/.exec(decodeURIComponent(req.url.split('?')[0]));
  if (!match) return send(res, 404, {}, 'not found');
  const [, mode, name] = match;
  const file = path.join(dataDir, name);
  if (!file.startsWith(dataDir) || !fs.existsSync(file)) return send(res, 404, {}, 'not found');
  const key = mode + '/' + name + '?' + (req.url.split('?')[1] ?? '');  // each query string counts apart
  const count = (counters.get(key) ?? 0) + 1;
  counters.set(key, count);
  const entry = { mode, name, range: req.headers.range ?? null, status: 0, bytes: 0, host: req.headers.host,
                  apiKey: req.headers['x-api-key'] ?? null, authorization: req.headers.authorization ?? null,
                  ifMatch: req.headers['if-match'] ?? null, ifUnmodifiedSince: req.headers['if-unmodified-since'] ?? null,
                  ifNoneMatch: req.headers['if-none-match'] ?? null, received: req.receivedAt ?? performance.now(), answered: null };
  log.push(entry);
  const reply = (status, headers, body) => {
    entry.status = status;
    entry.answered = performance.now();
    entry.bytes = body?.length ?? 0;
    if (mode !== 'crtag') return send(res, status, headers, body);
    const head = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`, 'Connection: close',
                  ...Object.entries({ ...headers, etag: '"v1\r-1"' }).map(([k, v]) => `${k}: ${v}`)];
    res.socket.end(Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), Buffer.from(body ?? '')]));
  };

  if (mode === 'always500' || (mode === 'flaky500' && count % 2 === 0)) return reply(500, {}, 'injected failure');
  if (mode === 'auth' && (req.headers.authorization !== 'Bearer tok-123' || req.headers['x-test'] !== 'yes')) {
    return reply(401, {}, 'unauthorized');
  }
  if (mode === 'apikey' && req.headers['x-api-key'] !== 'key-123') return reply(401, {}, 'unauthorized');
  const query = new URL(req.url, 'http://localhost').searchParams;
  if (mode === 'redirect') return reply(Number(query.get('status') ?? 302), { location: query.get('to') }, '');
  if (mode === 'loop') return reply(302, { location: req.url }, '');
  if (mode === 'longredirect') return reply(302, { location: '/fault/ok/' + 'x'.repeat(20000) }, '');
  if (mode === 'huge') return serveHuge(req, res, entry);
  const stat = fs.statSync(file);
  const after = Number(query.get('after') ?? 2);
  const changed = (mode === 'change' || mode === 'change412') && count > after;
  const etag = mode === 'badetag' ? `v1-${stat.size}` : `"v${changed ? 2 : 1}-${stat.size}"`;
  const lastModified = mode === 'badetag' ? 'yesterday' : stat.mtime.toUTCString();
  const headers = { etag, 'last-modified': lastModified, 'accept-ranges': 'bytes' };
  if (mode === 'change412' && req.headers['if-match'] && req.headers['if-match'] !== etag) {
    return reply(412, {}, 'precondition failed');
  }
  if (req.headers['if-none-match'] === etag && mode !== 'badetag') return reply(304, headers, '');
  const suffix = /^bytes=-(\d+)$/.exec(req.headers.range ?? '');
  if (suffix && mode === 'suffix416') return reply(416, { 'content-range': `bytes */${stat.size}` }, '');
  let range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  if (suffix && mode === 'suffixhead') range = [null, '0', suffix[1]];
  else if (suffix && mode !== 'nosuffix' && Number(suffix[1]) > 0) {
    range = [null, String(Math.max(0, stat.size - Number(suffix[1]))), String(stat.size - 1)];
  }
  if (!range || mode === 'norange') {
    if (stat.size > 0 && req.headers.range) {
      // Written 64 KiB a millisecond, so that entry.bytes shows where a client that stops
      // reading (it asked for a range) ended the transfer.
      entry.status = 200;
      res.writeHead(200, { ...headers, 'content-length': stat.size });
      const bytes = fs.readFileSync(file);
      const writeNext = () => {
        if (res.destroyed || entry.bytes >= bytes.length) return res.end();
        const chunk = bytes.subarray(entry.bytes, entry.bytes + (64 << 10));
        entry.bytes += chunk.length;
        res.write(chunk, () => setTimeout(writeNext, 1));
      };
      return writeNext();
    }
    const bytes = fs.readFileSync(file);
    return reply(200, { ...headers, 'content-length': bytes.length }, bytes);
  }
  const shift = mode === 'shifted' && Number(range[1]) > 0 && Number(range[2]) < stat.size - 1 ? 1 : 0;
  const first = Number(range[1]) + shift;
  if (first >= stat.size) return reply(416, { 'content-range': `bytes */${stat.size}` }, '');
  const last = Math.min(Number(range[2]) + shift, stat.size - 1);
  let body = Buffer.alloc(last + 1 - first);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, body, 0, body.length, first);
  fs.closeSync(fd);
  const partial = { ...headers, 'content-range': `bytes ${first}-${last}/${stat.size}` };
  if (mode === 'drop' && count % 2 === 0 && body.length > 1) {
    entry.status = 206;
    res.writeHead(206, { ...partial, 'content-length': body.length });
    res.write(body.subarray(0, body.length >> 1));
    setTimeout(() => res.destroy(), 20);
    return;
  }
  if (mode === 'stall' && count > after && body.length > 1) {
    entry.status = 206;
    res.writeHead(206, { ...partial, 'content-length': body.length });
    res.write(body.subarray(0, body.length >> 1));
    if (query.get('hangup')) setTimeout(() => res.destroy(), Number(query.get('hangup')));
    return;  // never ends: the client has to give up (or be interrupted)
  }
  if (mode === 'short' && count > 1 && body.length > 1) body = body.subarray(0, body.length >> 1);
  if (mode === 'nocontentrange' && first > 0) delete partial['content-range'];
  reply(206, { ...partial, 'content-length': body.length }, body);
}

// ---- SigV4 verification (AWS "Signature Version 4 signing process", S3 flavour) ----------

const kSecrets = { S3RVER: 'S3RVER' };
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();
const rfc3986 = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function verifySigV4(req, body) {
  const auth = req.headers.authorization;
  if (!auth) return 'request is not signed';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'malformed Authorization header';
  const [, keyId, day, region, signedHeaders, signature] = m;
  const secret = kSecrets[keyId];
  if (secret === undefined) return 'unknown access key';
  const payloadHash = req.headers['x-amz-content-sha256'];
  if (!payloadHash) return 'missing x-amz-content-sha256';
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'payload hash mismatch';
  const [rawPath, rawQuery = ''] = req.url.split('?');
  const query = rawQuery === '' ? '' : rawQuery.split('&').map((pair) => {
    const [k, v = ''] = pair.split('=');
    return [rfc3986(decodeURIComponent(k)), rfc3986(decodeURIComponent(v))];
  }).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&');
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) {
    return 'host, x-amz-date or x-amz-content-sha256 not signed';
  }
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, rawPath, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', req.headers['x-amz-date'], scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac('AWS4' + secret, day), region), 's3'), 'aws4_request');
  const expected = crypto.createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? null : 'signature does not match';
}

// The listing pages of prefix hostile/MODE/ (continuation tokens "pN" name page N):
//   endless   IsTruncated=true for ever, each page 1000 new keys ending in .txt
//   repeated  IsTruncated=true, always the continuation token "same"
//   doctype   a DOCTYPE whose entities expand one key 1000-fold
//   hugekey   one key of 2000 bytes (S3 allows 1024)
//   many      101 pages of 1000 keys ending in .parquet (100001 objects would match *.parquet)
//   dotkeys   hostile/dotkeys/../../../other-bucket/important.parquet, hostile/dotkeys/./k=9/part-0.parquet,
//             elsewhere/outside.parquet (outside the prefix) and one stale hostile/dotkeys/k=7/part-0.parquet
function hostileListing(mode, query) {
  const prefix = `hostile/${mode}/`;
  const page = Number((query.get('continuation-token') ?? 'p0').slice(1));
  const contents = (keys) => keys.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join('');
  const listing = (next, body) => '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bkt</Name>' +
    `<IsTruncated>${next !== null}</IsTruncated>${next !== null ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}` +
    `${body}</ListBucketResult>`;
  const thousand = (suffix) => Array.from({ length: 1000 }, (_, i) => `${prefix}${page}-${i}${suffix}`);
  switch (mode) {
    case 'endless': return listing(`p${page + 1}`, contents(thousand('.txt')));
    case 'repeated': return listing('same', contents([`${prefix}a.parquet`]));
    case 'doctype':
      return '<?xml version="1.0"?><!DOCTYPE ListBucketResult [<!ENTITY a "aaaaaaaaaa">' +
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>' +
        `<ListBucketResult><IsTruncated>false</IsTruncated>${contents([`${prefix}&c;.parquet`])}</ListBucketResult>`;
    case 'hugekey': return listing(null, contents([`${prefix}${'k'.repeat(2000)}.parquet`]));
    case 'many': return listing(page < 100 ? `p${page + 1}` : null, contents(page < 100 ? thousand('.parquet') : [`${prefix}last.parquet`]));
    case 'dotkeys':
      return listing(null, contents([`${prefix}../../../other-bucket/important.parquet`, `${prefix}./k=9/part-0.parquet`,
                                     'elsewhere/outside.parquet', `${prefix}k=7/part-0.parquet`]));
    default: return null;
  }
}

// The altered Delta log listings of prefix deltaforged/MODE/_delta_log/ (see the top of the
// file): `url` is the request's, `entry` its log entry.
function deltaForgedListing(mode, req, res, url, entry) {
  const query = new URL(url, 'http://localhost').searchParams;
  const prefix = query.get('prefix');
  if (mode === 'nostart') {
    query.delete('start-after');
    query.set('max-keys', String(Math.min(2, Number(query.get('max-keys') ?? 2))));
    entry.forged = 'nostart';
    return forwardToUpstream(req, res, `${url.split('?')[0]}?${query}`, Buffer.alloc(0), entry);
  }
  query.delete('start-after');
  query.delete('continuation-token');
  query.set('max-keys', '1000');
  const upstream = new URL(args['s3-upstream']);
  const whole = http.request({ host: upstream.hostname, port: upstream.port, method: 'GET', path: `${url.split('?')[0]}?${query}`,
                               headers: { ...req.headers } }, (up) => {
    const chunks = [];
    up.on('data', (c) => chunks.push(c));
    up.on('end', () => {
      const keys = [...Buffer.concat(chunks).toString().matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]).reverse();
      const forged = [...keys, ...keys, 'elsewhere/_delta_log/00000000000000000099.json', `${prefix}../../cm/_delta_log/00000000000000000098.json`,
        `${prefix}00000000000000000097.checkpoint.x/../../../../lake/cm/_delta_log/00000000000000000010.checkpoint.parquet`,
        `${prefix}00000000000000000096.json/x.json`];
      entry.forged = 'shuffled';
      entry.status = 200;
      send(res, 200, { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bkt</Name><IsTruncated>false</IsTruncated>' +
        forged.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join('') + '</ListBucketResult>');
    });
  });
  whole.on('error', (e) => send(res, 502, {}, String(e)));
  whole.end();
}

function s3Proxy(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const detour = /^\/(redirect307|redirectaway)(\/.*)$/.exec(req.url);
    if (detour) {
      const to = detour[1] === 'redirect307' ? detour[2] : `http://localhost:${args['s3-port']}${detour[2]}`;
      log.push({ mode: 's3redirect', method: req.method, url: req.url, status: 307 });
      return send(res, 307, { location: to }, '');
    }
    const problem = verifySigV4(req, body);
    const entry = { mode: 's3', method: req.method, url: req.url, status: problem ? 403 : 0, problem, host: req.headers.host,
                    signed: req.headers.authorization !== undefined, sessionToken: req.headers['x-amz-security-token'] ?? null,
                    range: req.headers.range ?? null, ifNoneMatch: req.headers['if-none-match'] ?? null };
    log.push(entry);
    if (problem) {
      return send(res, 403, { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`);
    }
    if (req.method === 'PUT' && req.url.includes('failpart') && /[?&]partNumber=2(&|$)/.test(req.url)) {
      return send(res, 500, { 'content-type': 'application/xml' }, '<Error><Code>InternalError</Code></Error>');
    }
    let url = req.url;
    if (req.method === 'GET' && /[?&]list-type=2(&|$)/.test(url) && /[?&]prefix=hugelisting/.test(url)) {
      // A listing no real page reaches: 17 MiB of one XML document.
      const filler = '<Contents><Key>hugelisting/x.parquet</Key></Contents>'.repeat(Math.ceil((17 << 20) / 56));
      return send(res, 200, { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>${filler}</ListBucketResult>`);
    }
    const listed = new URL(url, 'http://localhost').searchParams;
    const hostile = /^hostile\/([a-z]+)\/$/.exec(listed.get('prefix') ?? '');
    if (req.method === 'GET' && listed.get('list-type') === '2' && hostile && hostileListing(hostile[1], listed) !== null) {
      return send(res, 200, { 'content-type': 'application/xml' }, hostileListing(hostile[1], listed));
    }
    const forged = /^deltaforged\/([a-z]+)\/_delta_log\/$/.exec(listed.get('prefix') ?? '');
    if (req.method === 'GET' && listed.get('list-type') === '2' && forged) return deltaForgedListing(forged[1], req, res, url, entry);
    if (req.method === 'GET' && /[?&]list-type=2(&|$)/.test(url)) {
      // Pages of at most 2 keys: a max-keys asked for is lowered to 2 (1 stays 1).
      url = /[?&]max-keys=/.test(url) ? url.replace(/([?&])max-keys=(\d+)/, (m, sep, n) => `${sep}max-keys=${Math.min(2, Number(n))}`)
                                      : url + '&max-keys=2';
    }
    forwardToUpstream(req, res, url, body, entry);
  });
}

// Forwards a request to s3rver (after --s3-delay) and its answer back; `entry` (may be null)
// is the request's log entry, which gets the status.
function forwardToUpstream(req, res, url, body, entry) {
  const upstream = new URL(args['s3-upstream']);
  const headers = { ...req.headers };
  const forwardRequest = () => {
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: url, headers },
      (up) => {
        if (entry) entry.status = up.statusCode;
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
    forward.on('error', (e) => send(res, 502, {}, String(e)));
    forward.end(body);
  };
  // S3 answers a suffix range (bytes=-N) with the last N bytes; s3rver reads it as bytes
  // 0-N. The object's size (a HEAD) turns it into the range S3 would send.
  const suffix = /^bytes=-(\d+)$/.exec(headers.range ?? '');
  if (req.method !== 'GET' || !suffix) return later(forwardRequest);
  const { range, ...unranged } = headers;
  const head = http.request({ host: upstream.hostname, port: upstream.port, method: 'HEAD', path: url, headers: unranged }, (up) => {
    up.resume();
    const size = Number(up.headers['content-length'] ?? 0);
    if (up.statusCode === 200 && size > 0) headers.range = `bytes=${Math.max(0, size - Number(suffix[1]))}-${size - 1}`;
    later(forwardRequest);
  });
  head.on('error', (e) => send(res, 502, {}, String(e)));
  head.end();
}

// The plain forwarding port (3. above).
function s3Direct(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const entry = { mode: 's3direct', method: req.method, url: req.url, status: 0 };
    log.push(entry);
    forwardToUpstream(req, res, req.url, Buffer.concat(chunks), entry);
  });
}

// --s3-delay MS: every S3 request is answered MS milliseconds late (bench/remote_bench.py).
function later(action) {
  const delay = Number(args['s3-delay'] ?? 0);
  if (delay > 0) setTimeout(action, delay);
  else action();
}

http.createServer({ keepAlive: true }, faultHandler).listen(Number(args.port), '127.0.0.1', () => console.log('fault server listening'));
if (args['s3-port']) {
  http.createServer(s3Proxy).listen(Number(args['s3-port']), '127.0.0.1', () => console.log('s3 proxy listening'));
}
if (args['s3-direct-port']) {
  http.createServer({ keepAlive: true }, s3Direct).listen(Number(args['s3-direct-port']), '127.0.0.1',
    () => console.log('s3 direct port listening'));
}
