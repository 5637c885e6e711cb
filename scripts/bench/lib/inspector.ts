import { CALIBRATE_EVERY_MS, CALIBRATION, type CpuProfile, SAMPLING_INTERVAL_US } from './isolate-cpu.ts';
import { cpuMs, SETTLE_SPELL_MS } from './load.ts';

/**
 * A DevTools protocol session on wrangler dev's inspector proxy (miniflare's;
 * one client at a time), for the isolate CPU profiles (isolate-cpu.ts).
 */
export class Inspector {
  #ws: WebSocket;
  #next = 0;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** The Worker's JavaScript context (Runtime.executionContextCreated), for Runtime.evaluate. */
  #context: number | undefined;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener('message', (e) => {
      const m = JSON.parse(String(e.data)) as {
        id?: number;
        method?: string;
        params?: { context?: { id: number } };
        result?: unknown;
        error?: { message: string };
      };
      if (m.method === 'Runtime.executionContextCreated' && m.params?.context) this.#context = m.params.context.id;
      const p = m.id === undefined ? undefined : this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id!);
      if (m.error) p.reject(new Error(`inspector: ${m.error.message}`));
      else p.resolve(m.result);
    });
    ws.addEventListener('close', () => {
      for (const p of this.#pending.values()) p.reject(new Error('inspector connection closed'));
      this.#pending.clear();
    });
  }

  /**
   * The Worker's socket as the inspector at `origin` lists it (`/json`, as
   * DevTools finds it). The proxy sometimes refuses a client at once (seen in
   * two of four full runs, right after the load rounds): up to five tries, a
   * second apart, each bounded, before the run fails with the last error.
   */
  static async open(origin: string): Promise<Inspector> {
    let last: unknown;
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const targets = (await (await fetch(`${origin}/json`, { signal: AbortSignal.timeout(10_000) })).json()) as {
          webSocketDebuggerUrl: string;
        }[];
        if (targets.length !== 1) throw new Error(`inspector ${origin}: expected one Worker, found ${targets.length}`);
        return await Inspector.connect(targets[0]!.webSocketDebuggerUrl);
      } catch (err) {
        last = err;
        if (attempt < 5) await new Promise((r) => setTimeout(r, 1000));
      }
    }
    throw last;
  }

  /** miniflare's proxy accepts a local Origin only (its DevTools origin check). */
  static connect(url: string): Promise<Inspector> {
    // Node's WebSocket (undici) takes headers as a non-standard option; the DOM types do not know it.
    const Ws = WebSocket as unknown as new (u: string, o: { headers: Record<string, string> }) => WebSocket;
    const ws = new Ws(url, { headers: { Origin: 'http://127.0.0.1' } });
    return new Promise((resolve, reject) => {
      // A socket that neither opens nor fails would otherwise hold the benchmark forever.
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`inspector ${url}: not open within 10 s`));
      }, 10_000);
      ws.addEventListener(
        'open',
        () => {
          clearTimeout(timer);
          resolve(new Inspector(ws));
        },
        { once: true },
      );
      ws.addEventListener('error', () => reject(new Error(`inspector: cannot connect to ${url}`)), { once: true });
      // miniflare's proxy takes one DevTools client at a time and closes any other at once.
      ws.addEventListener('close', (e) => reject(new Error(`inspector ${url} closed: ${e.code} ${e.reason}`)), {
        once: true,
      });
    });
  }

  send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<T> {
    const id = ++this.#next;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`inspector: no answer to ${method} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates `expression` in the Worker's context (as DevTools' console does). */
  async evaluate(expression: string): Promise<void> {
    if (this.#context === undefined) {
      // Enabling announces the context (disabled first: the runtime's session outlives DevTools clients, and
      // enabling twice announces nothing); disabled again so that console lines are not sent here during the runs.
      await this.send('Runtime.disable');
      await this.send('Runtime.enable');
      for (let i = 0; i < 100 && this.#context === undefined; i++) await new Promise((r) => setTimeout(r, 20));
      await this.send('Runtime.disable');
      if (this.#context === undefined) throw new Error('inspector: the Worker announced no execution context');
    }
    const r = await this.send<{ exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      contextId: this.#context,
      returnByValue: true,
    });
    if (r?.exceptionDetails) throw new Error(`inspector: evaluate failed: ${r.exceptionDetails.text}`);
  }

  /**
   * Runs `work` under the sampling profiler and returns its result with the
   * profile and the number of calibration loops run in the isolate meanwhile
   * (every `CALIBRATE_EVERY_MS`, and once more at the end; see isolate-cpu.ts).
   * Then `after`, still profiled but with no loop running: a wait for the
   * isolate to fall idle must not wait on the loops themselves.
   */
  async profile<T>(
    work: () => Promise<T>,
    after: () => Promise<void> = async () => {},
  ): Promise<{ result: T; profile: CpuProfile; loops: number }> {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await this.send('Profiler.start');
    const stop = () => this.send<{ profile: CpuProfile }>('Profiler.stop');
    let result: T;
    let working = true;
    let loops = 0;
    const calibrate = async () => {
      while (working) {
        await this.evaluate(CALIBRATION);
        loops++;
        await new Promise((r) => setTimeout(r, CALIBRATE_EVERY_MS));
      }
    };
    try {
      const calibrating = calibrate();
      try {
        result = await work();
      } finally {
        working = false;
        await calibrating;
      }
      await after();
      await this.evaluate(CALIBRATION);
      loops++;
    } catch (err) {
      await stop().catch(() => {});
      throw err;
    }
    return { result, profile: (await stop()).profile, loops };
  }

  /**
   * The CPU time `pid` (this Worker's workerd) uses in one of `settle`'s
   * spells while the profiler samples an idle isolate: the most of six.
   * The sampler is not free (20-30 ms a spell on a slower machine, at this
   * interval), so a wait for the isolate to fall idle under the profiler
   * counts from this, not from zero.
   */
  async idleCpuPerSpell(pid: number | undefined): Promise<number> {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await this.send('Profiler.start');
    let most = 0;
    try {
      let last = cpuMs(pid);
      for (let i = 0; i < 6 && last !== null; i++) {
        await new Promise((r) => setTimeout(r, SETTLE_SPELL_MS));
        const now = cpuMs(pid);
        if (now !== null) most = Math.max(most, now - last);
        last = now;
      }
    } finally {
      await this.send('Profiler.stop');
    }
    return most;
  }

  close(): void {
    this.#ws.close();
  }
}
