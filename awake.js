// The Screen Wake Lock: a phone whose screen locks mid-round takes its player away,
// and the host's page with it. ui/page/base_page.py says when it is wanted (`crisp.keepAwake(on)`: while
// a round is played); this file holds it, asks again when the page is shown (the browser lets
// it go when the page is hidden), and lets it go when it is no longer wanted. Where the
// browser has no navigator.wakeLock (or refuses it) nothing happens and nothing is said.
let wanted = false;
let lock = null;
let asking = false;

function release() {
  const held = lock;
  lock = null;
  if (held && typeof held.release === "function") held.release().catch(() => {});
}

function request() {
  if (!wanted || asking || (lock && !lock.released) || document.visibilityState !== "visible") return;
  const api = navigator.wakeLock;
  if (!api || typeof api.request !== "function") return;
  asking = true;
  Promise.resolve()
    .then(() => api.request("screen"))
    .then((sentinel) => {
      asking = false;
      lock = sentinel || null;
      if (lock && typeof lock.addEventListener === "function") {
        lock.addEventListener("release", () => { if (lock === sentinel) lock = null; });
      }
      if (!wanted) release();
    }, () => { asking = false; });
}

document.addEventListener("visibilitychange", request);

export function keepAwake(on) {
  wanted = !!on;
  if (wanted) request();
  else release();
}
