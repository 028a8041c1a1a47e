// Per-player TURN credentials (tools/serve.mjs --turn-secret): coturn's "TURN REST API"
// scheme (`use-auth-secret` with a `static-auth-secret`), minted by the signaling server for
// its own pages, so that the page itself never carries a credential anyone could reuse.
//
//   username   = "<expiry, Unix seconds>:<random name>"
//   credential = base64(HMAC-SHA1(secret, username))
//
// coturn recomputes the HMAC with the same secret and refuses a username whose expiry has
// passed. README.md "Your own servers" says how a deployment runs it.
import crypto from "node:crypto";
import fs from "node:fs";
import { Bucket } from "./signal_guard.mjs";

export const TURN_TTL_S = 4 * 3600;      // a credential is good for 4 hours: a night's games
export const TURN_BURST = 10;            // per address: 10 at once, then one a minute
export const TURN_RATE = 1 / 60;
const URL_OK = /^turns?:(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?(\?transport=(udp|tcp))?$/;

/** coturn's REST credential for `secret` (text) expiring at `expiry` (Unix seconds), named
 * `name` (a random word): {username, credential}. */
export function credential(secret, expiry, name) {
  const username = `${expiry}:${name}`;
  const mac = crypto.createHmac("sha1", secret).update(username).digest("base64");
  return { username, credential: mac };
}

/** The secret in the file at `path` (coturn's static-auth-secret, its first line). Throws
 * an Error that says why when it cannot be read, is empty or too short to be a secret. */
export function loadSecret(path) {
  let text;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(`--turn-secret ${path}: ${e.code || e.message}`);
  }
  const secret = text.split("\n")[0].trim();
  if (secret.length < 16) throw new Error(`--turn-secret ${path}: a secret of at least 16 characters`);
  return secret;
}

/** True for a TURN URL a page may be given (turn: or turns:, host[:port][?transport=]). */
export function turnUrlOk(url) {
  return typeof url === "string" && url.length <= 512 && URL_OK.test(url);
}

export class TurnMint {
  /** `secret` coturn's static-auth-secret; `urls` the TURN URLs the credential is for;
   * `ttlS` how long one is good (s); `now` the clock (ms). */
  constructor({ secret, urls, ttlS = TURN_TTL_S, burst = TURN_BURST, rate = TURN_RATE,
                now = () => Date.now() }) {
    this.secret = secret;
    this.urls = urls;
    this.ttlS = ttlS;
    this.burst = burst;
    this.rate = rate;
    this.now = now;
    this.asked = new Map();    // client address -> Bucket
  }

  /** What GET <path>/turn answers, as [status, body]: 200 {iceServers: [{urls, username,
   * credential}], expires: ms since the epoch}, or 429 once `address` asked too often. */
  answer(address) {
    const now = this.now();
    let bucket = this.asked.get(address);
    if (!bucket) {
      if (this.asked.size > 50000) this.asked.clear();
      bucket = new Bucket(this.burst, this.rate, now);
      this.asked.set(address, bucket);
    }
    if (!bucket.take(now)) return [429, { error: "too many" }];
    const expiry = Math.floor(now / 1000) + this.ttlS;
    const name = crypto.randomBytes(9).toString("base64url");
    const server = { urls: this.urls, ...credential(this.secret, expiry, name) };
    return [200, { iceServers: [server], expires: expiry * 1000 }];
  }

  /** Express handler for GET <path>/turn: only for a page the guard calls ours (its own
   * origin, or one of the deployment's `origins`, then with CORS for it); 403 otherwise. */
  handler(guard) {
    return (req, res) => {
      const origin = req.headers.origin;
      res.setHeader("Cache-Control", "no-store");
      if (origin !== undefined && !guard.allowed(req, true)) return res.status(403).json({ error: "origin" });
      const site = req.headers["sec-fetch-site"];
      if (origin === undefined && site !== undefined && site !== "same-origin" && site !== "none")
        return res.status(403).json({ error: "origin" });
      // A same-origin fetch carries no Origin on GET; a page of another site, whose fetch
      // does, was refused above; with no Origin, a page of another site could only get
      // here as a plain navigation or an opaque no-cors fetch, and reads nothing of it.
      if (origin !== undefined && guard.ownPage(origin)) {
        res.setHeader("Access-Control-Allow-Origin", origin);
        res.setHeader("Vary", "Origin");
      }
      const [status, body] = this.answer(guard.address(req));
      res.status(status).json(body);
    };
  }
}
