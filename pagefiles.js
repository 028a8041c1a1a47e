// The page's Python files (ui/page/, ui/shared/, the part of crisp_core guests use, compiled to
// MicroPython bytecode): one download, py/page-<hash>.zip.gz (config.js `pageZip`, written by
// tools/build.py), written into MicroPython's file system by boot.js before start.py imports
// them.
//
// Why not PyScript's own `[files]` unzip: it unpacks each of the ~110 entries through zip.js
// (a Blob reader, a stream and a codec per entry), ~200 ms of the page's main thread on a
// laptop before the landing can show, several times that on a phone. The archive here is a
// zip whose entries are stored (not compressed), gzipped as a whole: one native inflate of
// ~0.2 MB, then every file is a view into it (a few milliseconds in all).
//
// Functions (pure but `unpack`'s use of DecompressionStream; tests/test_pagefiles.py runs them
// in node):
//   storedEntries(bytes)  Uint8Array of a zip -> [[path, Uint8Array view], ...] of its files
//                         in order (folder entries left out). Throws an Error naming the
//                         problem when it is no zip, an entry is compressed or encrypted, or
//                         an offset points outside the bytes.
//   unpack(bytes)         Uint8Array of the download -> Promise of storedEntries of it,
//                         inflated first when it starts with gzip's magic bytes (a server
//                         that already undid the gzip, Content-Encoding, gives the zip itself).
//   writeFiles(FS, files) writes [[path, bytes], ...] under FS.cwd(), making folders as needed
//                         (Emscripten's FS API: cwd, mkdir, writeFile, analyzePath). Paths
//                         with "..", a leading "/" or empty parts are refused (Error).

const EOCD = 0x06054b50;       // end of central directory record
const CENTRAL = 0x02014b50;    // central directory file header
const LOCAL = 0x04034b50;      // local file header

export function storedEntries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at) => {
    if (at < 0 || at + 4 > bytes.length) throw new Error("page files: cut short");
    return view.getUint32(at, true);
  };
  const u16 = (at) => {
    if (at < 0 || at + 2 > bytes.length) throw new Error("page files: cut short");
    return view.getUint16(at, true);
  };
  // the end record: last in the file, before a comment of at most 65535 bytes
  let end = bytes.length - 22;
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  while (end >= lowest && u32(end) !== EOCD) end -= 1;
  if (end < lowest) throw new Error("page files: not a zip");
  const count = u16(end + 10);
  let at = u32(end + 16);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i += 1) {
    if (u32(at) !== CENTRAL) throw new Error("page files: bad directory entry");
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const size = u32(at + 20);
    const nameLength = u16(at + 28);
    const local = u32(at + 42);
    const nameEnd = at + 46 + nameLength;
    if (nameEnd > bytes.length) throw new Error("page files: cut short");
    const name = names.decode(bytes.subarray(at + 46, nameEnd));
    at = nameEnd + u16(at + 30) + u16(at + 32);
    if (name.endsWith("/")) continue;
    if (flags & 1) throw new Error(`page files: ${name} is encrypted`);
    if (method !== 0) throw new Error(`page files: ${name} is compressed (method ${method})`);
    if (u32(local) !== LOCAL) throw new Error(`page files: ${name}: bad local header`);
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + size > bytes.length) throw new Error(`page files: ${name} is cut short`);
    files.push([name, bytes.subarray(start, start + size)]);
  }
  return files;
}

export async function unpack(bytes) {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  }
  return storedEntries(bytes);
}

export function writeFiles(FS, files) {
  const base = FS.cwd().replace(/\/$/, "");
  const made = new Set();
  for (const [path, data] of files) {
    const parts = path.split("/");
    if (parts.some((p) => p === "" || p === "." || p === "..")) {
      throw new Error(`page files: refused path ${JSON.stringify(path)}`);
    }
    let dir = base;
    for (const part of parts.slice(0, -1)) {
      dir += "/" + part;
      if (made.has(dir)) continue;
      if (!FS.analyzePath(dir).exists) FS.mkdir(dir);
      made.add(dir);
    }
    FS.writeFile(dir + "/" + parts[parts.length - 1], data);
  }
}
