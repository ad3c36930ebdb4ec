// Drives Debian's headless Chromium over the DevTools protocol (no npm dependency): launch,
// open a page, evaluate script, click and type with real input events, take screenshots.
// Without Chromium its tests are skipped with one line saying how to install it, except where
// ONDA_REQUIRE_BROWSER=1 (CI, .ci/run), where a missing browser fails them.

/** Debian's chromium, or the browser ONDA_CHROMIUM names. */
export const CHROMIUM = Deno.env.get("ONDA_CHROMIUM") || "/usr/bin/chromium";

function installed(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

const skipped = !installed(CHROMIUM) && Deno.env.get("ONDA_REQUIRE_BROWSER") !== "1";
if (skipped) {
  console.log(
    `browser tests skipped: ${CHROMIUM} is missing; install it with ` +
      "`apt-get install -y chromium` (or set ONDA_CHROMIUM to a Chromium binary)",
  );
}

/** A test that drives Chromium: skipped (ignored) where it is missing, unless CI requires it. */
export function browserTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name, fn, ignore: skipped, sanitizeOps: false, sanitizeResources: false });
}

export interface Page {
  /** Evaluates an expression in the page (awaiting promises) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls an expression until it is truthy; returns its value. */
  waitFor<T = unknown>(expression: string, timeoutMs?: number): Promise<T>;
  /** Clicks the centre of the element an expression yields (clickCount 2 = double click). */
  click(elementExpression: string, clickCount?: 1 | 2): Promise<void>;
  /** Focuses the element and types text as keyboard input. */
  type(elementExpression: string, text: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  /** Console messages and uncaught exceptions of the page. */
  console: string[];
  /** The URL of every request the page started (blocked ones included), in order. */
  requests: string[];
}

export interface Browser {
  open(url: string): Promise<Page>;
  close(): Promise<void>;
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(err: Error): void;
}

/** Launches Chromium; throws (the test fails) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); ` +
        ".ci/run does this in CI",
    );
  }
  const profile = await Deno.makeTempDir({ prefix: "onda_chromium_" });
  const child = new Deno.Command(CHROMIUM, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--window-size=900,900",
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();

  const wsUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("Chromium did not start in 30 s")), 30_000);
    (async () => {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        text += decoder.decode(chunk);
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
          break;
        }
      }
      // Keep draining so Chromium never blocks on a full pipe.
      for await (const _ of child.stderr) { /* discard */ }
    })().catch(reject);
  });

  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error("cannot connect to Chromium's DevTools socket"));
  });
  let nextId = 0;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(msg: Record<string, unknown>) => void>();
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (typeof msg.id === "number") {
      const waiter = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) waiter?.reject(new Error(`${msg.error.message} ${msg.error.data ?? ""}`));
      else waiter?.resolve(msg.result ?? {});
    } else {
      for (const listener of listeners) listener(msg);
    }
  };
  // deno-lint-ignore no-explicit-any
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): any =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });

  return {
    async open(url) {
      const { targetId } = await send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
      const call = (method: string, params: Record<string, unknown> = {}) =>
        send(method, params, sessionId);
      const consoleLines: string[] = [];
      const requests: string[] = [];
      listeners.add((msg) => {
        if (msg.sessionId !== sessionId) return;
        // deno-lint-ignore no-explicit-any
        const params = msg.params as any;
        if (msg.method === "Network.requestWillBeSent") {
          requests.push(params.request.url);
        } else if (msg.method === "Runtime.consoleAPICalled") {
          consoleLines.push(
            // deno-lint-ignore no-explicit-any
            `${params.type}: ${params.args.map((a: any) => a.value ?? a.description).join(" ")}`,
          );
        } else if (msg.method === "Log.entryAdded") {
          // Browser-side messages, e.g. Content-Security-Policy violations.
          consoleLines.push(`log: ${params.entry.text}`);
        } else if (msg.method === "Runtime.exceptionThrown") {
          consoleLines.push(`exception: ${params.exceptionDetails?.exception?.description}`);
        }
      });
      await call("Runtime.enable");
      await call("Page.enable");
      await call("Log.enable");
      await call("Network.enable");
      const loaded = new Promise<void>((resolve) => {
        const listener = (msg: Record<string, unknown>) => {
          if (msg.sessionId === sessionId && msg.method === "Page.loadEventFired") {
            listeners.delete(listener);
            resolve();
          }
        };
        listeners.add(listener);
      });
      await call("Page.navigate", { url });
      await loaded;

      const evaluate = async <T>(expression: string): Promise<T> => {
        const result = await call("Runtime.evaluate", {
          expression,
          awaitPromise: true,
          returnByValue: true,
        });
        if (result.exceptionDetails) {
          throw new Error(
            `page script failed: ${
              result.exceptionDetails.exception?.description ?? result.exceptionDetails.text
            }`,
          );
        }
        return result.result.value as T;
      };
      const waitFor = async <T>(expression: string, timeoutMs = 10_000): Promise<T> => {
        const deadline = Date.now() + timeoutMs;
        while (true) {
          const value = await evaluate<T>(expression);
          if (value) return value;
          if (Date.now() > deadline) {
            throw new Error(`timed out waiting for: ${expression}\n${consoleLines.join("\n")}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const centre = async (elementExpression: string) => {
        const box = await waitFor<{ x: number; y: number } | null>(
          `(() => { const e = ${elementExpression}; if (!e) return null;
            e.scrollIntoView({ block: "center" });
            const r = e.getBoundingClientRect();
            return r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null; })()`,
        );
        return box!;
      };
      return {
        console: consoleLines,
        requests,
        evaluate,
        waitFor,
        async click(elementExpression, clickCount = 1) {
          const { x, y } = await centre(elementExpression);
          await call("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
          for (let n = 1; n <= clickCount; n++) {
            const click = { x, y, button: "left", clickCount: n };
            await call("Input.dispatchMouseEvent", { type: "mousePressed", ...click });
            await call("Input.dispatchMouseEvent", { type: "mouseReleased", ...click });
          }
        },
        async type(elementExpression, text) {
          await centre(elementExpression);
          await evaluate(`(${elementExpression}).focus()`);
          await call("Input.insertText", { text });
        },
        async screenshot(path) {
          const { data } = await call("Page.captureScreenshot", { format: "png" });
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          await Deno.writeFile(path, bytes);
        },
      };
    },
    async close() {
      try {
        await send("Browser.close");
      } catch {
        // already gone
      }
      ws.close();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await child.status;
      clearTimeout(timer);
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
