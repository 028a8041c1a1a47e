// A Firefox "phone" for the e2e tests: Debian's firefox-esr driven by puppeteer-core over
// WebDriver BiDi (Playwright drives only its own Firefox build, which cannot be downloaded
// here). e2e/firefox_phone.py starts this script and talks to it over stdin/stdout, one JSON
// object a line each way:
//   in   {"id": n, "op": "goto"|"wait_for_selector"|"click"|"fill"|"inner_text"|
//         "get_attribute"|"evaluate"|"wait_for_function"|"close", "args": [...]}
//   out  {"id": n, "ok": true, "value": ...}  or  {"id": n, "ok": false, "error": "..."}
//   and, unasked: {"event": "ready", "version": "firefox/153..."} once Firefox runs,
//                 {"event": "console", "text": ...}, {"event": "pageerror", "text": ...}
// Usage: node e2e/firefox_phone.mjs FIREFOX_BINARY [WIDTHxHEIGHT]
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [binary, size = "390x844"] = process.argv.slice(2);
const [width, height] = size.split("x").map(Number);
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: binary,
  headless: true,
  extraPrefsFirefox: {
    // a host candidate is the address itself, not an mDNS name the other browser must resolve
    "media.peerconnection.ice.obfuscate_host_addresses": false,
  },
});
const page = await browser.newPage();
await page.setViewport({ width, height, hasTouch: true, isMobile: true });
page.on("console", (m) => say({ event: "console", text: m.text() }));
page.on("pageerror", (e) => say({ event: "pageerror", text: String(e && e.message || e) }));
say({ event: "ready", version: await browser.version() });

// Shown as Playwright means it (its default "visible" state): in the document, with a box
// of its own, not visibility:hidden (puppeteer's `visible` option asks for more).
const shown = (selector, timeout) => page.waitForFunction((s) => {
  const el = document.querySelector(s);
  if (!el) return false;
  const box = el.getBoundingClientRect();
  return (box.width > 0 || box.height > 0) && getComputedStyle(el).visibility !== "hidden";
}, { timeout, polling: 100 }, selector);

// Each op waits like Playwright's of the same name (timeouts in ms).
const ops = {
  goto: (url) => page.goto(url).then(() => null),
  wait_for_selector: (selector, timeout = 30000) => shown(selector, timeout).then(() => null),
  click: async (selector, timeout = 30000) => {
    await shown(selector, timeout);
    await page.click(selector);
    return null;
  },
  fill: async (selector, text, timeout = 30000) => {
    await shown(selector, timeout);
    await page.$eval(selector, (el) => { el.value = ""; });
    await page.type(selector, text);
    return null;
  },
  inner_text: (selector) => page.$eval(selector, (el) => el.innerText),
  get_attribute: (selector, name) => page.$eval(selector, (el, n) => el.getAttribute(n), name),
  evaluate: (source) => page.evaluate(source),
  wait_for_function: (source, timeout = 30000) =>
    page.waitForFunction(source, { timeout, polling: 100 }).then(() => null),
  close: async () => { await browser.close(); return null; },
};

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    say({ id: null, ok: false, error: "not JSON: " + line.slice(0, 80) });
    continue;
  }
  const op = ops[request.op];
  try {
    if (!op) throw new Error("no such op: " + request.op);
    say({ id: request.id, ok: true, value: await op(...(request.args || [])) });
  } catch (e) {
    say({ id: request.id, ok: false, error: String(e && e.message || e) });
  }
  if (request.op === "close") break;
}
await browser.close().catch(() => {});
process.exit(0);
