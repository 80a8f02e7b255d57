// A page opened in headless Chromium (Debian's `chromium`) through the DevTools protocol over a
// pipe (--remote-debugging-pipe: JSON messages ending in NUL on file descriptors 3 and 4), with
// no library: what the page logs to its console, the exceptions it throws, and a screenshot of
// an element. For the first-day checks of the HTML charts.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The Chromium binary on PATH, or undefined. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export interface PageVisit {
  /** Console messages of level warning or error, and uncaught exceptions. */
  readonly problems: string[];
  /** Every console message, for the record. */
  readonly messages: string[];
  /** A PNG of the element matched by the selector. */
  readonly screenshot: Buffer;
  /** Whether the wait condition became true. */
  readonly ready: boolean;
}

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** Kill the browser's whole process group (it leads one: spawned detached). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // the group has gone already, or this platform has none
  }
}

/**
 * Open `url`, wait (at most `timeoutMs`) until `readyWhen` (a JavaScript expression) is true, then
 * wait `settleMs` more for late messages, and capture the element `selector`.
 */
export async function visit(
  binary: string,
  url: string,
  options: { readyWhen: string; selector: string; timeoutMs?: number; settleMs?: number; width?: number; height?: number },
): Promise<PageVisit> {
  const profile = mkdtempSync(join(tmpdir(), 'dype-chromium-'));
  const child: ChildProcess = spawn(
    binary,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-dev-shm-usage',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    // Its own temporary files go into the profile folder too, removed with it.
    // Its own process group, so that its helpers (renderer, crash handler), which write to the
    // profile too, are killed with it.
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: profile }, detached: true },
  );
  const gone = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => void (stderr = (stderr + b.toString()).slice(-4000)));
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let buffered = Buffer.alloc(0);
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (let end = buffered.indexOf(0); end >= 0; end = buffered.indexOf(0)) {
      const m = JSON.parse(buffered.subarray(0, end).toString('utf8')) as Message;
      buffered = buffered.subarray(end + 1);
      if (m.id !== undefined && pending.has(m.id)) {
        const p = pending.get(m.id)!;
        pending.delete(m.id);
        if (m.error) p.reject(new Error(`chromium: ${m.error.message}`));
        else p.resolve(m);
      } else for (const l of listeners) l(m);
    }
  });
  const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${stderr}`))));
  exited.catch(() => undefined); // it exits when closed at the end too
  let next = 0;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> => {
    const id = ++next;
    const reply = new Promise<Message>((resolve, reject) => pending.set(id, { resolve, reject }));
    toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return Promise.race([reply, exited]).then((m) => m.result ?? {});
  };

  const problems: string[] = [];
  const messages: string[] = [];
  let loaded = false;
  listeners.push((m) => {
    if (m.method === 'Runtime.consoleAPICalled') {
      const p = m.params as { type: string; args: { value?: unknown; description?: string }[] };
      const text = `console.${p.type}: ${p.args.map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? ''))).join(' ')}`;
      messages.push(text);
      if (p.type === 'warning' || p.type === 'warn' || p.type === 'error' || p.type === 'assert') problems.push(text);
    } else if (m.method === 'Runtime.exceptionThrown') {
      const d = (m.params as { exceptionDetails: { text: string; exception?: { description?: string } } }).exceptionDetails;
      problems.push(`exception: ${d.exception?.description ?? d.text}`);
    } else if (m.method === 'Log.entryAdded') {
      const e = (m.params as { entry: { level: string; text: string; url?: string } }).entry;
      messages.push(`log.${e.level}: ${e.text}`);
      if (e.level === 'warning' || e.level === 'error') problems.push(`log.${e.level}: ${e.text}${e.url ? ` (${e.url})` : ''}`);
    } else if (m.method === 'Page.loadEventFired') {
      loaded = true;
    }
  });

  try {
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const s = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> => send(method, params, sessionId);
    await s('Runtime.enable');
    await s('Log.enable');
    await s('Page.enable');
    await s('Emulation.setDeviceMetricsOverride', { width: options.width ?? 1280, height: options.height ?? 1600, deviceScaleFactor: 1, mobile: false });
    await s('Page.navigate', { url });
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    let ready = false;
    while (Date.now() < deadline) {
      if (loaded) {
        const r = (await s('Runtime.evaluate', { expression: `Boolean(${options.readyWhen})`, returnByValue: true })) as { result: { value?: unknown } };
        if (r.result.value === true) {
          ready = true;
          break;
        }
      }
      await new Promise((res) => setTimeout(res, 100));
    }
    await new Promise((res) => setTimeout(res, options.settleMs ?? 500));
    const box = (await s('Runtime.evaluate', {
      expression: `(() => { const r = document.querySelector(${JSON.stringify(options.selector)}).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`,
      returnByValue: true,
    })) as { result: { value: [number, number, number, number] } };
    const [x, y, width, height] = box.result.value;
    const shot = (await s('Page.captureScreenshot', { format: 'png', clip: { x, y, width: Math.max(1, width), height: Math.max(1, height), scale: 1 } })) as {
      data: string;
    };
    await send('Browser.close').catch(() => undefined);
    return { problems, messages, screenshot: Buffer.from(shot.data, 'base64'), ready };
  } finally {
    killGroup(child);
    // The profile is written until the browser and its helpers have gone: retry its removal for
    // a while (a helper still writing made a single removal fail with ENOTEMPTY).
    await Promise.race([gone, new Promise((res) => setTimeout(res, 5000))]);
    for (let attempt = 0; ; attempt++) {
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        break;
      } catch (e) {
        // biome-ignore lint/correctness/noUnsafeFinally: a profile that cannot be removed is a failure of its own, reported even over the try's
        if (attempt >= 10) throw e;
        killGroup(child);
        await new Promise((res) => setTimeout(res, 500));
      }
    }
  }
}
