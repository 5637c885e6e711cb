import { importAppModule } from '../../bench/lib/app-module.ts';
import { type HealthzProbe, startHealthzProbe } from '../lib/healthz-probe.ts';
import {
  hostileMarkdown,
  plainMarkdown,
  type ReadRow,
  type RenderCost,
  renderCosts,
  timedCreate,
  timedReads,
  type WriteRow,
} from '../lib/markdown-measures.ts';
import { nodeServer, registerOwner } from '../lib/stack.ts';
import type { Log, ReliabilityConfig, Section } from './step.ts';

const KiB = 1024;
const MiB = KiB * KiB;

/**
 * Step 7: Markdown. What rendering costs per KB (hostile and plain), a
 * hostile create against the defaults (refused, naming the limit) and with
 * the bounds raised (rendered in the render thread while /healthz answers),
 * and anonymous uncached reads of a 1 KB and a 3 MiB article: each read only
 * joins the stored HTML's image links with the origin, so its cost is the
 * bytes it sends, not a render.
 */
export interface MarkdownResult {
  costs: RenderCost[];
  writes: WriteRow[];
  reads: ReadRow[];
}

export async function markdownStep(cfg: ReliabilityConfig, log: Log): Promise<MarkdownResult> {
  const { renderArticleHtml } = await importAppModule<{
    renderArticleHtml: (body: string, format: string) => string;
  }>('render', "export { renderArticleHtml } from './worker/src/core/content/render.ts';");
  const costs = renderCosts(renderArticleHtml, cfg.quick ? 32 : 128);
  for (const c of costs) log(`render ${c.name}: ${c.msPerKb.toFixed(2)} ms/KB`);

  const writes: WriteRow[] = [];
  const reads: ReadRow[] = [];
  const big = cfg.quick ? MiB : 3 * MiB;
  // The defaults: the hostile body is refused before any rendering.
  await withServer({}, async (server, token, probe) => {
    writes.push(await timedCreate(server, token, probe, `${big / MiB} MiB hostile, defaults`, hostileMarkdown(big)));
  });
  // Bounds raised past the body: it renders (in the thread), once; reads serve what was stored.
  const raised = {
    MAX_MARKDOWN_BYTES: String(4 * MiB),
    MAX_RENDER_BYTES: String(4 * MiB),
    RENDER_TIME_LIMIT_MS: '600000',
  };
  await withServer(raised, async (server, token, probe) => {
    for (const [name, body, count] of [
      ['1 KB plain', plainMarkdown(KiB), 50],
      [`${big / MiB} MiB hostile, bounds raised`, hostileMarkdown(big), cfg.quick ? 3 : 10],
    ] as const) {
      const created = await timedCreate(server, token, probe, name, body);
      writes.push(created);
      log(
        `create ${name}: ${created.status} in ${created.ms.toFixed(0)} ms, /healthz worst ${created.healthzMs.toFixed(0)} ms`,
      );
      if (created.id) reads.push(await timedReads(server, token, probe, name, created.id, count));
    }
  });
  return { costs, writes, reads };
}

async function withServer(
  env: Record<string, string>,
  run: (server: { url: string; pid: number | undefined }, token: string, probe: HealthzProbe) => Promise<void>,
): Promise<void> {
  const server = await nodeServer('Node + SQLite (Markdown)', { env: { PUBLIC_READ_CACHE: 'off', ...env } });
  let probe: HealthzProbe | undefined;
  try {
    const token = await registerOwner(server);
    probe = await startHealthzProbe(server.url);
    await run(server, token, probe);
  } finally {
    probe?.stop();
    await server.stop();
  }
}

export function markdownSection(r: MarkdownResult): Section {
  const lines = [
    "Rendering per KB (the app's renderer in this process, the best of three):",
    '',
    '| body | KiB | ms | ms per KB | HTML / body |',
    '|---|---|---|---|---|',
    ...r.costs.map(
      (c) => `| ${c.name} | ${c.kib} | ${c.ms.toFixed(0)} | ${c.msPerKb.toFixed(2)} | ${c.outputRatio.toFixed(1)} |`,
    ),
    '',
    'Creates against the built server (SQLite), with the slowest `/healthz` meanwhile (asked from another process):',
    '',
    '| create | answer | ms | slowest /healthz ms |',
    '|---|---|---|---|',
    ...r.writes.map(
      (w) =>
        `| ${w.name} | ${w.status}${w.message ? `: ${w.message}` : ''} | ${w.ms.toFixed(0)} | ${w.healthzMs.toFixed(0)} |`,
    ),
    '',
    'Anonymous uncached reads (`PUBLIC_READ_CACHE=off`, each under another Host):',
    '',
    '| article | reads | ms per read | server CPU ms per read | answer bytes | slowest /healthz ms |',
    '|---|---|---|---|---|---|',
    ...r.reads.map(
      (x) =>
        `| ${x.name} | ${x.reads} | ${x.msPerRead.toFixed(1)} | ${x.cpuMsPerRead === null ? '?' : x.cpuMsPerRead.toFixed(1)} | ${x.answerBytes} | ${x.healthzMs.toFixed(0)} |`,
    ),
  ];
  // At the defaults the hostile body is stored unrendered (its text as paragraphs, a linear pass). With the bounds raised it renders in the thread: the
  // slowest /healthz is then what reading, storing and answering its megabytes cost the loop, a small
  // part of the create's time; a render on the loop would hold /healthz for all of it. Reads cost their
  // bytes (serialising, hashing, sending) and are reported, not judged.
  const failures =
    r.writes.filter((w) => w.name.endsWith('defaults') && (w.status !== 201 || w.healthzMs > 0.25 * w.ms)).length +
    r.writes.filter((w) => w.name.endsWith('raised') && (w.status !== 201 || w.healthzMs > 0.25 * w.ms)).length;
  return { title: '7. Markdown rendering', body: lines.join('\n'), failures };
}
